#!/bin/bash
# Writes an example of the C++ API as MLIR text and runs it with `tessel run --backend=mpi
# --check` under mpirun: run_example_mpi.sh NP EMIT_PROGRAM TESSEL EXAMPLE. Passes when the
# job succeeds and rank 0 reports that the partitioned results match the single-device run.
set -u
np="$1"
emit="$2"
tessel="$3"
example="$4"
here="$(dirname "$0")"
program="${TEST_TMPDIR:-/tmp}/${example}_${np}.mlir"
"$emit" "$example" "$np" > "$program" || { echo "FAILED: $emit $example $np"; exit 1; }
exec "$here/run_tessel_mpi.sh" "$np" 0 'check: result 0 [a-z0-9]+\[[0-9,]*\] matches' \
  "$tessel" --check --print_limit=0 "$program"
