#!/bin/bash
# Runs mpi_fault_test in one mode on NP ranks and checks that the job ended within a bound
# (a hang fails the test) with the expected output: run_fault_test.sh MODE NP BINARY.
set -u
mode="$1"
np="$2"
binary="$3"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# Bazel's gtest hooks name one file for the whole test; every rank would race on it.
unset TEST_PREMATURE_EXIT_FILE XML_OUTPUT_FILE
export TMPDIR="${TEST_TMPDIR:-${TMPDIR:-/tmp}}"
log="$TMPDIR/fault_$mode.log"
bound=30  # seconds; the collectives time out after 2 s (10 s for exit_early)
start=$(date +%s)
timeout 120 mpirun --oversubscribe -np "$np" --mca btl self,vader,tcp \
  --mca btl_tcp_if_include lo --mca oob_tcp_if_include lo "$binary" "$mode" >"$log" 2>&1
rc=$?
elapsed=$(( $(date +%s) - start ))
cat "$log"
echo "mode $mode: mpirun exited with $rc after ${elapsed}s"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
(( elapsed <= bound )) || fail "the job took ${elapsed}s, more than ${bound}s"
case "$mode" in
  straggler_setup|straggler_late)
    grep -q "FAULT TEST OK" "$log" || fail "the waiting ranks did not all see the expected error"
    n=$(grep -c "expected error: DEADLINE_EXCEEDED" "$log")
    (( n == np - 1 )) || fail "$n of $((np - 1)) waiting ranks reported DeadlineExceeded"
    ;;
  abort_job)
    (( rc != 0 )) || fail "mpirun exited with 0 although the job was aborted"
    grep -q "DEADLINE_EXCEEDED: all_reduce over group \[" "$log" || fail "no DeadlineExceeded error"
    grep -q "aborting the MPI job" "$log" || fail "no rank aborted the job"
    ;;
  exit_early)
    (( rc != 0 )) || fail "mpirun exited with 0 although a rank died"
    ;;
esac
(( failures == 0 ))
