"""PartitionSpec (tessel.P) as JAX writes it, and the conversion of anything accepted
where a sharding is expected (a P, Shardy's `#sdy.sharding<...>` text, Tessel's
`#tessel.sharding<...>` text) into the C++ API's Sharding for one value."""

from tessel import _tessel


class _Unconstrained:
    """A dimension left for propagation to split (JAX's PartitionSpec.UNCONSTRAINED)."""

    def __repr__(self):
        return "UNCONSTRAINED"


UNCONSTRAINED = _Unconstrained()


class PartitionSpec(tuple):
    """Per tensor dimension, the mesh axes that split it: `P("data", None)` splits rows over
    "data" and keeps columns whole; `P(("data", "model"), None)` splits rows over both axes,
    "data" major. Dimensions past the last entry are not split; P() replicates."""

    UNCONSTRAINED = UNCONSTRAINED

    def __new__(cls, *dims):
        for dim in dims:
            if dim is None or dim is UNCONSTRAINED or isinstance(dim, str):
                continue
            if isinstance(dim, (tuple, list)) and all(isinstance(a, str) for a in dim):
                continue
            raise _tessel.Error(
                f"a PartitionSpec entry is None, an axis name or a tuple of axis names; "
                f"got {dim!r}")
        return super().__new__(cls, tuple(tuple(d) if isinstance(d, list) else d for d in dims))

    def __repr__(self):
        return "P(" + ", ".join(repr(d) for d in self) + ")"


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
        return _tessel.Sharding.create(mesh._native, dims, open_dims)
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
    while entries and entries[-1] is None:
        entries.pop()
    return P(*entries)
