#!/usr/bin/env python3
"""Weight-update sharding on the optimizer steps of tests/corpus (opt_*.hlo, made by JAX and
optax), on every standard mesh: data x model sizes (1..8) x 1, 2x2 and 2x3, the batch
split over the first axis ("data").

For each program and mesh:
  * `tessel run --check --shard_weight_update` gives the single-device results;
  * with more than one data-parallel device, the partitioned step reduce-scatters and
    all-gathers, and all-reduces over the data axis none of the gradients that the step
    all-reduces without the pass;
  * `tessel report` with the pass shows a lower peak memory per device than without (for
    a stateless optimizer, no higher), and
    no more bytes sent, beyond what the collectives of the update's reductions add (norms,
    Adafactor's row and column statistics: tensors of lower rank than every gradient)
    and, where no dimension
    of a weight divides by any part of the data axis, the padding of its split (the
    reduce_scatter's zero-padded operand over the gradient).

    optimizer_corpus_test.py TESSEL CORPUS_DIR
"""
import json
import math
import os
import re
import subprocess
import sys

MESHES = [(1, 1), (2, 1), (3, 1), (4, 1), (6, 1), (8, 1), (2, 2), (2, 3)]
# Programs whose optimizer keeps no state.
STATELESS = {"opt_sgd"}
# `%N = hlo.pad %M, ... : (tensor<AxBxf32>, ...) -> tensor<CxDxf32>`
PAD = re.compile(r"(%\S+) = hlo\.pad .*: \(tensor<([0-9x]+)x[a-z0-9]+>, .*\) -> tensor<([0-9x]+)x[a-z0-9]+>")
REDUCE_SCATTER = re.compile(r"= tessel\.reduce_scatter (%\S+) over")
# Collectives over the data axis or a part of it: kind, axes and the operand's type.
DATA_COLLECTIVE = re.compile(
    r'tessel\.(all_reduce|all_gather) %\S+ over @mesh (\[[^]]*"data"[^]]*\])[^:]*: \(?tensor<([^>]*)>')


def data_collectives(text):
    """(kind, whole data axis?, dims, element bytes) of every collective over the data axis
    (or a part of it, as when a gradient's pieces are all-reduced after a reduce_scatter
    over the other part)."""
    found = []
    for kind, axes, type_text in DATA_COLLECTIVE.findall(text):
        *dims, element = type_text.split("x")
        bits = int(re.sub(r"[^0-9]", "", element) or 8)
        found.append((kind, axes == '["data"]', tuple(int(d) for d in dims), bits // 8))
    return found


def run(command):
    result = subprocess.run(command, capture_output=True, text=True)
    return result.returncode, result.stdout + result.stderr


def sent_and_peak(tessel, path, mesh, wus):
    command = [tessel, "report", path, "--format=json", mesh] + (["--shard_weight_update"] if wus else [])
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed:\n{result.stderr}")
    report = json.loads(result.stdout)
    sent = sum(c["sent_bytes"] for c in report["communication"]["collectives"])
    return sent, report["memory"]["peak_bytes"]


def padding_ratio(text):
    """The largest ratio of a reduce_scatter's zero-padded operand to the unpadded one."""
    pads = {}
    for name, before, after in PAD.findall(text):
        size = lambda dims: math.prod(int(d) for d in dims.split("x"))
        pads[name] = size(after) / size(before)
    ratios = [pads[name] for name in REDUCE_SCATTER.findall(text) if name in pads]
    return max(ratios, default=1.0)


def main():
    tessel, corpus = sys.argv[1], sys.argv[2]
    programs = sorted(name[:-4] for name in os.listdir(corpus)
                      if name.startswith("opt_") and name.endswith(".hlo")
                      and not name.endswith((".gspmd.hlo", ".partitioned.hlo")))
    if len(programs) < 12:
        print(f"expected at least 12 optimizer programs in {corpus}, found {programs}")
        return 1
    failures = []
    for name in programs:
        path = os.path.join(corpus, name + ".hlo")
        for data, model in MESHES:
            mesh = f"--mesh=data={data},model={model}"
            where = f"{name} on {data}x{model}"
            code, out = run([tessel, "run", path, "--check", "--shard_weight_update", mesh,
                             "--print_limit=0"])
            results = len(re.findall(r"^result \d+:", out, re.M))
            matches = len(re.findall(r"^check: result \d+ .* matches", out, re.M))
            if code != 0 or results == 0 or matches != results:
                failures.append(f"{where}: run --check failed ({matches}/{results} match)\n{out}")
                continue
            if data == 1:
                continue
            code, text = run([tessel, "partition", path, "--shard_weight_update", mesh])
            if code != 0:
                failures.append(f"{where}: partition failed\n{text}")
                continue
            for kind in ("tessel.reduce_scatter", "tessel.all_gather"):
                if kind not in text:
                    failures.append(f"{where}: no {kind} in the partitioned step")
            code, plain = run([tessel, "partition", path, mesh])
            gradients = {dims for kind, _, dims, _ in data_collectives(plain) if kind == "all_reduce"}
            lowest = min((len(dims) for dims in gradients), default=0)
            # The update's own reductions: collectives of tensors of lower rank than every
            # gradient, with what a ring sends for them.
            reductions, extra = 0, 0.0
            for kind, whole, dims, width in data_collectives(text):
                if kind == "all_reduce" and whole and dims in gradients:
                    failures.append(f"{where}: the gradient {dims} is still all-reduced")
                if len(dims) < lowest:
                    size = math.prod(dims) * width
                    extra += 2 * (data - 1) / data * size if kind == "all_reduce" else (data - 1) * size
                    reductions += 1
            sent, peak = sent_and_peak(tessel, path, mesh, wus=False)
            sent_wus, peak_wus = sent_and_peak(tessel, path, mesh, wus=True)
            # Without optimizer state (plain SGD) the peak may lie in the forward pass, which
            # the pass does not touch; it may then only grow by the partition id it reads
            # (two 4-byte scalars).
            stateless = name in STATELESS
            if peak_wus > peak + 8 if stateless else peak_wus >= peak:
                failures.append(f"{where}: peak {peak_wus} B with the pass, {peak} B without")
            # A ring all_reduce of 4 bytes over g devices sends 2 (g - 1) / g * 4 bytes.
            allowed = sent + extra
            allowed *= padding_ratio(text)
            if sent_wus > allowed + 1e-6:
                failures.append(f"{where}: {sent_wus} B sent with the pass, {sent} B without "
                                f"({reductions} collectives of the update's reductions)")
            print(f"{where}: sent {sent} -> {sent_wus} B, peak {peak} -> {peak_wus} B")
    for failure in failures:
        print("FAIL:", failure)
    print(f"{len(programs)} programs x {len(MESHES)} meshes, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
