// RUN: tessel-opt %s -split-input-file --tessel-partition | FileCheck %s

tessel.mesh @mesh = <["x"=2, "y"=2]>

// Merging [8, 6] -> [48] with the split on the major factor (8, divided by 2): local.
// CHECK-LABEL: func @merge
// CHECK-NEXT: hlo.reshape %arg0 : (tensor<4x6xf32>) -> tensor<24xf32>
// CHECK-NEXT: return
func.func @merge(%a: tensor<8x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<48xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}]>}) {
  %0 = hlo.reshape %a {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{"x"}]>]>} : (tensor<8x6xf32>) -> tensor<48xf32>
  return %0 : tensor<48xf32>
}

// -----

tessel.mesh @mesh = <["x"=2, "y"=2]>

// Splitting [48] -> [8, 6] over both axes (4 divides 8): local.
// CHECK-LABEL: func @split
// CHECK-NEXT: hlo.reshape %arg0 : (tensor<12xf32>) -> tensor<2x6xf32>
// CHECK-NEXT: return
func.func @split(%a: tensor<48xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x", "y"}]>})
    -> (tensor<8x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x", "y"}, {}]>}) {
  %0 = hlo.reshape %a {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{"x", "y"}, {}]>]>} : (tensor<48xf32>) -> tensor<8x6xf32>
  return %0 : tensor<8x6xf32>
}

// -----

tessel.mesh @mesh = <["x"=2, "y"=2]>

// The operand is split on its minor dimension: an all_to_all moves the split to dim 0,
// then the reshape is local.
// CHECK-LABEL: func @cross
// CHECK-NEXT: %[[M:.*]] = tessel.all_to_all %arg0 over @mesh ["x"] split_dim = 0 concat_dim = 1 : (tensor<8x3xf32>) -> tensor<4x6xf32>
// CHECK-NEXT: hlo.reshape %[[M]] : (tensor<4x6xf32>) -> tensor<24xf32>
func.func @cross(%a: tensor<8x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {"x"}]>})
    -> (tensor<48xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}]>}) {
  %0 = hlo.reshape %a {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{"x"}]>]>} : (tensor<8x6xf32>) -> tensor<48xf32>
  return %0 : tensor<48xf32>
}

// -----

tessel.mesh @mesh = <["x"=2, "y"=2]>

// The result wants a split the operand cannot give (4 ways on [2, 16] -> [32], the major
// factor 2): the split on the major factor is kept where it maps, and the result is computed
// with it and cut locally.
// CHECK-LABEL: func @partial
// CHECK: %[[R:.*]] = hlo.reshape %arg0 : (tensor<1x16xf32>) -> tensor<16xf32>
// CHECK: hlo.dynamic_slice %[[R]], {{.*}} sizes = [8] : (tensor<16xf32>, tensor<i32>) -> tensor<8xf32>
func.func @partial(%a: tensor<2x16xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<32xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x", "y"}]>}) {
  %0 = hlo.reshape %a {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{"x", "y"}]>]>} : (tensor<2x16xf32>) -> tensor<32xf32>
  return %0 : tensor<32xf32>
}
