"""tessel.Mesh: devices laid out as an array with named axes, as JAX's Mesh names them."""

from tessel import _tessel


class Mesh:
    """A device mesh: `Mesh({"data": 4, "model": 2})` is 8 devices as a 4x2 array, "data"
    the major axis. `devices` lists the device ids in row-major mesh order (a permutation of
    0..n-1; default 0, 1, 2, ...); `name` is the mesh's symbol in the program."""

    def __init__(self, axes, devices=None, name="mesh"):
        if isinstance(axes, Mesh):
            self._native = axes._native
            return
        if isinstance(axes, _tessel.Mesh):
            self._native = axes
            return
        if isinstance(axes, dict):
            items = list(axes.items())
        else:
            try:
                items = [tuple(item) for item in axes]
            except TypeError:
                raise _tessel.Error(
                    f"a mesh is a dict of axis sizes, {{'data': 4}}; got {axes!r}") from None
        for item in items:
            if (len(item) != 2 or not isinstance(item[0], str) or isinstance(item[1], bool)
                    or not isinstance(item[1], int)):
                raise _tessel.Error(
                    f"a mesh axis is a name and a size, ('data', 4); got {item!r}")
        self._native = _tessel.Mesh(items, list(devices or []), name)

    @property
    def name(self):
        return self._native.name

    @property
    def shape(self):
        """The axis sizes by name, major to minor: {"data": 4, "model": 2}."""
        return dict(self._native.axes)

    @property
    def axis_names(self):
        return tuple(name for name, _ in self._native.axes)

    @property
    def size(self):
        """The number of devices."""
        return self._native.num_devices

    @property
    def devices(self):
        """The device ids in row-major mesh order."""
        return list(self._native.device_ids)

    def __eq__(self, other):
        return isinstance(other, Mesh) and self._native == other._native

    def __hash__(self):
        return hash((self.name, tuple(self._native.axes), tuple(self.devices)))

    def __repr__(self):
        return f"Mesh({self.shape!r})" if self.name == "mesh" else \
            f"Mesh({self.shape!r}, name={self.name!r})"

    def __str__(self):
        return str(self._native)
