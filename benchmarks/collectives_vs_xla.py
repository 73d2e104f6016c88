#!/usr/bin/env python3
"""Collectives per device: Tessel's partitioning of the JAX corpus beside XLA's own.

For every program of tests/corpus/ this runs `tessel report --format=json` twice: on the
unpartitioned HLO JAX lowered (Tessel propagates and partitions it) and on the HLO XLA's
SPMD partitioner produced for the same program (`--partitioned`), and prints, per
collective kind, the count and the bytes each device sends, and the cost model's
estimated communication time of each, as a Markdown table. Collectives in the body of a
counted loop count once per trip (those of other loops once).

    bazel build -c opt //tools/tessel
    python3 benchmarks/collectives_vs_xla.py [--tessel bazel-bin/tools/tessel/tessel]
"""
import argparse
import json
import os
import subprocess
import sys



def programs(corpus):
    """Every program of the corpus that has XLA's partitioned form beside it."""
    suffix = ".partitioned.hlo"
    return sorted(name[:-len(suffix)] for name in os.listdir(corpus) if name.endswith(suffix))


def report(tessel, path, partitioned):
    command = [tessel, "report", path, "--format=json"]
    if partitioned:
        command.append("--partitioned")
    out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    communication = json.loads(out)["communication"]
    by_kind = communication["by_kind"]
    return ({kind: (v["count"], v["sent_bytes"]) for kind, v in by_kind.items()},
            communication["seconds"])


def describe(collectives):
    if not collectives:
        return "none", 0
    parts = ["%d %s" % (count, kind) for kind, (count, _) in sorted(collectives.items())]
    return ", ".join(parts), sum(sent for _, sent in collectives.values())


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tessel", default="bazel-bin/tools/tessel/tessel")
    parser.add_argument("--corpus", default="tests/corpus")
    args = parser.parse_args()
    print("| program | Tessel | bytes sent | us | XLA | bytes sent | us | bytes T/X | time T/X |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name in programs(args.corpus):
        ours_collectives, ours_seconds = report(
            args.tessel, os.path.join(args.corpus, name + ".hlo"), False)
        xla_collectives, xla_seconds = report(
            args.tessel, os.path.join(args.corpus, name + ".partitioned.hlo"), True)
        ours, ours_bytes = describe(ours_collectives)
        xla, xla_bytes = describe(xla_collectives)
        ratio = "%.2f" % (ours_bytes / xla_bytes) if xla_bytes else "-"
        time_ratio = "%.2f" % (ours_seconds / xla_seconds) if xla_seconds else "-"
        print("| %s | %s | %d | %.1f | %s | %d | %.1f | %s | %s |" %
              (name, ours, ours_bytes, ours_seconds * 1e6, xla, xla_bytes, xla_seconds * 1e6,
               ratio, time_ratio))
    return 0


if __name__ == "__main__":
    sys.exit(main())
