"""The JAX bridge: partition a JAX function with Tessel, and compare Tessel's collectives
with the ones XLA's own partitioner chooses for the same function. Needs JAX (it is never
a dependency of the tessel package); `import tessel` works without it.

    import jax, numpy as np, tessel.jax
    from jax.sharding import Mesh, NamedSharding, PartitionSpec as P
    mesh = Mesh(np.array(jax.devices()[:8]).reshape(4, 2), ("data", "model"))
    x = jax.ShapeDtypeStruct((16, 64), np.float32, sharding=NamedSharding(mesh, P("data")))
    result = tessel.jax.partition(f, x, w1, w2)   # a tessel.PartitionResult
    print(tessel.jax.compare(f, x, w1, w2))       # Tessel's collectives beside XLA's

The function is lowered with `jax.jit(f).lower(*args)`; its StableHLO with Shardy's
shardings is what Tessel reads (docs/stablehlo.md), so the shardings the arguments carry
(NamedSharding on arrays or on jax.ShapeDtypeStruct) are the program's.
"""

try:
    import jax as _jax
except ImportError as error:
    raise ImportError(
        "tessel.jax needs JAX (pip install jax); the rest of tessel works without it") from error

import collections

from tessel import _tessel
from tessel.hlo_collectives import count_collectives
from tessel.mesh import Mesh
from tessel.program import load


def tessel_mesh(jax_mesh, name="mesh"):
    """The tessel.Mesh of a jax.sharding.Mesh: the same axes, sizes and, where the mesh's
    device ids are a permutation of 0..n-1, the same device order."""
    axes = [(axis, int(size)) for axis, size in jax_mesh.shape.items()]
    ids = [int(device.id) for device in jax_mesh.devices.flat]
    devices = ids if sorted(ids) != ids and sorted(ids) == list(range(len(ids))) else None
    return Mesh(axes, devices=devices, name=name)


def _jax_mesh_of(args):
    """The mesh of the first NamedSharding among `args` (arrays or ShapeDtypeStructs,
    possibly nested in lists, tuples and dicts), or None."""
    for leaf in _jax.tree_util.tree_leaves(args):
        sharding = getattr(leaf, "sharding", None)
        mesh = getattr(sharding, "mesh", None)
        if mesh is not None and getattr(mesh, "shape", None):
            return mesh
    return None


def lower(f, *args, format="stablehlo"):
    """The program Tessel reads for `jax.jit(f)` on `args`: StableHLO with Shardy's
    shardings ("stablehlo") or XLA HLO text ("hlo")."""
    lowered = _jax.jit(f).lower(*args)
    if format == "stablehlo":
        return load(lowered.as_text(), format="mlir")
    if format == "hlo":
        return load(lowered.as_text(dialect="hlo"), format="hlo")
    raise _tessel.Error(f"unknown lowering format {format!r} (formats: stablehlo, hlo)")


def partition(f, *args, mesh=None, in_shardings=None, out_shardings=None, format="stablehlo",
              **options):
    """Lowers `jax.jit(f)` on `args` and partitions it with Tessel; returns a
    tessel.PartitionResult (run it on numpy arrays, explain, visualize...).

    mesh: a jax.sharding.Mesh or tessel.Mesh for the in_shardings/out_shardings given
    here (tessel.P, as program.partition takes them); by default the mesh of the
    arguments' NamedShardings. Options are program.partition's."""
    program = lower(f, *args, format=format)
    if mesh is None:
        mesh = _jax_mesh_of(args)
    if mesh is not None and not isinstance(mesh, Mesh):
        mesh = tessel_mesh(mesh)
    if mesh is None or (in_shardings is None and out_shardings is None):
        # The program carries its own mesh (the one JAX lowered with).
        mesh = None
    return program.partition(mesh, in_shardings=in_shardings, out_shardings=out_shardings,
                             **options)


# One kind of collective: how many each partitioner put in the program and the bytes of
# their results on each device (summed).
Row = collections.namedtuple("Row", "kind tessel_count tessel_bytes xla_count xla_bytes")


class Comparison:
    """Tessel's collectives beside XLA's for one function: `.rows` (one Row per kind either
    has), str() a table, and an HTML table in Jupyter. `.tessel` is Tessel's
    PartitionResult, `.xla_hlo` the compiled HLO text XLA's counts come from."""

    def __init__(self, rows, tessel, xla_hlo):
        self.rows = rows
        self.tessel = tessel
        self.xla_hlo = xla_hlo

    def row(self, kind):
        for row in self.rows:
            if row.kind == kind:
                return row
        return Row(kind, 0, 0, 0, 0)

    _HEADINGS = ("collective", "tessel", "tessel bytes/device", "xla", "xla bytes/device")

    def _cells(self):
        return [tuple(str(v) for v in row) for row in self.rows]

    def __str__(self):
        cells = [self._HEADINGS] + self._cells()
        widths = [max(len(line[i]) for line in cells) for i in range(len(self._HEADINGS))]
        lines = []
        for number, line in enumerate(cells):
            lines.append("  ".join(c.ljust(w) if i == 0 else c.rjust(w)
                                   for i, (c, w) in enumerate(zip(line, widths))).rstrip())
            if number == 0:
                lines.append("  ".join("-" * w for w in widths))
        if not self.rows:
            lines.append("(no collectives)")
        return "\n".join(lines)

    __repr__ = __str__

    def _repr_html_(self):
        import html
        head = "".join(f"<th>{html.escape(h)}</th>" for h in self._HEADINGS)
        body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in line) + "</tr>"
                       for line in self._cells())
        return (f'<table class="tessel-comparison"><thead><tr>{head}</tr></thead>'
                f"<tbody>{body}</tbody></table>")


def compare(f, *args, **options):
    """Partitions `jax.jit(f)` on `args` with Tessel (as partition() does) and with XLA
    (`jax.jit(f).lower(*args).compile()`), and tabulates the collectives of each: kind,
    count and bytes per device."""
    result = partition(f, *args, **options)
    xla_hlo = _jax.jit(f).lower(*args).compile().as_text()
    xla = count_collectives(xla_hlo)
    ours = {}
    for collective in result.collectives:
        count, size = ours.get(collective.kind, (0, 0))
        ours[collective.kind] = (count + collective.count, size + collective.bytes)
    rows = []
    for kind in sorted(set(ours) | set(xla)):
        tessel_count, tessel_bytes = ours.get(kind, (0, 0))
        xla_count, xla_bytes = xla.get(kind, (0, 0))
        rows.append(Row(kind, tessel_count, tessel_bytes, xla_count, xla_bytes))
    return Comparison(rows, result, xla_hlo)
