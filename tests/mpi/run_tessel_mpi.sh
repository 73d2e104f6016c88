#!/bin/bash
# Runs `tessel run --backend=mpi` under mpirun on this host and checks its exit status and
# output: run_tessel_mpi.sh NP EXPECTED_STATUS PATTERN TESSEL ARGS... PATTERN is an
# extended regular expression that the combined output must match; EXPECTED_STATUS 0 means
# success, anything else that mpirun must fail (it reports the first failing rank's status,
# which is what is compared).
set -u
np="$1"
expected="$2"
pattern="$3"
tessel="$4"
shift 4
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export TMPDIR="${TEST_TMPDIR:-${TMPDIR:-/tmp}}"
output="$(timeout 300 mpirun --oversubscribe -np "$np" --mca btl self,vader,tcp \
  --mca btl_tcp_if_include lo --mca oob_tcp_if_include lo \
  "$tessel" run --backend=mpi "$@" 2>&1)"
rc=$?
echo "$output"
failed=0
if [[ $rc -ne $expected ]]; then
  echo "FAILED: mpirun -np $np tessel run --backend=mpi $* exited with $rc, expected $expected"
  failed=1
fi
if ! grep -Eq -- "$pattern" <<<"$output"; then
  echo "FAILED: the output does not match: $pattern"
  failed=1
fi
exit $failed
