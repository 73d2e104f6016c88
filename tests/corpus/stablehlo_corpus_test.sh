#!/usr/bin/env bash
# Every StableHLO + Shardy program of the corpus (NAME.stablehlo.mlir, as JAX prints it by
# default) imports, partitions and passes `tessel run --check`, and its partitioned entry
# function has the shardings and local types of the HLO form of the same program (NAME.hlo).
# Usage: stablehlo_corpus_test.sh TESSEL CORPUS_DIR MIN_FILES
set -uo pipefail
tessel="$1"
dir="$2"
min_files="$3"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

source "$(dirname "$0")/entry_signature.sh"

passed=0
failed=0
fail() {
  echo "FAIL $1: $2"
  failed=$((failed + 1))
}
for file in "$dir"/*.stablehlo.mlir; do
  [ -e "$file" ] || continue
  name="$(basename "$file" .stablehlo.mlir)"
  if ! "$tessel" run --check --seed=1 "$file" > "$tmp/$name.run" 2>&1; then
    fail "$name" "run --check: $(tail -3 "$tmp/$name.run")"
    continue
  fi
  if ! grep -q '^check: result 0 .* matches' "$tmp/$name.run"; then
    fail "$name" "run --check compared nothing: $(tail -3 "$tmp/$name.run")"
    continue
  fi
  if ! "$tessel" partition "$file" -o "$tmp/$name.partitioned.mlir" 2> "$tmp/$name.err"; then
    fail "$name" "partition: $(cat "$tmp/$name.err")"
    continue
  fi
  if [ -e "$dir/$name.hlo" ]; then
    if ! "$tessel" partition "$dir/$name.hlo" -o "$tmp/$name.hlo.mlir" 2> "$tmp/$name.err"; then
      fail "$name" "partition of the HLO form: $(cat "$tmp/$name.err")"
      continue
    fi
    if ! diff <(signature "$tmp/$name.partitioned.mlir") <(signature "$tmp/$name.hlo.mlir") \
        > "$tmp/$name.diff"; then
      fail "$name" "shardings differ from the HLO form's: $(cat "$tmp/$name.diff")"
      continue
    fi
  fi
  echo "$name: ok"
  passed=$((passed + 1))
done
if [ $((passed + failed)) -lt "$min_files" ]; then
  fail corpus "expected at least $min_files StableHLO files in $dir"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
