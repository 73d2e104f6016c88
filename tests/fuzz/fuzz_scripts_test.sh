#!/usr/bin/env bash
# The scripts around the libFuzzer binaries, run against stand-ins that record how they were
# called: fuzz_for.sh (what the sanitized stage's fuzz tests run) and run_fuzzer.sh (long
# runs by hand).
#   fuzz_for.sh: copies the seed files into the corpus (README.md and BUILD left out), passes
#   the flags and limits on, adds -seed=1 under Bazel for the short runs and not when
#   FUZZ_SECONDS asks for a long one, which also overrides the seconds.
#   run_fuzzer.sh: asks Bazel for the target's fuzz test with the seconds and working
#   directory it was given, under --config=fuzz and with a timeout beyond the run.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
tmp="${TEST_TMPDIR:-$(mktemp -d)}"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# A stand-in fuzzer: records its arguments and the corpus it was given.
fake="$tmp/fake_fuzzer"
cat > "$fake" <<'SH'
#!/usr/bin/env bash
printf '%s\n' "$@" > "$FAKE_LOG"
corpus="${@: -1}"
ls "$corpus" > "$FAKE_LOG.corpus"
SH
chmod +x "$fake"
mkdir -p "$tmp/seeds/hlo"
echo 'HloModule m' > "$tmp/seeds/hlo/one.hlo"
echo 'x' > "$tmp/seeds/hlo/two.hlo"
echo 'docs' > "$tmp/seeds/hlo/README.md"
echo 'build' > "$tmp/seeds/hlo/BUILD"

run_fuzz_for() {  # WORKDIR [ENV...]
  local workdir="$1"; shift
  env FAKE_LOG="$tmp/log" FUZZ_WORKDIR="$workdir" TEST_UNDECLARED_OUTPUTS_DIR="$workdir/out" "$@" \
    bash "$here/fuzz_for.sh" "$fake" 20 -max_len=64 -- \
    "$tmp/seeds/hlo/one.hlo" "$tmp/seeds/hlo/two.hlo" "$tmp/seeds/hlo/README.md" \
    "$tmp/seeds/hlo/BUILD" > "$tmp/stdout" 2>&1
}

run_fuzz_for "$tmp/short" TEST_TARGET=//tests/fuzz:x_fuzz_test FUZZ_SECONDS= ||
  fail "fuzz_for.sh failed: $(cat "$tmp/stdout")"
grep -qx -- '-seed=1' "$tmp/log" || fail "a short run under Bazel has no -seed=1: $(cat "$tmp/log")"
grep -qx -- '-max_total_time=20' "$tmp/log" || fail "the seconds are not passed on"
grep -qx -- '-max_len=64' "$tmp/log" || fail "the flags are not passed on"
grep -qx -- '-rss_limit_mb=4096' "$tmp/log" || fail "no memory limit"
grep -qx -- '-timeout=10' "$tmp/log" || fail "no time limit per input"
grep -qx -- "-artifact_prefix=$tmp/short/out/" "$tmp/log" || fail "findings do not go to the outputs"
[[ "$(tail -1 "$tmp/log")" == "$tmp/short/corpus" ]] || fail "the corpus is not the last argument"
[[ "$(sort "$tmp/log.corpus" | tr '\n' ' ')" == "seed_hlo_one.hlo seed_hlo_two.hlo " ]] ||
  fail "the corpus holds $(cat "$tmp/log.corpus")"
grep -q 'from 2 seeds' "$tmp/stdout" || fail "the seed count is not printed: $(cat "$tmp/stdout")"

run_fuzz_for "$tmp/long" TEST_TARGET=//tests/fuzz:x_fuzz_test FUZZ_SECONDS=300 ||
  fail "a long fuzz_for.sh run failed: $(cat "$tmp/stdout")"
grep -qx -- '-seed=1' "$tmp/log" && fail "a long run (FUZZ_SECONDS) has a fixed seed"
grep -qx -- '-max_total_time=300' "$tmp/log" || fail "FUZZ_SECONDS does not override the seconds"

# run_fuzzer.sh, with a stand-in bazel on the PATH.
mkdir -p "$tmp/bin" "$tmp/tree/tests/fuzz"
cp "$here/run_fuzzer.sh" "$tmp/tree/tests/fuzz/"
cat > "$tmp/bin/bazel" <<'SH'
#!/usr/bin/env bash
{ pwd; printf '%s\n' "$@"; } > "$FAKE_LOG"
SH
chmod +x "$tmp/bin/bazel"
PATH="$tmp/bin:$PATH" FAKE_LOG="$tmp/bazel_log" \
  bash "$tmp/tree/tests/fuzz/run_fuzzer.sh" npy 60 "$tmp/npy_work" > "$tmp/stdout" 2>&1 ||
  fail "run_fuzzer.sh failed: $(cat "$tmp/stdout")"
[[ "$(head -1 "$tmp/bazel_log")" == "$tmp/tree" ]] || fail "bazel does not run at the tree's root"
for want in test --config=fuzz //tests/fuzz:npy_fuzz_test --test_env=FUZZ_SECONDS=60 \
    "--test_env=FUZZ_WORKDIR=$tmp/npy_work" --test_timeout=660 --cache_test_results=no; do
  grep -qx -- "$want" "$tmp/bazel_log" || fail "run_fuzzer.sh did not pass $want: $(cat "$tmp/bazel_log")"
done
[[ -d "$tmp/npy_work" ]] || fail "run_fuzzer.sh did not make its working directory"
PATH="$tmp/bin:$PATH" FAKE_LOG="$tmp/bazel_log" bash "$tmp/tree/tests/fuzz/run_fuzzer.sh" \
  > "$tmp/stdout" 2>&1 && fail "run_fuzzer.sh without a target succeeded"
grep -q 'usage: run_fuzzer.sh TARGET' "$tmp/stdout" || fail "no usage line: $(cat "$tmp/stdout")"

[[ $failures -eq 0 ]] && echo "PASS" || exit 1
