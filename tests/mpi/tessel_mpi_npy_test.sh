#!/bin/bash
# `tessel run --backend=mpi --inputs=...`: writes the mlp example's arguments as .npy files
# (a program that returns its arguments, run with `tessel run --output_dir`), then runs the
# example on 2 ranks from those files with --check and --output_dir, and compares rank 0's
# saved result with the single-device run's.  tessel_mpi_npy_test.sh TESSEL MLP_MLIR
set -u
tessel="$1"
program="$2"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
work="$(mktemp -d "${TEST_TMPDIR:-/tmp}/npy.XXXXXX")"
export TMPDIR="$work"
fail() { echo "FAILED: $*"; rm -rf "$work"; exit 1; }

cat > "$work/args.mlir" <<'MLIR'
func.func @main(%x: tensor<16x64xf32>, %w1: tensor<64x256xf32>, %w2: tensor<256x64xf32>)
    -> (tensor<16x64xf32>, tensor<64x256xf32>, tensor<256x64xf32>) {
  return %x, %w1, %w2 : tensor<16x64xf32>, tensor<64x256xf32>, tensor<256x64xf32>
}
MLIR
"$tessel" run --seed=11 --print_limit=0 --output_dir="$work/args" "$work/args.mlir" \
  || fail "could not write the arguments"
inputs="$work/args/result_0.npy,$work/args/result_1.npy,$work/args/result_2.npy"

timeout 300 mpirun --oversubscribe -np 2 --mca btl self,vader,tcp \
  --mca btl_tcp_if_include lo --mca oob_tcp_if_include lo \
  "$tessel" run --backend=mpi --device_assignment=data:local,model:mpi --check \
  --inputs="$inputs" --output_dir="$work/mpi" "$program" || fail "the MPI run failed"
"$tessel" run --inputs="$inputs" --output_dir="$work/single" "$program" \
  || fail "the single-device run failed"
[[ -f "$work/mpi/result_0.npy" ]] || fail "rank 0 wrote no result_0.npy"
# Both files hold f32[16,64] with the same header; the partitioned sums may differ in the
# last bits, so compare sizes here and leave the values to --check above.
[[ $(stat -c %s "$work/mpi/result_0.npy") -eq $(stat -c %s "$work/single/result_0.npy") ]] \
  || fail "result_0.npy differs in size from the single-device run's"
rm -rf "$work"
echo "PASSED"
