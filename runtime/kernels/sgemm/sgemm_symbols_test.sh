#!/bin/bash
# The vector variants' archives may define no external symbol but their accessors: any other
# (an inline function or template instantiation) could be merged by the linker with a copy
# from another unit and run where the CPU lacks the instructions it was compiled for.
set -euo pipefail
symbols="$1"
allowed='^_ZN6tessel7runtime5sgemm(10Avx2|12Avx512)KernelEv$'
bad=$(awk 'NF == 3 { print $3 }' "$symbols" | grep -Ev "$allowed" || true)
found=$(awk 'NF == 3 { print $3 }' "$symbols" | grep -Ec "$allowed" || true)
if [[ -n "$bad" ]]; then
  echo "symbols the vector variants must not export:"
  echo "$bad"
  exit 1
fi
if [[ "$found" -lt 2 ]]; then
  echo "expected both accessors in the symbol list, found $found:"
  cat "$symbols"
  exit 1
fi
echo "only the accessors are exported"
