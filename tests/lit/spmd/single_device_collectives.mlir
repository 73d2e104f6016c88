// RUN: tessel-opt %s -split-input-file --tessel-partition | FileCheck %s

tessel.mesh @mesh = <["x"=1]>

// On a mesh of one device a contracting split needs no all_reduce: the collective over a
// group of one folds to its operand.
// CHECK-LABEL: func @dot_on_one_device
// CHECK-NOT: tessel.all_reduce
// CHECK: %[[D:.*]] = hlo.dot_general
// CHECK-NEXT: return %[[D]]
func.func @dot_on_one_device(
    %a: tensor<2x8xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {"x"}]>},
    %b: tensor<8x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<2x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}]>}) {
  %0 = hlo.dot_general %a, %b, lhs_contract = [1], rhs_contract = [0]
      {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{}, {}]>]>}
      : (tensor<2x8xf32>, tensor<8x6xf32>) -> tensor<2x6xf32>
  return %0 : tensor<2x6xf32>
}

// -----

tessel.mesh @mesh = <["x"=1, "y"=2]>

// Only the axis of one device folds: the all_reduce over "y" stays.
// CHECK-LABEL: func @dot_on_two_axes
// CHECK: tessel.all_reduce {{.*}} over @mesh ["y"]
// CHECK-NOT: tessel.all_reduce
func.func @dot_on_two_axes(
    %a: tensor<2x8xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {"y"}]>},
    %b: tensor<8x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"y"}, {}]>})
    -> (tensor<2x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}]>}) {
  %0 = hlo.dot_general %a, %b, lhs_contract = [1], rhs_contract = [0]
      {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{}, {}]>]>}
      : (tensor<2x8xf32>, tensor<8x6xf32>) -> tensor<2x6xf32>
  return %0 : tensor<2x6xf32>
}
