#!/usr/bin/env bash
# The main job on the embedded default: sets up a fresh machine, builds Tessel, and takes
# the annotated example program through the pipeline on N simulated devices in one process:
# propagate shardings, partition into the SPMD program (printed), run the single-device
# program, run the partitioned one on every device of the mesh, and check they agree.
# Then the same through the C++ API: examples/megatron_mlp partitions, runs and verifies its
# MLP on 8 simulated devices.
# Usage: scripts/run.sh [PROGRAM.mlir]   (default: examples/mlp/mlp.mlir)
set -euo pipefail
cd "$(dirname "$0")/.."
program=${1:-examples/mlp/mlp.mlir}

./scripts/setup.sh >&2
bazel build --noshow_progress //tools/tessel //examples/megatron_mlp >&2
tessel=bazel-bin/tools/tessel/tessel

echo "== the partitioned program (tessel partition $program)"
"$tessel" partition "$program"
echo
echo "== single-device run and the partitioned run on every device (tessel run --check)"
"$tessel" run "$program" --check --print_limit=8
echo
echo "== the C++ API: examples/megatron_mlp on 8 devices"
exec bazel-bin/examples/megatron_mlp/megatron_mlp 8
