"""numpy arrays to and from the (element type, shape, bytes) tuples the extension takes.
numpy is imported here only, when a program runs: `import tessel` works without it."""

from tessel import _tessel

_NUMPY_TYPES = {
    "pred": "bool", "s8": "int8", "s16": "int16", "s32": "int32", "s64": "int64",
    "u8": "uint8", "u16": "uint16", "u32": "uint32", "u64": "uint64", "f16": "float16",
    "f32": "float32", "f64": "float64", "c64": "complex64", "c128": "complex128",
}


def _numpy():
    try:
        import numpy
    except ImportError:
        raise _tessel.Error("running a program needs numpy (Debian: python3-numpy)") from None
    return numpy


def element_type_of(dtype):
    """Tessel's name for a numpy dtype ("f32"), or None for a dtype Tessel lacks."""
    name = _numpy().dtype(dtype).name
    for tessel_name, numpy_name in _NUMPY_TYPES.items():
        if numpy_name == name:
            return tessel_name
    return None


def to_tensor(value, expected, what):
    """(type, shape, bytes) for `value` as parameter type `expected` ((type, shape)).
    A numpy array keeps its dtype (a wrong one is an error from the run, naming the
    input); lists and scalars take the parameter's element type. bf16 parameters take
    float32 arrays, rounded to the nearest bf16."""
    np = _numpy()
    expected_type = expected[0]
    if expected_type == "bf16":
        array = np.ascontiguousarray(value, dtype=np.float32)
        bits = array.view(np.uint32).astype(np.uint64)
        rounded = ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype(np.uint16)
        return ("bf16", list(array.shape), np.ascontiguousarray(rounded))
    if isinstance(value, np.ndarray) or isinstance(value, np.generic):
        array = np.ascontiguousarray(value)
    else:
        array = np.ascontiguousarray(value, dtype=_NUMPY_TYPES.get(expected_type))
    element_type = element_type_of(array.dtype)
    if element_type is None:
        raise _tessel.Error(f"{what}: numpy dtype {array.dtype} has no Tessel element type")
    return (element_type, list(array.shape), array.reshape(-1).view(np.uint8))


def from_tensor(tensor):
    """The numpy array of a (type, shape, bytes) tuple; bf16 comes back as float32."""
    np = _numpy()
    element_type, shape, data = tensor
    if element_type == "bf16":
        bits = np.frombuffer(data, dtype=np.uint16).astype(np.uint32) << 16
        return bits.view(np.float32).reshape(shape)
    return np.frombuffer(data, dtype=_NUMPY_TYPES[element_type]).reshape(shape).copy()


def to_tensors(values, expected_types, what):
    """Tuples for the inputs `values` of a program with parameter types `expected_types`."""
    if len(values) != len(expected_types):
        raise _tessel.Error(f"{what} takes {len(expected_types)} inputs, got {len(values)}")
    return [to_tensor(value, expected, f"input {i}")
            for i, (value, expected) in enumerate(zip(values, expected_types))]
