#!/usr/bin/env python3
"""Weight-update sharding per optimizer: memory, bytes and step time per device.

For every optimizer step of tests/corpus (opt_*.hlo, made with JAX and optax) this runs
`tessel report --format=json` without and with --shard_weight_update, on 8 devices (the
data axis 8 wide; the 2-D mesh program keeps its data=4 x model=2 mesh), and prints a
Markdown table: the bytes of the arguments (weights, optimizer state and the batch shard:
only the state changes with the pass), the peak of live bytes, the bytes each device
sends and the cost model's estimated step time, each without -> with.

    bazel build -c opt //tools/tessel
    python3 benchmarks/weight_update_figures.py --tessel "$(bazel info -c opt bazel-bin)/tools/tessel/tessel"
"""
import argparse
import json
import os
import subprocess


def report(tessel, path, mesh, wus):
    command = [tessel, "report", path, "--format=json"] + ([mesh] if mesh else [])
    if wus:
        command.append("--shard_weight_update")
    out = json.loads(subprocess.run(command, check=True, capture_output=True, text=True).stdout)
    sent = sum(c["sent_bytes"] for c in out["communication"]["collectives"])
    return (out["memory"]["argument_bytes"], out["memory"]["peak_bytes"], sent,
            out["step_seconds"] * 1e6)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tessel", default="bazel-bin/tools/tessel/tessel")
    parser.add_argument("--corpus", default=os.path.join(os.path.dirname(__file__), "..",
                                                         "tests", "corpus"))
    args = parser.parse_args()
    names = sorted(n[:-4] for n in os.listdir(args.corpus)
                   if n.startswith("opt_") and n.endswith(".hlo")
                   and not n.endswith((".gspmd.hlo", ".partitioned.hlo")))
    print("| program | mesh | arguments KiB | peak KiB | sent KiB | step us |")
    print("|---|---|---|---|---|---|")
    for name in names:
        path = os.path.join(args.corpus, name + ".hlo")
        mesh = None if name == "opt_2d_mesh" else "--mesh=axis_0=8,axis_1=1"
        without = report(args.tessel, path, mesh, False)
        with_pass = report(args.tessel, path, mesh, True)
        cells = [f"{a / 1024:.1f} -> {b / 1024:.1f}" for a, b in zip(without[:3], with_pass[:3])]
        cells.append(f"{without[3]:.1f} -> {with_pass[3]:.1f}")
        print(f"| {name} | {'4x2' if mesh is None else '8'} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
