#!/usr/bin/env bash
# For every program of a corpus directory (the Shardy lowerings, NAME.hlo): the partitioned
# program written as HLO text runs exactly as the partitioned MLIR does (global inputs cut
# into each partition's piece, global results assembled),
# and the propagated program written as HLO (a sharding on every instruction) imports,
# partitions and passes `run --check`. Usage: check_partitioned_hlo.sh DIR MIN_PROGRAMS
set -euo pipefail
dir="$1"
min_programs="$2"
tmp="$(mktemp -d)"
count=0
for file in "$dir"/*.hlo; do
  case "$file" in *.gspmd.hlo|*.partitioned.hlo) continue ;; esac
  base="$(basename "$file" .hlo)"
  tessel partition "$file" --output="$tmp/$base.mlir" 2>/dev/null
  tessel partition "$file" --output="$tmp/$base.hlo" 2>/dev/null
  # Both carry the partitioned mark (MLIR's module attribute, HLO's header attributes):
  # each runs on the same seeded global inputs and assembles global results.
  tessel run "$tmp/$base.mlir" --print_limit=16 > "$tmp/$base.mlir.out"
  tessel run "$tmp/$base.hlo" --print_limit=16 > "$tmp/$base.hlo.out"
  if ! diff -q "$tmp/$base.mlir.out" "$tmp/$base.hlo.out" > /dev/null; then
    echo "partitioned HLO of $base runs differently" >&2
    exit 1
  fi
  tessel partition "$file" --propagated --format=hlo > "$tmp/$base.propagated.hlo" 2>/dev/null
  grep -q "sharding=" "$tmp/$base.propagated.hlo"
  tessel run "$tmp/$base.propagated.hlo" --check --print_limit=0 > /dev/null 2>&1 || {
    echo "propagated HLO of $base fails run --check" >&2
    exit 1
  }
  echo "$base: ok"
  count=$((count + 1))
done
if [ "$count" -lt "$min_programs" ]; then
  echo "expected at least $min_programs programs in $dir, found $count" >&2
  exit 1
fi
echo "programs: $count"
