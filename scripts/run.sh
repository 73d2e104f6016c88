#!/usr/bin/env bash
# The main job: sets up a fresh machine, builds Tessel, and takes an annotated program
# through the pipeline on N simulated devices in one process: propagate shardings, partition
# into the SPMD program (printed), run the single-device program, run the partitioned one on
# every device of the mesh, and check they agree. Without PROGRAM it does this for the
# embedded example examples/mlp/mlp.mlir and then the same through the C++ API:
# examples/megatron_mlp partitions, runs and verifies its MLP on 8 simulated devices.
# Setup and Bazel, with its progress, write to standard error; the results go to standard
# output.
# Usage: scripts/run.sh [PROGRAM]   (MLIR or XLA HLO text; a path from the current directory)
set -euo pipefail

usage="usage: scripts/run.sh [PROGRAM]   (default: examples/mlp/mlp.mlir, then the C++ API example)"
root="$(cd "$(dirname "$0")/.." && pwd)"

if (($# > 1)); then
  echo "$usage" >&2
  exit 2
fi
case "${1-}" in
  -h | --help)
    echo "$usage"
    exit 0
    ;;
  -*)
    echo "run.sh: unknown option '$1'" >&2
    echo "$usage" >&2
    exit 2
    ;;
esac

if (($# == 0)); then
  # The default program, named relative to the repository as the README shows it.
  cd "$root"
  program=examples/mlp/mlp.mlir
  api_example=yes
else
  # The user's program, named relative to where they are: check it before the slow setup.
  program=$1
  api_example=no
  if [[ ! -f "$program" ]]; then
    echo "run.sh: $program: no such file" >&2
    exit 1
  fi
fi

targets=(//tools/tessel)
if [[ $api_example == yes ]]; then targets+=(//examples/megatron_mlp); fi
(
  cd "$root"
  ./scripts/setup.sh
  bazel build "${targets[@]}"
) >&2
tessel="$root/bazel-bin/tools/tessel/tessel"

echo "== the partitioned program (tessel partition $program)"
"$tessel" partition "$program"
echo
echo "== single-device run and the partitioned run on every device (tessel run --check)"
"$tessel" run "$program" --check --print_limit=8
if [[ $api_example == yes ]]; then
  echo
  echo "== the C++ API: examples/megatron_mlp on 8 devices"
  exec "$root/bazel-bin/examples/megatron_mlp/megatron_mlp" 8
fi
