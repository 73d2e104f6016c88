"""The collectives of an XLA HLO module's text (as `jax.jit(f).lower(...).compile()
.as_text()` prints it): per kind, how many there are and the bytes of their results on each
device, counted the way Tessel counts its own (PartitionResult.collectives): statically, a
collective in a loop body once. No JAX needed: the text is parsed."""

import collections
import re

# XLA's opcode -> Tessel's name for the same collective.
KINDS = {
    "all-reduce": "all_reduce",
    "all-gather": "all_gather",
    "reduce-scatter": "reduce_scatter",
    "all-to-all": "all_to_all",
    "collective-permute": "collective_permute",
}

# `%name = SHAPE opcode(` where SHAPE is one array shape or a tuple of them. Asynchronous
# pairs are counted once, at their -done, whose shape is the collective's result.
_INSTRUCTION = re.compile(
    r"=\s*(?P<shape>\([^=]*?\)|[a-z][a-z0-9]*\[[0-9,]*\](?:\{[^}]*\})?)\s+"
    r"(?P<op>all-reduce|all-gather|reduce-scatter|all-to-all|collective-permute)"
    r"(?P<phase>-start|-done)?\(")
_ARRAY = re.compile(r"\b([a-z][a-z0-9]*)\[([0-9,]*)\]")

_ELEMENT_BYTES = {
    "pred": 1, "s4": 1, "u4": 1, "s8": 1, "u8": 1, "s16": 2, "u16": 2, "f16": 2, "bf16": 2,
    "s32": 4, "u32": 4, "f32": 4, "s64": 8, "u64": 8, "f64": 8, "c64": 8, "c128": 16,
}

Count = collections.namedtuple("Count", "count bytes")


def shape_bytes(shape):
    """The bytes of an HLO shape's arrays: `f32[4,64]{1,0}` is 1024; a tuple sums its
    elements. fp8 types (f8e4m3fn, ...) are one byte; tokens and unknown types count 0."""
    total = 0
    for element, dims in _ARRAY.findall(shape):
        size = _ELEMENT_BYTES.get(element, 1 if element.startswith("f8") else 0)
        for dim in filter(None, dims.split(",")):
            size *= int(dim)
        total += size
    return total


def count_collectives(hlo_text):
    """{tessel kind: Count(count, bytes per device)} of the collectives in `hlo_text`."""
    counts = {}
    for match in _INSTRUCTION.finditer(hlo_text):
        if match.group("phase") == "-start":
            continue
        kind = KINDS[match.group("op")]
        count, size = counts.get(kind, Count(0, 0))
        counts[kind] = Count(count + 1, size + shape_bytes(match.group("shape")))
    return counts
