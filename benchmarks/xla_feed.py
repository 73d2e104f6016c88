#!/usr/bin/env python3
"""Tessel's partitioned HLO run by XLA: every corpus program on N CPU devices against JAX.

For every program NAME of tests/corpus/ (or the names given) this runs
`tessel partition NAME.hlo --output=...` (the per-device SPMD program as HLO text) and
`tessel partition NAME.hlo --propagated --format=hlo` (the sharding of every entry
parameter and of the root), then hands the programs to XLA through jaxlib 0.10
(`jaxlib._hlo.hlo_module_from_text` parses HLO text; `_jax.mlir.hlo_to_stablehlo` and
`Client.compile_and_load` compile it):
  - reference: JAX's unpartitioned NAME.hlo, compiled and run by XLA on one device;
  - Tessel: the partitioned module, parsed by XLA's HLO parser as Tessel wrote it, compiled
    for 1 replica x N partitions (partition p on device p) and run on N CPU devices, each
    device given its own shard of every argument (the slice its parameter sharding names,
    zero-padded to the local shape where the split is uneven);
  - baseline: XLA partitions NAME.hlo itself (Shardy, as JAX does) for the same N devices
    and runs it on the same arguments.
Every device's result is compared with the slice of the reference its result sharding
names: floats within rtol/atol (atol times the largest reference magnitude of that result;
neither tighter than 4 ulps of the type), integers and booleans exactly. A program whose
floats miss the tolerance by no more than XLA's own partitioning misses it on the same
inputs counts as a match "as XLA's own" (the program amplifies rounding: while_invariant).
The table also gives the largest difference between Tessel's results and XLA's own.

Arguments are seeded numpy draws: floats uniform in [-1, 1), or in [0, 1) where [-1, 1)
gives a NaN in the reference (optimizers' square roots of second moments), integers half
from [0, 16) and half from [0, 128) (so a 16-segment sum and a 128-row table both see
in-range ids on every shard), booleans fair coins.

XLA's CPU compiler refuses num_partitions > 1 without SPMD partitioning ("num_partitions=8
but SPMD partitioning not enabled."), so Tessel's module is compiled with SPMD partitioning
on and its entry parameters and root marked `sharding={manual}` (as shard_map's bodies
are): the partitioner keeps every instruction as written. Each program runs in a child
process, so an XLA crash is reported for that program alone.

Prints a Markdown table and a summary; exits 1 unless every program matches. Needs JAX
0.10 (a virtual environment; not a dependency of Tessel, and CI never runs this):

    bazel build -c opt //tools/tessel
    /path/to/venv/bin/python benchmarks/xla_feed.py [--tessel bazel-bin/tools/tessel/tessel] [NAME...]
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile


def programs(corpus):
    """Every program of the corpus: NAME.hlo beside its .gspmd.hlo and .partitioned.hlo."""
    names = []
    for name in os.listdir(corpus):
        if name.endswith(".hlo") and not name.endswith((".gspmd.hlo", ".partitioned.hlo")):
            names.append(name[:-len(".hlo")])
    return sorted(names)


def first_line(text, limit=300):
    """An error in one Markdown cell: its first line, and the first line that says
    `error:` when that is another (XLA's parser puts the reason on the second line)."""
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    if not lines:
        return "(no message)"
    picked = lines[:1] + [line for line in lines[1:] if "error:" in line][:1]
    line = " ".join(picked)
    if len(line) > limit:
        line = line[:limit] + "..."
    return line.replace("|", "\\|")


# --- HLO text -----------------------------------------------------------------------------

def entry_lines(text):
    """The lines of the ENTRY computation, with their indices in the text's lines."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("ENTRY"))
    end = next(i for i in range(start + 1, len(lines)) if lines[i].startswith("}"))
    return lines, range(start + 1, end)


def sharding_text(line):
    """The `{...}` after `sharding=` on an instruction line, or None."""
    at = line.find("sharding={")
    if at < 0:
        return None
    at += len("sharding=")
    depth = 0
    for i in range(at, len(line)):
        depth += {"{": 1, "}": -1}.get(line[i], 0)
        if depth == 0:
            return line[at:i + 1]
    raise ValueError("unbalanced sharding in: " + line)


def entry_shardings(text):
    """{parameter number: sharding text} and the root's sharding text of the ENTRY."""
    lines, body = entry_lines(text)
    parameters, root = {}, None
    for i in body:
        match = re.search(r"\bparameter\((\d+)\)", lines[i])
        if match:
            parameters[int(match.group(1))] = sharding_text(lines[i])
        if lines[i].lstrip().startswith("ROOT "):
            root = sharding_text(lines[i])
    return parameters, root


def mark_manual(text, results):
    """The module with `sharding={manual}` on every entry parameter and on the root (in
    place of any sharding written there): `results` is the root's tuple size, or None."""
    lines, body = entry_lines(text)
    root = "{manual}" if results is None else "{%s}" % ", ".join(["{manual}"] * results)
    for i in body:
        line = lines[i]
        written = sharding_text(line)
        if written is not None:
            line = line.replace(", sharding=" + written, "")
        if re.search(r"\bparameter\(\d+\)", line):
            lines[i] = line + ", sharding={manual}"
        elif line.lstrip().startswith("ROOT "):
            lines[i] = line + ", sharding=" + root
    return "\n".join(lines) + "\n"


# --- the orchestrating process --------------------------------------------------------------

def partition(tessel, path, workdir, name):
    """Tessel's partitioned and propagated HLO files, or the message Tessel failed with."""
    partitioned = os.path.join(workdir, name + ".tessel.hlo")
    propagated = os.path.join(workdir, name + ".propagated.hlo")
    for command in ([tessel, "partition", path, "--output=" + partitioned],
                    [tessel, "partition", path, "--propagated", "--format=hlo",
                     "--output=" + propagated]):
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode != 0:
            return None, None, done.stderr or done.stdout
    return partitioned, propagated, None


def run_one(args, name, workdir):
    """The result record of one program (a dict, as the worker writes it)."""
    source = os.path.join(args.corpus, name + ".hlo")
    partitioned, propagated, error = partition(args.tessel, source, workdir, name)
    if error is not None:
        return {"name": name, "outcome": "tessel", "message": error}
    with open(partitioned) as f:
        match = re.search(r"num_partitions=(\d+)", f.readline())
    devices = int(match.group(1)) if match else 1
    env = dict(os.environ)
    env["XLA_FLAGS"] = (env.get("XLA_FLAGS", "") +
                        " --xla_force_host_platform_device_count=%d" % devices).strip()
    env.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    command = [sys.executable, os.path.abspath(__file__), "--worker", name,
               "--reference", source, "--partitioned", partitioned,
               "--propagated", propagated, "--seed", str(args.seed),
               "--rtol", repr(args.rtol), "--atol", repr(args.atol)]
    done = subprocess.run(command, capture_output=True, text=True, env=env)
    records = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if done.returncode != 0 or not records:
        tail = "\n".join(done.stderr.strip().splitlines()[-5:])
        return {"name": name, "devices": devices, "outcome": "crashed",
                "message": "exit status %d: %s" % (done.returncode, tail)}
    return json.loads(records[-1])


def describe(record):
    """The cells of a record's table row after the program and device count."""
    outcome = record["outcome"]
    error = "%.2e" % record["max_abs_err"] if record.get("max_abs_err") is not None else "-"
    if outcome == "as_xla":
        outcome = "match, as XLA's own (beyond rtol/atol by no more than it)"
    elif outcome == "differs":
        outcome = "differs: " + first_line(record["message"])
    elif outcome == "refused":
        outcome = "XLA refused (%s): %s" % (record["stage"], first_line(record["message"]))
    elif outcome == "reference":
        outcome = "reference failed (%s): %s" % (record["stage"], first_line(record["message"]))
    elif outcome == "tessel":
        outcome = "Tessel failed: " + first_line(record["message"])
    elif outcome == "crashed":
        outcome = "XLA crashed: " + first_line(record["message"])
    xla = record.get("xla_outcome", "-")
    if xla in ("match", "differs"):
        xla = "%.2e%s" % (record["xla_max_abs_err"], "" if xla == "match" else " (beyond)")
    elif xla != "-":
        xla = first_line(xla, 120)
    versus = "%.2e" % record["vs_xla"] if record.get("vs_xla") is not None else "-"
    floats = record.get("inputs", "-")
    if record.get("reference_nans"):
        floats += " (%d NaN in the reference)" % record["reference_nans"]
    return floats, outcome, error, xla, versus


def main_orchestrate(args):
    names = args.names or programs(args.corpus)
    unknown = [n for n in names if not os.path.exists(os.path.join(args.corpus, n + ".hlo"))]
    if unknown:
        sys.exit("unknown programs: %s" % ", ".join(unknown))
    if not os.path.exists(args.tessel):
        sys.exit("no tessel binary at %s (bazel build -c opt //tools/tessel)" % args.tessel)
    counts = {}
    print("| program | devices | float inputs | Tessel's program in XLA | max abs error | "
          "XLA's own partitioning: max abs error | Tessel - XLA's own |")
    print("|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory(prefix="tessel-xla-feed-") as workdir:
        for name in names:
            record = run_one(args, name, workdir)
            counts[record["outcome"]] = counts.get(record["outcome"], 0) + 1
            print("| %s | %s | %s | %s | %s | %s | %s |" % ((name, record.get("devices", "-")) +
                                                   describe(record)), flush=True)
            if args.verbose and record["outcome"] != "match":
                print(record.get("message", ""), file=sys.stderr)
    labels = [("match", "match"), ("as_xla", "match as closely as XLA's own partitioning"),
              ("differs", "differ"), ("refused", "refused by XLA"),
              ("crashed", "crashed XLA"), ("tessel", "not partitioned by Tessel"),
              ("reference", "without a reference")]
    print()
    print("%d programs: " % len(names) +
          ", ".join("%d %s" % (counts.get(key, 0), label) for key, label in labels) + ".")
    return 0 if counts.get("match", 0) + counts.get("as_xla", 0) == len(names) else 1


# --- the worker: one program in XLA ---------------------------------------------------------

class Refused(Exception):
    """XLA refused the module at `stage` (parse, convert, compile, run)."""

    def __init__(self, stage, message):
        super().__init__(message)
        self.stage = stage


class Mismatch(Exception):
    """Tessel's module does not fit the program (parameter or result count, local shape)."""


def stage(label, function, *arguments):
    try:
        return function(*arguments)
    except Exception as error:  # jaxlib raises several kinds; all carry XLA's message
        raise Refused(label, str(error)) from error


def tiles(sharding, rank, count):
    """Per device: the tile index along each dimension (None: the whole array), and the
    number of tiles along each dimension, for an HloSharding of a rank-`rank` array.
    A maximal sharding counts as replicated (Tessel computes it on every device)."""
    import numpy as np
    if sharding.is_replicated() or sharding.is_maximal():
        return [None] * count, [1] * rank
    dims = list(sharding.tile_assignment_dimensions())
    ids = np.array(sharding.tile_assignment_devices()).reshape(dims)
    per_device = [None] * count
    for index in np.ndindex(*dims):
        per_device[ids[index]] = index[:rank]
    return per_device, dims[:rank]


def piece(shape, tile, ways):
    """The slices of a global `shape` one tile holds, and the tile's padded (local) shape:
    XLA's convention, ceil(size / ways) per tile, the last ones short or empty."""
    slices, padded = [], []
    for size, t, w in zip(shape, tile or [0] * len(shape), ways):
        local = -(-size // w)
        slices.append(slice(min(t * local, size), min((t + 1) * local, size)))
        padded.append(local)
    return tuple(slices), tuple(padded)


def inputs(shapes, seed, low):
    """Seeded global arguments for parameters of these XLA shapes (floats from [low, 1))."""
    import numpy as np
    rng = np.random.default_rng(seed)
    values = []
    for shape in shapes:
        dtype, dims = shape.numpy_dtype(), shape.dimensions()
        if np.issubdtype(dtype, np.bool_):
            value = rng.integers(0, 2, dims).astype(bool)
        elif np.issubdtype(dtype, np.integer):
            value = np.where(rng.integers(0, 2, dims) == 0, rng.integers(0, 16, dims),
                             rng.integers(0, 128, dims))
        else:
            value = rng.uniform(low, 1, dims)
        values.append(np.asarray(value).astype(dtype))
    return values


def distribute(values, shardings, local_shapes, count):
    """shards[a][d]: device d's part of argument a, zero-padded to its local shape."""
    import numpy as np
    shards = []
    for number, (value, sharding) in enumerate(zip(values, shardings)):
        per_device, ways = tiles(sharding, value.ndim, count)
        parts = []
        for d in range(count):
            slices, padded = piece(value.shape, per_device[d], ways)
            if local_shapes is not None and padded != tuple(local_shapes[number].dimensions()):
                raise Mismatch("parameter %d: sharding %s gives the local shape %s, the module "
                               "has %s" % (number, sharding, list(padded),
                                           list(local_shapes[number].dimensions())))
            part = np.zeros(padded, dtype=value.dtype)
            part[tuple(slice(0, s.stop - s.start) for s in slices)] = value[slices]
            parts.append(part)
        shards.append(parts)
    return shards


def compare(reference, outputs, shardings, count, rtol, atol):
    """Every device's result against the slice of the reference its sharding names:
    (largest absolute error, descriptions of the elements out of tolerance)."""
    import numpy as np
    worst, problems = 0.0, []
    for number, (expected, got, sharding) in enumerate(zip(reference, outputs, shardings)):
        per_device, ways = tiles(sharding, expected.ndim, count)
        floating = expected.dtype.kind == "f" or expected.dtype.name == "bfloat16"
        if floating:
            eps = 2.0 ** -7 if expected.dtype.name == "bfloat16" else \
                float(np.finfo(expected.dtype).eps)
            wide = expected.astype(np.float64)
            finite = np.abs(wide[np.isfinite(wide)])
            scale = max(1.0, float(finite.max()) if finite.size else 1.0)
            result_rtol, result_atol = max(rtol, 4 * eps), max(atol, 4 * eps) * scale
        for d in range(count):
            slices, padded = piece(expected.shape, per_device[d], ways)
            if tuple(got[d].shape) != padded:
                problems.append("result %d on device %d: shape %s, expected %s" %
                                (number, d, list(got[d].shape), list(padded)))
                continue
            want = expected[slices]
            have = got[d][tuple(slice(0, s.stop - s.start) for s in slices)]
            want64, have64 = want.astype(np.float64), have.astype(np.float64)
            if floating:
                same_nan = np.isnan(want64) & np.isnan(have64)
                same_inf = np.isinf(want64) & (want64 == have64)
                error = np.where(same_nan | same_inf, 0.0, np.abs(want64 - have64))
                error = np.where(np.isnan(error), np.inf, error)
                bad = error > result_atol + result_rtol * np.abs(np.nan_to_num(want64))
            else:
                error = np.abs(want64 - have64)
                bad = want != have
            if error.size:
                worst = max(worst, float(error.max()))
            if bad.any():
                where = tuple(int(i) for i in np.argwhere(bad)[0])
                problems.append("result %d on device %d: %d of %d elements differ, first at "
                                "local index %s: %s, expected %s" %
                                (number, d, int(bad.sum()), bad.size, list(where), have[where],
                                 want[where]))
    return worst, problems


def assemble(outputs, shardings, shapes, count):
    """The global results from every device's (for a replicated part, the last device's)."""
    import numpy as np
    whole = []
    for got, sharding, shape in zip(outputs, shardings, shapes):
        value = np.zeros(shape, dtype=got[0].dtype)
        per_device, ways = tiles(sharding, len(shape), count)
        for d in range(count):
            slices, _ = piece(shape, per_device[d], ways)
            value[slices] = got[d][tuple(slice(0, s.stop - s.start) for s in slices)]
        whole.append(value)
    return whole


def main_worker(args):
    import numpy as np
    import jax
    import jax.extend
    import jaxlib._hlo as hlo
    from jax._src.lib import _jax
    from jax.sharding import Mesh, NamedSharding, PartitionSpec

    backend = jax.extend.backend.get_backend()
    with open(args.reference) as f:
        reference_text = f.read()
    with open(args.partitioned) as f:
        partitioned_text = f.read()
    with open(args.propagated) as f:
        propagated_text = f.read()
    header = re.search(r"num_partitions=(\d+)", partitioned_text.split("\n", 1)[0])
    n = int(header.group(1)) if header else 1
    record = {"name": args.worker, "devices": n}
    devices = backend.devices()[:n]
    if len(devices) < n:
        raise SystemExit("%d devices, the module needs %d" % (len(devices), n))

    def parse(text):
        module = hlo.hlo_module_from_text(text)
        proto = module.as_serialized_hlo_module_proto()
        return proto, hlo.XlaComputation(proto).program_shape()

    def leaves(shape):
        return list(shape.tuple_shapes()) if shape.is_tuple() else [shape]

    def compile_module(proto, count, spmd=False, shardy=False):
        """Compiled for 1 replica x `count` partitions, partition p on device p."""
        options = _jax.CompileOptions()
        options.num_replicas = 1
        options.num_partitions = count
        assignment = np.arange(count, dtype=np.int32).reshape(1, count)
        options.device_assignment = _jax.DeviceAssignment.create(assignment)
        build = options.executable_build_options
        build.use_spmd_partitioning = spmd
        build.use_shardy_partitioner = shardy
        build.allow_spmd_sharding_propagation_to_output = [True]
        stablehlo = stage("convert", _jax.mlir.hlo_to_stablehlo, proto)
        return stage("compile", backend.compile_and_load, stablehlo,
                     _jax.DeviceList(tuple(devices[:count])), options)

    def execute(executable, shards, count):
        """shards[a][d]: argument a on device d; returns outputs[o][d] as numpy arrays.
        Each argument travels as one array whose shards are the devices' local values."""
        mesh = Mesh(np.array(devices[:count]), ("p",))
        arrays = []
        for parts in shards:
            placed = [jax.device_put(part, device) for part, device in zip(parts, devices)]
            arrays.append(jax.make_array_from_single_device_arrays(
                parts[0].shape, NamedSharding(mesh, PartitionSpec()), placed))
        results = stage("run", executable.execute_sharded, arrays)
        return [[np.asarray(a) for a in out]
                for out in results.disassemble_into_single_device_arrays()]

    # The reference: JAX's unpartitioned program on one device.
    reference_proto, program = parse(reference_text)
    parameters, results = program.parameter_shapes(), leaves(program.result_shape())
    try:
        reference_executable = compile_module(reference_proto, 1)
        # Floats from [-1, 1); where that makes a NaN in the reference (the square root of
        # a negative second moment in an optimizer step), from [0, 1) instead, so that NaN
        # beside NaN does not pass for a match.
        for low in (-1.0, 0.0):
            values = inputs(parameters, args.seed, low)
            reference = [out[0] for out in execute(reference_executable,
                                                   [[v] for v in values], 1)]
            nans = sum(int(np.isnan(r.astype(np.float64)).sum()) for r in reference
                       if r.dtype.kind == "f" or r.dtype.name == "bfloat16")
            if not nans:
                break
        record["inputs"] = "[%g, 1)" % low
        record["reference_nans"] = nans
    except Refused as refusal:
        record.update(outcome="reference", stage=refusal.stage, message=str(refusal))
        print(json.dumps(record))
        return 0

    # Baseline: XLA partitions the same program itself (Shardy, as JAX does), same inputs.
    try:
        executable = compile_module(reference_proto, n, spmd=True, shardy=True)
        in_shardings = [hlo.HloSharding.from_proto(s)
                        for s in executable.get_parameter_shardings()]
        out_shardings = [hlo.HloSharding.from_proto(s)
                         for s in executable.get_output_shardings()]
        outputs = execute(executable, distribute(values, in_shardings, None, n), n)
        worst, problems = compare(reference, outputs, out_shardings, n, args.rtol, args.atol)
        record["xla_max_abs_err"] = worst
        record["xla_outcome"] = "differs" if problems else "match"
        xla_results = assemble(outputs, out_shardings, [r.shape for r in reference], n)
    except Refused as refusal:
        record["xla_outcome"] = "refused: " + str(refusal)
        xla_results = None

    try:
        # XLA's parser on Tessel's text exactly as Tessel wrote it.
        _, local_program = stage("parse", parse, partitioned_text)
        local_parameters = local_program.parameter_shapes()
        local_results = leaves(local_program.result_shape())
        if len(local_parameters) != len(parameters):
            raise Mismatch("%d parameters, Tessel's module has %d" %
                           (len(parameters), len(local_parameters)))
        if len(local_results) != len(results):
            raise Mismatch("%d results, Tessel's module has %d" %
                           (len(results), len(local_results)))
        # The shardings Tessel's propagation chose for the entry parameters and results.
        parameter_text, root_text = entry_shardings(propagated_text)
        in_shardings = [hlo.HloSharding.from_string(parameter_text.get(i) or "{replicated}")
                        for i in range(len(parameters))]
        root = hlo.HloSharding.from_string(root_text or "{replicated}")
        out_shardings = root.tuple_elements() or [root] * len(results)
        if len(out_shardings) != len(results):
            raise Mismatch("root sharding %s for %d results" % (root_text, len(results)))
        shards = distribute(values, in_shardings, local_parameters, n)
        marked = mark_manual(partitioned_text, len(local_results)
                             if local_program.result_shape().is_tuple() else None)
        proto, _ = stage("parse", parse, marked)
        outputs = execute(compile_module(proto, n, spmd=True), shards, n)
        worst, problems = compare(reference, outputs, out_shardings, n, args.rtol, args.atol)
        record["max_abs_err"] = worst
        if xla_results is not None:
            # Tessel's results beside XLA's own partitioning's (0: the same bits).
            record["vs_xla"] = compare(xla_results, outputs, out_shardings, n, 0.0, 0.0)[0]
        if not problems:
            record.update(outcome="match")
        elif record.get("xla_outcome") == "differs" and worst <= record["xla_max_abs_err"]:
            # Out of tolerance, but no further than XLA's own partitioning of the program
            # on the same inputs: the program amplifies rounding, not a partitioning error.
            record.update(outcome="as_xla", message="\n".join(problems[:20]))
        else:
            record.update(outcome="differs", message="\n".join(problems[:20]))
    except Refused as refusal:
        record.update(outcome="refused", stage=refusal.stage, message=str(refusal))
    except Mismatch as error:
        record.update(outcome="differs", message=str(error))
    print(json.dumps(record))
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("names", nargs="*", help="programs of the corpus (default: all)")
    parser.add_argument("--tessel", default="bazel-bin/tools/tessel/tessel")
    parser.add_argument("--corpus", default="tests/corpus")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rtol", type=float, default=1e-5)
    parser.add_argument("--atol", type=float, default=1e-5,
                        help="absolute tolerance, times the largest reference magnitude")
    parser.add_argument("--verbose", action="store_true",
                        help="print the whole message of every program that fails")
    # The child process that runs one program in XLA (internal).
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--reference", help=argparse.SUPPRESS)
    parser.add_argument("--partitioned", help=argparse.SUPPRESS)
    parser.add_argument("--propagated", help=argparse.SUPPRESS)
    args = parser.parse_args()
    return main_worker(args) if args.worker else main_orchestrate(args)


if __name__ == "__main__":
    sys.exit(main())
