#!/usr/bin/env bash
# The fuzz driver's own modes, end to end: --replay prints each strategy it chose and the
# partitioned program and passes a fixed case; a missing case file is a usage error;
# --reduce_to makes the directory it is given (nested) and refuses one it cannot make; a
# short campaign prints its coverage, the strategies on offer included; --write_programs
# writes one runnable case per seed.
set -uo pipefail
bin=tests/differential/fuzz_partitioner
case_file=tests/differential/regressions/seed_1222683.mlir
tmp="${TEST_TMPDIR:-$(mktemp -d)}"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

out=$("$bin" --replay="$case_file" 2>&1); status=$?
[[ $status -eq 0 ]] || fail "--replay exited $status: $out"
grep -q '^strategy [0-9]* of [0-9]* for hlo\.' <<<"$out" || fail "--replay printed no strategy"
grep -q '^-- partitioned:' <<<"$out" || fail "--replay printed no partitioned program"
grep -q 'tessel.partition_id\|hlo.partition_id' <<<"$out" || fail "the program printed is not partitioned"
grep -q '^passed (random-choices=1222683)' <<<"$out" || fail "--replay did not pass: $out"

out=$("$bin" --replay="$tmp/no_such_case.mlir" 2>&1); status=$?
[[ $status -eq 2 ]] || fail "--replay of a missing file exited $status"
grep -q 'no_such_case.mlir' <<<"$out" || fail "the missing file is not named: $out"

out=$("$bin" --first_seed=1 --cases=8 --reduce_to="$tmp/made/on/demand" 2>&1); status=$?
[[ $status -eq 0 ]] || fail "an 8-case campaign exited $status: $out"
[[ -d "$tmp/made/on/demand" ]] || fail "--reduce_to did not make its directory"
grep -q '^8 cases, 0 failed' <<<"$out" || fail "no summary line: $out"
grep -q '^  strategy offered:' <<<"$out" || fail "no strategies on offer in the coverage"

touch "$tmp/a_file"
out=$("$bin" --first_seed=1 --cases=1 --reduce_to="$tmp/a_file/sub" 2>&1); status=$?
[[ $status -eq 2 ]] || fail "--reduce_to under a file exited $status"
grep -q "cannot make $tmp/a_file/sub" <<<"$out" || fail "no message for --reduce_to: $out"

out=$("$bin" --first_seed=5 --cases=3 --write_programs="$tmp/programs" 2>&1); status=$?
[[ $status -eq 0 ]] || fail "--write_programs exited $status: $out"
grep -q "^wrote 3 programs to $tmp/programs" <<<"$out" || fail "no line for --write_programs: $out"
for seed in 5 6 7; do
  written="$tmp/programs/seed_$seed.mlir"
  [[ -f "$written" ]] || { fail "--write_programs did not write seed_$seed.mlir"; continue; }
  grep -q '^// options:' "$written" || fail "seed_$seed.mlir has no options line"
  # Each written program is a regression case the driver can run as it stands.
  replayed=$("$bin" --replay="$written" 2>&1) || fail "seed_$seed.mlir does not replay: $replayed"
done
[[ ! -e "$tmp/programs/seed_8.mlir" ]] || fail "--write_programs wrote more than --cases"
out=$("$bin" --cases=1 --write_programs="$tmp/a_file/programs" 2>&1); status=$?
[[ $status -eq 2 ]] || fail "--write_programs under a file exited $status"

# --max_memory_mb: 0 is no limit; 1 MiB still holds every tensor of these small cases.
out=$("$bin" --first_seed=1 --cases=20 --max_memory_mb=0 2>&1) || fail "no memory limit: $out"
out=$("$bin" --first_seed=1 --cases=20 --max_memory_mb=1 2>&1)
grep -q '^20 cases, 0 failed' <<<"$out" || fail "--max_memory_mb=1 failed cases: $out"

# A case past the cap fails with the op, the bytes and the stage, whether the inputs pass it
# (2 MiB) or only the harness's own copies do (a 384 KiB argument, its sum and
# their shards); with room it passes.
for rows in 512 96; do
  cat > "$tmp/big_$rows.mlir" <<EOF
// options: inputs=1
tessel.mesh @mesh = <["x"=2]>
func.func @main(%a: tensor<${rows}x1024xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>}) -> tensor<${rows}x1024xf32> {
  %0 = hlo.add %a, %a : tensor<${rows}x1024xf32>
  return %0 : tensor<${rows}x1024xf32>
}
EOF
  out=$("$bin" --replay="$tmp/big_$rows.mlir" --max_memory_mb=1 2>&1); status=$?
  [[ $status -eq 1 ]] || fail "$rows rows past --max_memory_mb=1 exited $status: $out"
  grep -q "^FAILED at [a-z]*:" <<<"$out" || fail "$rows rows: no failed stage: $out"
  grep -q "out of memory: .*[fs]32\\[[0-9]*,1024\\] needs [0-9]* bytes .*beyond max_memory = 1048576 bytes" <<<"$out" ||
    fail "$rows rows: the memory failure is not described: $out"
  out=$("$bin" --replay="$tmp/big_$rows.mlir" --max_memory_mb=64 2>&1) ||
    fail "$rows rows within --max_memory_mb=64 failed: $out"
done

[[ $failures -eq 0 ]] && echo "PASS" || exit 1
