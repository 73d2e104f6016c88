"""tessel.visualize and PartitionResult.visualize: pictures of how a sharding lays a tensor
out over the devices of a mesh, the ones `tessel viz` draws. The layout and the drawing are
Tessel's C++ (partitioner/api/visualize.h); this module picks text, coloured text, HTML or
SVG for where the picture is shown.

    picture = tessel.visualize(tessel.P("data"), (10,), mesh=tessel.Mesh({"data": 4}))
    print(picture)           # the grid of `tessel viz`: [0:3] [3:6] [6:9] [9:10]
    picture.tiles[3].ranges  # ((9, 10),)
"""

import collections
import json
import os
import sys

from tessel import _tessel
from tessel.mesh import Mesh
from tessel.spec import to_sharding

# What one device holds: per dimension the index range [begin, end), padding excluded.
Tile = collections.namedtuple("Tile", "device ranges empty partial_sum_group")
# How one dimension is cut: its size, the axes splitting it, into how many pieces of what size.
Dim = collections.namedtuple("Dim", "size axes pieces piece_size")
# A windowed op reading the value and, per split dimension it slides over, the halo each
# piece needs: Halo("hlo.reduce_window at f.mlir:4:8", {0: ([0, 1, 1], [1, 1, 0])}, "").
Halo = collections.namedtuple("Halo", "user dims note")


def _stdout_wants_color():
    """Colour for a person at a terminal that shows it, unless they asked for none
    (NO_COLOR, https://no-color.org), as `tessel viz --color=auto` decides."""
    stream = sys.stdout
    try:
        is_tty = stream.isatty()
    except (AttributeError, ValueError):
        return False
    return is_tty and os.environ.get("TERM") != "dumb" and "NO_COLOR" not in os.environ


class Visualization:
    """The picture of one value. str() (and repr(), so that a REPL shows it) is the text
    picture, coloured when `color` says so or, by default, when standard output is a
    terminal; in Jupyter it is drawn as SVG (_repr_html_). `.tiles`, `.dims` and `.halos`
    are the facts the picture shows."""

    def __init__(self, native, header, color=None, width=80, halos=()):
        self._native = native
        self.header = header
        self.color = color
        self.width = width
        self.halos = [Halo(h.user, {d.dim: (list(d.low), list(d.high)) for d in h.dims}, h.note)
                      for h in halos]

    @property
    def num_devices(self):
        return self._native.num_devices

    @property
    def dims(self):
        return [Dim(d.size, tuple(d.axes), d.pieces, d.piece_size) for d in self._native.dims]

    @property
    def tiles(self):
        """Every device's Tile, by device id (one per device: mind a mesh of millions)."""
        return [Tile(t.device, tuple(tuple(r) for r in t.ranges), t.empty, t.partial_sum_group)
                for t in self._native.tiles()]

    def text(self, color=False, width=None):
        """The header and the picture; ANSI colours only with color=True."""
        picture = self._native.text(width or self.width, bool(color))
        body = "".join("  " + line + "\n" for line in picture.splitlines())
        return f"{self.header}\n{body}"

    def html(self, heading="tessel.visualize"):
        """One self-contained HTML page, as `tessel viz --format=html` writes."""
        return self._native.html(heading, self.header)

    def svg(self, heading="tessel.visualize"):
        """One SVG image, as `tessel viz --format=svg` writes."""
        return self._native.svg(heading, self.header)

    def json(self):
        """The layout as a dict, as `tessel viz --format=json` writes it for a value."""
        return json.loads(self._native.json())

    def _repr_html_(self):
        # An inline SVG, not the page: a page's stylesheet would restyle the notebook. The
        # XML declaration has no place inside HTML.
        image = self.svg()
        start = image.find("<svg")
        return f'<div class="tessel-visualization">{image[start:]}</div>'

    def __str__(self):
        color = _stdout_wants_color() if self.color is None else self.color
        return self.text(color=color).rstrip("\n")

    __repr__ = __str__


def _shape_of(shape):
    """A list of dimension sizes from a tuple, list, or anything with `.shape` (a numpy
    array, jax.ShapeDtypeStruct)."""
    if hasattr(shape, "shape"):
        shape = shape.shape
    try:
        dims = [int(d) for d in shape]
    except TypeError:
        raise _tessel.Error(f"a shape is a sequence of sizes, (16, 64); got {shape!r}") from None
    return dims


def visualize(sharding, shape, mesh=None, color=None, width=80):
    """The picture of a tensor of `shape` laid out by `sharding` (a tessel.P, a
    '#sdy.sharding<...>' or '#tessel.sharding<...>' string, or None for replicated) on
    `mesh` (a tessel.Mesh or a dict of axis sizes)."""
    dims = _shape_of(shape)
    if mesh is not None and not isinstance(mesh, Mesh):
        mesh = Mesh(mesh)
    if mesh is None:
        raise _tessel.Error("visualize needs the mesh the sharding names: mesh=tessel.Mesh(...)")
    if sharding is None:
        native = _tessel.Sharding.create(mesh._native, [[] for _ in dims])
    else:
        native = to_sharding(sharding, mesh, len(dims), "the sharding")
    picture = _tessel.picture(native, dims)
    return Visualization(picture, f"{dims}: {native}", color=color, width=width)
