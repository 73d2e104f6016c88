"""PartitionResult: what program.partition() returns. The partitioned program's text, each
value's sharding (named as the source names it) and where it came from, the collectives,
the cost model's estimate, fallback warnings, and runs on N local partitions."""

import collections
import dataclasses

from tessel import _tessel
from tessel import arrays
from tessel.program import _program_text
from tessel.spec import to_spec

# One kind of collective over one set of mesh axes: how many the program has and the bytes
# of their results on each device, summed.
Collective = collections.namedtuple("Collective", "kind mesh axes count bytes")


@dataclasses.dataclass(frozen=True)
class ValueSharding:
    """A value of the program and the sharding propagation gave it."""
    name: str          # the key in PartitionResult.shardings
    kind: str          # "parameter", "op_result" or "result"
    index: int         # parameter or result number; op position in program order
    source_name: str   # the source's name for it ("" where none)
    op_name: str       # "hlo.dot_general" for op results
    location: str      # "program.mlir:4:8" where known
    dtype: str         # "f32"
    shape: tuple
    sharding: object   # "#tessel.sharding<@mesh, [{\"data\"}, {}]>", None when replicated
    spec: object       # the same as a tessel.P, None when replicated
    explanation: str   # where the sharding came from

    def __str__(self):
        placed = self.sharding if self.sharding is not None else "replicated"
        return f"{self.name} {self.dtype}{list(self.shape)}: {placed}"


def _value_sharding(native, key):
    sharding = native.sharding
    dtype, shape = native.type
    return ValueSharding(
        name=key, kind=native.kind, index=native.index, source_name=native.source_name,
        op_name=native.op_name, location=native.location, dtype=dtype, shape=tuple(shape),
        sharding=None if sharding is None else str(sharding),
        spec=None if sharding is None else to_spec(sharding),
        explanation=str(native.explanation))


class PartitionResult:
    """The program every device runs, and what partitioning found on the way."""

    def __init__(self, native, original):
        self._native = native
        self._original = original  # the annotated program, for verify()
        self._values = {}
        self._records = {}
        for record in list(native.parameters) + list(native.op_results) + list(native.results):
            if record.kind == "result":
                key = f"result {record.index}"
            elif record.source_name and record.source_name not in self._values:
                key = record.source_name
            else:
                key = record.name
            self._values[key] = _value_sharding(record, key)
            self._records[key] = record

    @property
    def num_partitions(self):
        return self._native.num_partitions

    def text(self, format="mlir"):
        """The partitioned program as MLIR ("mlir") or XLA HLO ("hlo") text."""
        return _program_text(self._native.program, format)

    @property
    def shardings(self):
        """Every parameter, op result and result, keyed by the source's name for it (or
        "parameter 0", "hlo.add (op 3)", "result 0" where it has none)."""
        return dict(self._values)

    @property
    def collectives(self):
        """One Collective(kind, mesh, axes, count, bytes) per kind and axes."""
        return [Collective(e.kind, e.mesh, tuple(e.axes), e.count, e.bytes_per_device)
                for e in self._native.collectives]

    @property
    def auto_sharding(self):
        """With partition(..., auto_sharding=...): a dict of what the solver chose (its
        estimated step, compute and communication seconds, whether the plan is proven
        optimal, the solve time, the memory limit, and "choices", one line per parameter
        and op); None otherwise."""
        return self._native.auto_sharding

    @property
    def warnings(self):
        """The ops partitioned by replication (correct, not fast), as messages."""
        return [str(w) for w in self._native.fallback_warnings]

    def report(self):
        """The cost model's estimate for one device, as a dict."""
        cost = self._native.cost
        return {
            "hardware": cost.hardware,
            "num_partitions": self.num_partitions,
            "argument_bytes": cost.argument_bytes,
            "peak_bytes": cost.peak_bytes,
            "flops": cost.flops,
            "compute_seconds": cost.compute_seconds,
            "communication_seconds": cost.communication_seconds,
            "step_seconds": cost.step_seconds,
            "collectives": [c._asdict() for c in self.collectives],
            "table": cost.table,
        }

    def _record(self, value):
        """(key, native record) of `value`: a key of .shardings, a source name, or a
        ValueSharding."""
        key = value.name if isinstance(value, ValueSharding) else value
        record = self._records.get(key)
        if record is None:
            matches = [k for k, r in self._records.items() if r.source_name == key]
            if not matches:
                known = ", ".join(repr(k) for k in self._records)
                raise _tessel.Error(f"no value {key!r} (values: {known})")
            key, record = matches[0], self._records[matches[0]]
        return key, record

    def explain(self, value):
        """Where the sharding of `value` (a key of .shardings, a source name, or a
        ValueSharding) came from: the annotation, the ops it travelled through, and each
        axis's own origin."""
        key, record = self._record(value)
        lines = [str(self._values[key]), f"  {record.explanation}"]
        for axis in record.explanation.axes:
            origin = axis.origin or "not propagated (set by the partitioner)"
            path = f" via {', '.join(axis.path)}" if axis.path else ""
            lines.append(f"  dimension {axis.dimension} axis {axis.axis}: {origin}{path}")
        return "\n".join(lines)

    def visualize(self, value, color=None, width=80):
        """The picture of `value` (as explain() takes it): which device holds which block
        of it, with the halos windowed ops reading it exchange. See tessel.visualize."""
        from tessel.visualize import Visualization
        key, record = self._record(value)
        picture = _tessel.value_picture(self._native, record)
        return Visualization(picture, str(self._values[key]), color=color, width=width,
                             halos=record.halos)

    def run(self, *inputs, partitions=None, timeout=None):
        """Runs the partitioned program on its devices, one thread each, on the global
        inputs; returns the global results as numpy arrays. `partitions`, when given, must
        be the device count the program was partitioned for."""
        if partitions is not None and partitions != self.num_partitions:
            raise _tessel.Error(
                f"the program is partitioned for {self.num_partitions} devices, not "
                f"{partitions}; partition it on a mesh of {partitions} devices")
        program = self._native.program
        types = [(t, list(s)) for t, s in program.parameter_types]
        tensors = arrays.to_tensors(inputs, types, "the program")
        outputs = _tessel.run(program, tensors, timeout)
        return [arrays.from_tensor(output) for output in outputs]

    def verify(self, *inputs, seed=1, rtol=1e-4, atol=1e-5, timeout=None):
        """Runs the program on one device and partitioned, on `inputs` (or inputs drawn
        from `seed`), and compares the results. The report's .ok says whether all match;
        str() of it lists each result."""
        tensors = None
        if inputs:
            types = [(t, list(s)) for t, s in self._original.parameter_types]
            tensors = arrays.to_tensors(inputs, types, "the program")
        return _tessel.verify(self._original, self._native, tensors, seed, rtol, atol, timeout)

    def __repr__(self):
        return (f"<tessel.PartitionResult on {self.num_partitions} devices, "
                f"{sum(c.count for c in self.collectives)} collectives>")
