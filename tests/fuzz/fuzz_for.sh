#!/usr/bin/env bash
# Runs one libFuzzer binary for a while on a working corpus seeded from committed inputs,
# and fails if it finds anything: a crash, a sanitizer report, a broken promise, an input
# that takes over 10 s or a process over 4 GB.
#   fuzz_for.sh FUZZER SECONDS [LIBFUZZER_FLAG...] -- SEED_FILE...
# FUZZ_SECONDS in the environment overrides SECONDS (run_fuzzer.sh sets it for long runs).
# The working corpus is under FUZZ_WORKDIR, else the test's temporary directory; findings go
# to the test's undeclared outputs (bazel-testlogs/.../test.outputs), else WORKDIR/artifacts.
set -euo pipefail
fuzzer="$1"
seconds="${FUZZ_SECONDS:-$2}"
shift 2
flags=()
while (($#)) && [[ "$1" != "--" ]]; do flags+=("$1"); shift; done
[[ "${1:-}" == "--" ]] && shift
# LLVM's allocators in the system libMLIR poison memory for ASan without being built with it,
# so ASan would see their own reuse as use-after-poison (the tests set the same).
export ASAN_OPTIONS="${ASAN_OPTIONS:-allow_user_poisoning=0}"
workdir="${FUZZ_WORKDIR:-${TEST_TMPDIR:-$(mktemp -d)}}"
artifacts="${TEST_UNDECLARED_OUTPUTS_DIR:-$workdir/artifacts}"
mkdir -p "$workdir/corpus" "$artifacts"
seeds=0
for seed in "$@"; do
  name="$(basename "$seed")"
  [[ -f "$seed" && "$name" != README.md && "$name" != BUILD ]] || continue
  cp "$seed" "$workdir/corpus/seed_$(basename "$(dirname "$seed")")_$name"
  seeds=$((seeds + 1))
done
# The test command's short runs start from a fixed random seed, so that a run on one
# machine mutates as one on another did; long runs (FUZZ_SECONDS) draw theirs.
if [[ -n "${TEST_TARGET:-}" && -z "${FUZZ_SECONDS:-}" ]]; then flags+=(-seed=1); fi
echo "fuzz_for: $(basename "$fuzzer") for $seconds s from $seeds seeds"
exec "$fuzzer" -timeout=10 -rss_limit_mb=4096 -max_total_time="$seconds" \
  -print_final_stats=1 -artifact_prefix="$artifacts/" "${flags[@]}" "$workdir/corpus"
