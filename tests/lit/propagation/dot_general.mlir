// RUN: tessel-opt %s --tessel-propagate | FileCheck %s

tessel.mesh @mesh = <["data"=4, "model"=2]>

// Megatron MLP: batch over "data", the hidden dimension over "model" (columns of w1, rows
// of w2). The hidden activations get both; the contraction of the second dot over "model"
// leaves its result split over "data" only (the partitioner all-reduces over "model").
// CHECK-LABEL: func @megatron_mlp
func.func @megatron_mlp(
    %x: tensor<16x64xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>},
    %w1: tensor<64x256xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {"model"}]>},
    %w2: tensor<256x64xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"model"}, {}]>})
    -> tensor<16x64xf32> {
  // CHECK: hlo.dot_general {{.*}}[<@mesh, [{"data"}, {"model"}]>]
  %h = hlo.dot_general %x, %w1, lhs_contract = [1], rhs_contract = [0]
      : (tensor<16x64xf32>, tensor<64x256xf32>) -> tensor<16x256xf32>
  %zero = hlo.constant dense<0.0> : tensor<f32>
  // The broadcast of a scalar takes its users' sharding.
  // CHECK: hlo.broadcast_in_dim {{.*}}[<@mesh, [{"data"}, {"model"}]>]
  %zeros = hlo.broadcast_in_dim %zero, dims = [] : (tensor<f32>) -> tensor<16x256xf32>
  // CHECK: hlo.max {{.*}}[<@mesh, [{"data"}, {"model"}]>]
  %relu = hlo.max %h, %zeros : tensor<16x256xf32>
  // CHECK: hlo.dot_general {{.*}}[<@mesh, [{"data"}, {}]>]
  %y = hlo.dot_general %relu, %w2, lhs_contract = [1], rhs_contract = [0]
      : (tensor<16x256xf32>, tensor<256x64xf32>) -> tensor<16x64xf32>
  return %y : tensor<16x64xf32>
}

// Both operands want "data" for different result dims: the larger operand (lhs, 64x8)
// keeps it; the smaller one will be resharded.
// CHECK-LABEL: func @conflict_larger_operand_wins
func.func @conflict_larger_operand_wins(
    %a: tensor<64x8xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>},
    %b: tensor<8x16xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {"data"}]>})
    -> tensor<64x16xf32> {
  // CHECK: hlo.dot_general {{.*}}[<@mesh, [{"data"}, {}]>]
  %0 = hlo.dot_general %a, %b, lhs_contract = [1], rhs_contract = [0]
      : (tensor<64x8xf32>, tensor<8x16xf32>) -> tensor<64x16xf32>
  return %0 : tensor<64x16xf32>
}

// Batch and contracting dims travel between the operands; the result has the batch split.
// CHECK-LABEL: func @batch_and_contracting
// CHECK-SAME: %arg1: tensor<4x16x8xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"model"}, {"data"}, {}]>}
func.func @batch_and_contracting(
    %a: tensor<4x8x16xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"model"}, {}, {"data"}]>},
    %b: tensor<4x16x8xf32>) -> tensor<4x8x8xf32> {
  // CHECK: hlo.dot_general {{.*}}[<@mesh, [{"model"}, {}, {}]>]
  %0 = hlo.dot_general %a, %b, lhs_batch = [0], rhs_batch = [0], lhs_contract = [2], rhs_contract = [1]
      : (tensor<4x8x16xf32>, tensor<4x16x8xf32>) -> tensor<4x8x8xf32>
  return %0 : tensor<4x8x8xf32>
}
