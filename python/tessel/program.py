"""tessel.load and Program: a program from MLIR or XLA HLO text (or a file of either),
its signature, partition() with shardings given the way JAX takes them, and run() on one
device."""

import os
import re

from tessel import _tessel
from tessel import arrays
from tessel.mesh import Mesh
from tessel.spec import PartitionSpec, to_sharding, to_spec


def _format_of(text, path=None):
    """"hlo" or "mlir": by the file's extension, else by the first word (HloModule)."""
    if path is not None:
        if path.endswith(".hlo"):
            return "hlo"
        if path.endswith(".mlir"):
            return "mlir"
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("//"):
            continue
        words = line.split()
        return "hlo" if words and words[0] == "HloModule" else "mlir"
    return "mlir"


def load(text_or_path, format=None):
    """Loads a program from MLIR text (StableHLO with Shardy's shardings included, as
    `jax.jit(f).lower(...).as_text()` prints it), XLA HLO text (as JAX dumps it), or a file
    holding either. `format` ("mlir", "stablehlo" or "hlo") overrides the detection by
    extension or first word.
    Raises tessel.Error with the located diagnostics for text that does not parse."""
    source = os.fspath(text_or_path)
    if not isinstance(source, str):
        raise _tessel.Error(f"load takes text or a path; got {type(text_or_path).__name__}")
    is_path = "\n" not in source and ("{" not in source) and os.path.exists(source)
    if not is_path and "\n" not in source and source.endswith((".mlir", ".hlo")):
        raise _tessel.Error(f"cannot read '{source}': no such file")
    if is_path:
        with open(source, encoding="utf-8", errors="replace") as file:
            text = file.read()
        kind = format or _format_of(text, source)
    else:
        text = source
        kind = format or _format_of(text)
    if kind == "stablehlo":
        kind = "mlir"  # StableHLO with Shardy's shardings is MLIR the loader imports
    if kind not in ("mlir", "hlo"):
        raise _tessel.Error(f"unknown program format {kind!r} (formats: mlir, stablehlo, hlo)")
    if is_path:
        native = (_tessel.Program.from_hlo_file(source) if kind == "hlo"
                  else _tessel.Program.from_mlir_file(source))
    else:
        native = (_tessel.Program.from_hlo_text(text) if kind == "hlo"
                  else _tessel.Program.from_mlir_text(text))
    return Program(native)


def _program_text(native, format):
    if format == "mlir":
        return native.mlir_text()
    if format == "hlo":
        return native.hlo_text()
    raise _tessel.Error(f"unknown text format {format!r} (formats: mlir, hlo)")


def _assign(given, count, names, kind):
    """A list of `count` entries from `given`: a sequence (one per value, None to keep) or
    a dict keyed by index or name."""
    if given is None:
        return [None] * count
    if isinstance(given, dict):
        entries = [None] * count
        for key, value in given.items():
            if isinstance(key, int) and not isinstance(key, bool) and 0 <= key < count:
                entries[key] = value
            elif isinstance(key, str) and key in names:
                entries[names.index(key)] = value
            else:
                known = ", ".join(repr(n) for n in names if n) or "none"
                raise _tessel.Error(f"no {kind} {key!r} (the program has {count} {kind}s; "
                                    f"names: {known})")
        return entries
    if isinstance(given, (str, PartitionSpec)):
        # One sharding for every value, as JAX's in_shardings accepts.
        return [given] * count
    entries = list(given)
    if len(entries) > count:
        raise _tessel.Error(f"{len(entries)} {kind} shardings for {count} {kind}s")
    return entries + [None] * (count - len(entries))


def _result_key(key):
    """"result0" -> "result 0"; other keys unchanged."""
    if isinstance(key, str):
        match = re.fullmatch(r"result ?(\d+)", key)
        if match:
            return f"result {int(match.group(1))}"
    return key


class Program:
    """A program for one device, as loaded: partition it or run it."""

    def __init__(self, native):
        self._native = native

    @property
    def parameter_names(self):
        """The source's name for each parameter ("" where it has none)."""
        return list(self._native.parameter_names)

    @property
    def parameter_types(self):
        """(element type, shape) of each parameter: ("f32", [16, 64])."""
        return [(t, list(s)) for t, s in self._native.parameter_types]

    @property
    def result_types(self):
        return [(t, list(s)) for t, s in self._native.result_types]

    @property
    def meshes(self):
        return [Mesh(m) for m in self._native.meshes]

    @property
    def in_shardings(self):
        """The parameters' shardings as P (None where the program gives none)."""
        return [None if s is None else to_spec(s) for s in self._native.parameter_shardings]

    @property
    def out_shardings(self):
        return [None if s is None else to_spec(s) for s in self._native.result_shardings]

    def text(self, format="mlir"):
        """The program as MLIR ("mlir") or XLA HLO ("hlo") text."""
        return _program_text(self._native, format)

    def partition(self, mesh=None, in_shardings=None, out_shardings=None, **options):
        """Propagates shardings and partitions the program for `mesh`.

        in_shardings / out_shardings: one entry per parameter / result (a tessel.P, a
        '#sdy.sharding<...>' string, or None to keep what the program says), or a dict
        keyed by index or name: a parameter's source name, a result's "result 0" (or
        "result0"). Options: replication_is_error,
        conservative_propagation, shard_weight_update, combine_collectives,
        hierarchical_all_reduce (booleans), hardware_spec (protobuf text), and
        auto_sharding: True, or a dict with memory_limit_bytes and time_limit_seconds, to
        choose shardings for the values left open (docs/auto_sharding.md)."""
        from tessel.result import PartitionResult
        if mesh is not None and not isinstance(mesh, Mesh):
            mesh = Mesh(mesh)
        if mesh is None and len(self._native.meshes) == 1:
            mesh = Mesh(self._native.meshes[0])
        native = self._native
        parameter_types = self.parameter_types
        result_types = self.result_types
        names = self.parameter_names
        params = _assign(in_shardings, len(parameter_types), names, "parameter")
        # Results are named as PartitionResult.shardings names them ("result 0") and as the
        # CLI does ("result0").
        result_names = [f"result {i}" for i in range(len(result_types))]
        if isinstance(out_shardings, dict):
            out_shardings = {_result_key(key): value for key, value in out_shardings.items()}
        results = _assign(out_shardings, len(result_types), result_names, "result")
        shardings = [
            to_sharding(spec, mesh, len(parameter_types[i][1]),
                        f"parameter {i}" + (f" ({names[i]})" if names[i] else ""))
            for i, spec in enumerate(params)
        ]
        result_shardings = [
            to_sharding(spec, mesh, len(result_types[i][1]), f"result {i}")
            for i, spec in enumerate(results)
        ]
        if any(s is not None for s in shardings + result_shardings):
            native = native.with_shardings(shardings, result_shardings)
        return PartitionResult(_tessel.partition(native, dict(options)), native)

    def run(self, *inputs, timeout=None):
        """Runs the program on one device and returns its results as numpy arrays."""
        tensors = arrays.to_tensors(inputs, self.parameter_types, "the program")
        outputs = _tessel.run(self._native, tensors, timeout)
        return [arrays.from_tensor(output) for output in outputs]

    def __repr__(self):
        signature = ", ".join(f"{t}{s}" for t, s in self.parameter_types)
        results = ", ".join(f"{t}{s}" for t, s in self.result_types)
        return f"<tessel.Program ({signature}) -> ({results})>"
