#!/usr/bin/env bash
# The main job on the embedded default: sets up a fresh machine, builds Tessel, and runs the
# annotated example program through the pipeline. Today the pipeline parses the program,
# verifies every op and sharding, and prints it back.
# Usage: scripts/run.sh [PROGRAM.mlir]   (default: examples/mlp/mlp.mlir)
set -euo pipefail
cd "$(dirname "$0")/.."
program=${1:-examples/mlp/mlp.mlir}

./scripts/setup.sh >&2
bazel build --noshow_progress //tools/tessel-opt >&2
exec bazel-bin/tools/tessel-opt/tessel-opt "$program"
