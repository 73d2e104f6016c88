#!/bin/bash
# `tessel run --backend=mpi` on a program `tessel partition` wrote: the MLP example is
# partitioned to MLIR and to HLO text, and each file runs under mpirun on global inputs with
# --check --reference=SOURCE, on 8 devices over 2 ranks and on the uneven 3 x 2 mesh over 3
# ranks.  tessel_mpi_partitioned_file_test.sh TESSEL MLP_MLIR
set -u
tessel="$1"
program="$2"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
work="$(mktemp -d "${TEST_TMPDIR:-/tmp}/partitioned_file.XXXXXX")"
export TMPDIR="$work"
fail() { echo "FAILED: $*"; rm -rf "$work"; exit 1; }

# run_on NP FILE ASSIGNMENT: the MPI run of FILE must pass its check against the source.
run_on() {
  local output
  output="$(timeout 300 mpirun --oversubscribe -np "$1" --mca btl self,vader,tcp \
    --mca btl_tcp_if_include lo --mca oob_tcp_if_include lo \
    "$tessel" run --backend=mpi --device_assignment="$3" --check --reference="$program" \
    --print_limit=0 "$2" 2>&1)" || fail "mpirun -np $1 on $2 failed: $output"
  echo "$output"
  grep -q "check: ran .* on one device" <<<"$output" || fail "$2: no reference run"
  grep -q "check: result 0 f32\[16,64\] matches" <<<"$output" || fail "$2: no match"
}

"$tessel" partition "$program" -o "$work/part.mlir" || fail "partition to MLIR"
"$tessel" partition "$program" -o "$work/part.hlo" || fail "partition to HLO"
"$tessel" partition "$program" --mesh=data=3,model=2 -o "$work/part6.mlir" || fail "partition 3x2"
"$tessel" partition "$program" --mesh=data=3,model=2 -o "$work/part6.hlo" || fail "partition 3x2 HLO"
run_on 2 "$work/part.mlir" data:local,model:mpi
# HLO names the axes of the mesh it derives from the shardings and groups.
run_on 2 "$work/part.hlo" axis_0:local,axis_1:mpi
run_on 3 "$work/part6.mlir" data:mpi,model:local
run_on 3 "$work/part6.hlo" axis_0:mpi,axis_1:local
# Without --reference the check has nothing to compare with, on every rank alike.
output="$(timeout 300 mpirun --oversubscribe -np 2 --mca btl self,vader,tcp \
  --mca btl_tcp_if_include lo --mca oob_tcp_if_include lo \
  "$tessel" run --backend=mpi --device_assignment=data:local,model:mpi --check \
  "$work/part.mlir" 2>&1)" && fail "--check without --reference passed"
grep -q "is already partitioned: --check needs --reference=SOURCE" <<<"$output" \
  || fail "no message for --check without --reference: $output"
# A mark whose partition count is not the mesh's device count is refused on every rank.
sed 's/num_partitions = 8 : i64/num_partitions = 4 : i64/' "$work/part.mlir" > "$work/wrong_count.mlir"
grep -q "num_partitions = 4 : i64" "$work/wrong_count.mlir" || fail "no mark to edit in part.mlir"
output="$(timeout 300 mpirun --oversubscribe -np 2 --mca btl self,vader,tcp \
  --mca btl_tcp_if_include lo --mca oob_tcp_if_include lo \
  "$tessel" run --backend=mpi --device_assignment=data:local,model:mpi \
  "$work/wrong_count.mlir" 2>&1)" && fail "a mark for 4 devices ran on a mesh of 8"
grep -q "wrong_count.mlir was partitioned for 4 devices, but its mesh has 8" <<<"$output" \
  || fail "no message for a mark that does not fit the mesh: $output"
rm -rf "$work"
echo "PASSED"
