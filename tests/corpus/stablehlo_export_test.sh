#!/usr/bin/env bash
# Every HLO program of the corpus, written back as StableHLO + Shardy: the propagated form
# (an sdy.sharding on every op) imports again, partitions to the shardings and local types
# the HLO form partitions to, and passes `run --check`; the partitioned form (StableHLO
# collectives over device groups, with the partitioned mark) runs on global inputs exactly
# as the partitioned MLIR does. Neither may keep an op or attribute of Tessel's dialects.
# Usage: stablehlo_export_test.sh TESSEL CORPUS_DIR MIN_FILES
set -uo pipefail
tessel="$1"
dir="$2"
min_files="$3"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

source "$(dirname "$0")/entry_signature.sh"
# Ops or attributes of hlo/tessel left in an export (the module's partitioned mark, whose
# values are builtin, is the one `tessel.` name allowed).
foreign() {
  grep -n '"hlo\.\|"tessel\.\| hlo\.[a-z_]* \|#hlo\|#tessel\|tessel\.sharding' "$1" | head -3
}

passed=0
failed=0
fail() {
  echo "FAIL $1: $2"
  failed=$((failed + 1))
}
for file in "$dir"/*.hlo; do
  case "$file" in *.gspmd.hlo|*.partitioned.hlo) continue ;; esac
  name="$(basename "$file" .hlo)"
  propagated="$tmp/$name.propagated.stablehlo.mlir"
  partitioned="$tmp/$name.partitioned.stablehlo.mlir"
  if ! "$tessel" partition "$file" -o "$tmp/$name.mlir" 2> "$tmp/$name.err"; then
    fail "$name" "partition: $(cat "$tmp/$name.err")"
    continue
  fi
  if ! "$tessel" partition "$file" --propagated -o "$propagated" 2> "$tmp/$name.err"; then
    fail "$name" "propagated export: $(cat "$tmp/$name.err")"
    continue
  fi
  if [ -n "$(foreign "$propagated")" ]; then
    fail "$name" "propagated export keeps Tessel's dialects: $(foreign "$propagated")"
    continue
  fi
  if ! grep -q 'sdy.sharding = #sdy.sharding' "$propagated"; then
    fail "$name" "propagated export has no sdy.sharding"
    continue
  fi
  if ! "$tessel" partition "$propagated" -o "$tmp/$name.again.mlir" 2> "$tmp/$name.err"; then
    fail "$name" "partition of the propagated export: $(cat "$tmp/$name.err")"
    continue
  fi
  if ! diff <(signature "$tmp/$name.again.mlir") <(signature "$tmp/$name.mlir") \
      > "$tmp/$name.diff"; then
    fail "$name" "propagated export partitions differently: $(cat "$tmp/$name.diff")"
    continue
  fi
  if ! "$tessel" run --check --seed=1 --print_limit=0 "$propagated" > "$tmp/$name.run" 2>&1 ||
      ! grep -q '^check: result 0 .* matches' "$tmp/$name.run"; then
    fail "$name" "run --check of the propagated export: $(tail -3 "$tmp/$name.run")"
    continue
  fi
  if ! "$tessel" partition "$file" --format=stablehlo -o "$partitioned" 2> "$tmp/$name.err"; then
    fail "$name" "partitioned export: $(cat "$tmp/$name.err")"
    continue
  fi
  if [ -n "$(foreign "$partitioned" | grep -v 'tessel.partitioned')" ]; then
    fail "$name" "partitioned export keeps Tessel's dialects: $(foreign "$partitioned")"
    continue
  fi
  "$tessel" run "$tmp/$name.mlir" --seed=5 --print_limit=16 > "$tmp/$name.want" 2>&1
  if ! "$tessel" run "$partitioned" --seed=5 --print_limit=16 > "$tmp/$name.got" 2>&1 ||
      ! diff -q "$tmp/$name.want" "$tmp/$name.got" > /dev/null; then
    fail "$name" "partitioned export runs differently: $(diff "$tmp/$name.want" "$tmp/$name.got" | head -5)"
    continue
  fi
  echo "$name: ok"
  passed=$((passed + 1))
done
if [ $((passed + failed)) -lt "$min_files" ]; then
  fail corpus "expected at least $min_files HLO programs in $dir"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
