#!/bin/bash
# The commands users run link LLVM, MLIR, Abseil, protobuf, COIN-OR (with LAPACK, BLAS and
# the Fortran runtime), the C++ library and the GCC runtime in, so they start without the
# dynamic loader binding ~100 shared libraries (build_defs.bzl's tessel_executable). A
# shared library of any of those in a command's NEEDED entries means a dependency's flags
# won over the archives; the tessel command must also keep its allocator, mimalloc.
#
# Usage: static_link_test.sh tessel_binary other_binary...
set -euo pipefail
tessel="$1"
shift
status=0
for binary in "$tessel" "$@"; do
  needed=$(readelf -d "$binary" | awk '/\(NEEDED\)/ {gsub(/[][]/, "", $5); print $5}')
  if [[ -z "$needed" ]]; then
    echo "$binary: no NEEDED entries read"
    status=1
  fi
  linked=$(grep -E '^lib(MLIR|LLVM|absl_|protobuf|Cbc|Clp|Osi|CoinUtils|lapack|blas|gfortran|quadmath|bz2|stdc\+\+|gcc_s)' <<<"$needed" || true)
  if [[ -n "$linked" ]]; then
    echo "$binary: links shared libraries that should be static:" $linked
    status=1
  fi
done
if ! grep -q 'libmimalloc' <<<"$(readelf -d "$tessel")"; then
  echo "$tessel: does not link mimalloc"
  status=1
fi
# The arena allocator_arena.cc reserves before main(); mimalloc reports it when verbose.
# Outputs are read whole before grep: `grep -q` stops reading at the match, and under
# pipefail the writer's broken pipe would then fail the check.
verbose=$(MIMALLOC_VERBOSE=1 "$tessel" --version 2>&1)
if ! grep -q '^mimalloc: reserved' <<<"$verbose"; then
  echo "$tessel: mimalloc has no arena reserved"
  status=1
fi
exit $status
