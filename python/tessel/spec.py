"""PartitionSpec (tessel.P) as JAX writes it, and the conversion of anything accepted
where a sharding is expected (a P, Shardy's `#sdy.sharding<...>` text, Tessel's
`#tessel.sharding<...>` text) into the C++ API's Sharding for one value."""

from tessel import _tessel


class _Unconstrained:
    """A dimension left for propagation to split (JAX's PartitionSpec.UNCONSTRAINED)."""

    def __repr__(self):
        return "UNCONSTRAINED"


UNCONSTRAINED = _Unconstrained()


def _axis_names(axes, what):
    """A tuple of axis names from a name, or an iterable of names (JAX's unreduced={...})."""
    if isinstance(axes, str):
        return (axes,)
    try:
        names = tuple(axes)
    except TypeError:
        names = None
    if names is None or not all(isinstance(a, str) for a in names):
        raise _tessel.Error(f"{what} is a sequence of axis names; got {axes!r}")
    # Sets have no order; sorted keeps the spec (and its printed form) deterministic.
    return tuple(sorted(names)) if isinstance(axes, (set, frozenset)) else names


class PartitionSpec(tuple):
    """Per tensor dimension, the mesh axes that split it: `P("data", None)` splits rows over
    "data" and keeps columns whole; `P(("data", "model"), None)` splits rows over both axes,
    "data" major. Dimensions past the last entry are not split; P() replicates.

    Keywords beyond JAX's positional form: `unreduced=("model",)`, the value holds partial
    sums over those axes (as JAX's `P(..., unreduced={...})`); `replicated=("data",)`,
    propagation must not split it over those axes; `priorities=(0, None)`, per entry the
    propagation priority of that dimension's sharding (0 strongest; Shardy's `p0`)."""

    UNCONSTRAINED = UNCONSTRAINED

    def __new__(cls, *dims, unreduced=(), replicated=(), priorities=None):
        for dim in dims:
            if dim is None or dim is UNCONSTRAINED or isinstance(dim, str):
                continue
            if isinstance(dim, (tuple, list)) and all(isinstance(a, str) for a in dim):
                continue
            raise _tessel.Error(
                f"a PartitionSpec entry is None, an axis name or a tuple of axis names; "
                f"got {dim!r}")
        spec = super().__new__(cls, tuple(tuple(d) if isinstance(d, list) else d for d in dims))
        spec.unreduced = _axis_names(unreduced, "unreduced")
        spec.replicated = _axis_names(replicated, "replicated")
        priorities = tuple(priorities or ())
        if len(priorities) > len(dims):
            raise _tessel.Error(f"{len(priorities)} priorities for {len(dims)} entries")
        for priority in priorities:
            if priority is not None and (isinstance(priority, bool) or
                                         not isinstance(priority, int) or priority < 0):
                raise _tessel.Error(
                    f"a priority is None or an integer >= 0 (0 strongest); got {priority!r}")
        while priorities and priorities[-1] is None:
            priorities = priorities[:-1]
        spec.priorities = priorities
        return spec

    def __eq__(self, other):
        if not isinstance(other, tuple) or tuple(self) != tuple(other):
            return False
        if not isinstance(other, PartitionSpec):
            return not (self.unreduced or self.replicated or self.priorities)
        return (self.unreduced, self.replicated, self.priorities) == \
            (other.unreduced, other.replicated, other.priorities)

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        # Equal to the plain tuple when there are no keywords, so it must hash like it.
        if not (self.unreduced or self.replicated or self.priorities):
            return tuple.__hash__(self)
        return hash((tuple(self), self.unreduced, self.replicated, self.priorities))

    def __repr__(self):
        parts = [repr(d) for d in self]
        for name in ("unreduced", "replicated", "priorities"):
            if getattr(self, name):
                parts.append(f"{name}={getattr(self, name)!r}")
        return "P(" + ", ".join(parts) + ")"


P = PartitionSpec


def to_sharding(spec, mesh, rank, what):
    """The C++ Sharding of `spec` on `mesh` (a tessel.Mesh, or None when the program's own
    mesh is used) for a rank-`rank` value named `what` in messages; None for None."""
    if spec is None:
        return None
    if isinstance(spec, _tessel.Sharding):
        return spec
    if mesh is None:
        raise _tessel.Error(
            f"{what}: a sharding needs a mesh; pass one to partition(mesh, ...)")
    if isinstance(spec, str):
        return _tessel.Sharding.parse(mesh._native, spec)
    if not isinstance(spec, PartitionSpec):
        raise _tessel.Error(
            f"{what}: expected a tessel.P, a '#sdy.sharding<...>' string or None; got {spec!r}")
    if len(spec) > rank:
        raise _tessel.Error(f"{what}: {spec!r} has {len(spec)} entries but the value has "
                            f"rank {rank}")
    dims, open_dims = [], []
    for dim in tuple(spec) + (None,) * (rank - len(spec)):
        open_dims.append(dim is UNCONSTRAINED)
        if dim is None or dim is UNCONSTRAINED:
            dims.append([])
        elif isinstance(dim, str):
            dims.append([dim])
        else:
            dims.append(list(dim))
    try:
        return _tessel.Sharding.create(mesh._native, dims, open_dims, list(spec.replicated),
                                       list(spec.unreduced), list(spec.priorities))
    except _tessel.Error as error:
        raise _tessel.Error(f"{what}: {spec!r}: {error}") from None


def to_spec(sharding):
    """The P of a C++ Sharding (sub-axes as "x:(2)4"; open dimensions without axes as
    UNCONSTRAINED)."""
    entries = []
    for axes, is_open in zip(sharding.dims, sharding.open):
        if not axes:
            entries.append(UNCONSTRAINED if is_open else None)
        elif len(axes) == 1:
            entries.append(axes[0])
        else:
            entries.append(tuple(axes))
    priorities = list(sharding.priorities)
    while entries and entries[-1] is None and priorities[len(entries) - 1] is None:
        entries.pop()
    return P(*entries, unreduced=tuple(sharding.unreduced),
             replicated=tuple(sharding.replicated), priorities=priorities[:len(entries)])
