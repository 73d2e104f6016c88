#!/usr/bin/env bash
# Fuzzes one target for a long while: the same test the sanitized stage of scripts/test.sh
# runs for seconds, given SECONDS (default 1200). Findings are kept in
# bazel-testlogs/tests/fuzz/TARGET_fuzz_test/test.outputs/; the working corpus in WORKDIR
# (default /tmp/tessel_fuzz/TARGET) grows from run to run.
#   tests/fuzz/run_fuzzer.sh TARGET [SECONDS] [WORKDIR]
# TARGET: hlo_text, sharding_text, npy, hardware_spec or pipeline.
set -euo pipefail
cd "$(dirname "$0")/../.."
target="${1:?usage: run_fuzzer.sh TARGET [SECONDS] [WORKDIR]}"
seconds="${2:-1200}"
workdir="${3:-/tmp/tessel_fuzz/$target}"
mkdir -p "$workdir"
exec bazel test --config=fuzz "//tests/fuzz:${target}_fuzz_test" --test_output=streamed \
  --test_env=FUZZ_SECONDS="$seconds" --test_env=FUZZ_WORKDIR="$workdir" \
  --test_timeout=$((seconds + 600)) --cache_test_results=no
