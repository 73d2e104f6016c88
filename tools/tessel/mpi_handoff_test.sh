#!/bin/bash
# tessel does not link Open MPI; `tessel run --backend=mpi` replaces itself with tessel-mpi
# from its own directory (mpi_run_elsewhere.cc). The MPI end-to-end tests in //tests/mpi run
# that path under mpirun; this checks the rest: tessel loads no MPI library, tessel-mpi
# does, and a tessel copied without its tessel-mpi fails with a message, not a crash.
#
# Usage: mpi_handoff_test.sh tessel tessel-mpi program.mlir
set -euo pipefail
tessel="$1"
tessel_mpi="$2"
program="$3"
status=0
# Outputs are read whole before grep: `grep -q` stops reading at the match, and under
# pipefail the writer's broken pipe would then fail the check.
if grep -q 'libmpi' <<<"$(readelf -d "$tessel")"; then
  echo "$tessel: links Open MPI"
  status=1
fi
if ! grep -q 'libmpi' <<<"$(readelf -d "$tessel_mpi")"; then
  echo "$tessel_mpi: does not link Open MPI"
  status=1
fi
alone="${TEST_TMPDIR:-$(mktemp -d)}/alone"
mkdir -p "$alone"
cp "$tessel" "$alone/tessel"
set +e
message=$("$alone/tessel" run --backend=mpi "$program" 2>&1)
code=$?
set -e
if [[ $code -ne 1 ]]; then
  echo "tessel without tessel-mpi: exit $code, expected 1"
  status=1
fi
expected="tessel run: --backend=mpi runs through tessel-mpi, which is installed beside tessel, but $alone/tessel-mpi cannot be started: No such file or directory"
if [[ "$message" != "$expected" ]]; then
  echo "tessel without tessel-mpi said:"
  echo "$message"
  echo "expected:"
  echo "$expected"
  status=1
fi
exit $status
