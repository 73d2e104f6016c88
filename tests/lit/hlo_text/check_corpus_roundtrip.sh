#!/usr/bin/env bash
# Imports every .hlo file of a corpus directory, exports it, imports the export again and
# checks the two modules are equal. Usage: check_corpus_roundtrip.sh DIR MIN_FILES
set -euo pipefail
dir="$1"
min_files="$2"
tmp="$(mktemp -d)"
count=0
for file in "$dir"/*.hlo; do
  [ -e "$file" ] || continue
  base="$(basename "$file" .hlo)"
  tessel-translate --import-hlo "$file" > "$tmp/$base.mlir"
  tessel-translate --export-hlo "$tmp/$base.mlir" > "$tmp/$base.exported.hlo"
  tessel-translate --import-hlo "$tmp/$base.exported.hlo" > "$tmp/$base.again.mlir"
  if ! diff -u "$tmp/$base.mlir" "$tmp/$base.again.mlir"; then
    echo "round trip changed $file" >&2
    exit 1
  fi
  echo "$base: ok ($(grep -c '= hlo\.\|= tessel\.' "$tmp/$base.mlir") ops)"
  count=$((count + 1))
done
if [ "$count" -lt "$min_files" ]; then
  echo "expected at least $min_files corpus files in $dir, found $count" >&2
  exit 1
fi
