#!/bin/bash
# Runs a test binary under mpirun on this host: run_mpi.sh NP BINARY [ARGS...]. Fails when
# any rank fails.
set -u
np="$1"
binary="$2"
shift 2
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# Bazel's gtest hooks name one file for the whole test; every rank would race on it.
unset TEST_PREMATURE_EXIT_FILE XML_OUTPUT_FILE
export TMPDIR="${TEST_TMPDIR:-${TMPDIR:-/tmp}}"
# Shared memory between ranks and loopback TCP; no network interfaces beyond lo are needed.
timeout 300 mpirun --oversubscribe -np "$np" --mca btl self,vader,tcp \
  --mca btl_tcp_if_include lo --mca oob_tcp_if_include lo "$binary" "$@"
rc=$?
[[ $rc -eq 0 ]] || echo "mpirun -np $np $(basename "$binary") exited with $rc"
exit $rc
