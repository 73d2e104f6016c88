// Malformed input gets a located diagnostic and a non-zero exit, never a crash.
// RUN: split-file %s %t
// RUN: not tessel-opt %t/syntax.mlir 2>&1 | FileCheck %s --check-prefix=SYNTAX
// RUN: not tessel-opt %t/verifier.mlir 2>&1 | FileCheck %s --check-prefix=VERIFIER
// RUN: not tessel-opt %t/unknown_op.mlir 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not tessel-opt %t/sharding.mlir 2>&1 | FileCheck %s --check-prefix=SHARDING

//--- syntax.mlir
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = hlo.add %x, : tensor<4xf32>
  return %0 : tensor<4xf32>
}
// SYNTAX: syntax.mlir:2:19: error: expected SSA operand

//--- verifier.mlir
func.func @f(%x: tensor<4x3xf32>) -> tensor<3x5xf32> {
  %0 = hlo.transpose %x, permutation = [1, 1] : (tensor<4x3xf32>) -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}
// VERIFIER: verifier.mlir:2:8: error: 'hlo.transpose' op permutation: dimension 1 appears twice

//--- unknown_op.mlir
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = hlo.frobnicate %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
// UNKNOWN: unknown_op.mlir:2:8: error: custom op 'hlo.frobnicate' is unknown

//--- sharding.mlir
tessel.mesh @mesh = <["data"=4, "model"=2]>
func.func @f(%x: tensor<8xf32>, %w: tensor<64x32xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {"modle"}]>}) -> tensor<64x32xf32> {
  return %w : tensor<64x32xf32>
}
// The diagnostic points at the argument whose sharding is wrong.
// SHARDING: sharding.mlir:2:33: error: 'func.func' op argument 1: axis "modle" is not in the mesh
