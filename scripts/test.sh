#!/usr/bin/env bash
# Sets up a fresh machine, builds everything, runs every test, and ends with one line:
# `N passed, N failed`. This is the README's test command and what CI runs.
set -uo pipefail
cd "$(dirname "$0")/.."

./scripts/setup.sh || { echo "0 passed, 1 failed"; exit 1; }

# The JAX bridge's tests run with the Python of .venv-jax when setup made it (.bazelrc passes
# TESSEL_JAX_PYTHON through to the tests); without it they report themselves skipped.
if [[ -x .venv-jax/bin/python ]]; then
  export TESSEL_JAX_PYTHON="$PWD/.venv-jax/bin/python"
fi

log=$(mktemp)
trap 'rm -f "$log"' EXIT
bazel test //... --keep_going 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
# The NCCL backend compiles and links where CUDA is installed (no GPU needed); its tests
# run on GPU machines: see docs/nccl.md.
if [[ -e /usr/local/cuda/include/nccl.h ]]; then
  bazel build --config=cuda //collectives/nccl/... //benchmarks:nccl_collectives_benchmark 2>&1 | tail -n 3
  cuda_status=${PIPESTATUS[0]}
  [[ $cuda_status -eq 0 ]] || { echo "FAILED: bazel build --config=cuda (NCCL backend and benchmark)"; status=$cuda_status; }
fi
testlogs="$(bazel info bazel-testlogs 2>/dev/null)"
# The sanitized stage: the bad-input catalogue, the readers' tests, the fuzz regression
# tests and a short run of each libFuzzer target, built with clang 14, ASan and UBSan
# (--config=fuzz keeps its outputs apart). See docs/reliability.md.
sanitized_log=$(mktemp)
trap 'rm -f "$log" "$sanitized_log"' EXIT
bazel test --config=fuzz //tests/fuzz:sanitized --keep_going 2>&1 | tee "$sanitized_log"
sanitized_status=${PIPESTATUS[0]}
# The installed package: scripts/install.sh into a scratch prefix, then a CMake project and a
# pkg-config build against it (tests/consumers/cmake, docs/embedding.md). It needs Bazel
# itself, so it runs here rather than as a Bazel test, and reports in Bazel's form.
consumer_log=$(mktemp)
consumer_testlogs=$(mktemp -d)
trap 'rm -rf "$log" "$sanitized_log" "$consumer_log" "$consumer_testlogs"' EXIT
tests/consumers/cmake/run.sh "$consumer_testlogs" 2>&1 | tee "$consumer_log"
consumer_status=${PIPESTATUS[0]}
python3 scripts/summarize_tests.py "$log" "$status" "$testlogs" \
  sanitized "$sanitized_log" "$sanitized_status" "$(bazel info --config=fuzz bazel-testlogs 2>/dev/null)" \
  installed "$consumer_log" "$consumer_status" "$consumer_testlogs"
