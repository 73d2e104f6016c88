// RUN: tessel-opt %s --tessel-propagate --tessel-partition -split-input-file | FileCheck %s

// Partial sums over "x" constrained to a split over "x": one reduce_scatter, no all_reduce.
tessel.mesh @mesh = <["x"=4, "y"=2]>
// CHECK-LABEL: func.func @unreduced_to_split
// CHECK: tessel.reduce_scatter %arg0 over @mesh ["x"] dim = 0 kind = sum : (tensor<8x6xf32>) -> tensor<2x6xf32>
// CHECK-NOT: tessel.all_reduce
func.func @unreduced_to_split(
    %a: tensor<8x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}], unreduced={"x"}>})
    -> tensor<8x6xf32> {
  %0 = tessel.sharding_constraint %a <@mesh, [{"x"}, {}]> : tensor<8x6xf32>
  return %0 : tensor<8x6xf32>
}

// -----

// An uneven split (6 rows over 4) keeps the all_reduce and slices afterwards.
tessel.mesh @mesh = <["x"=4, "y"=2]>
// CHECK-LABEL: func.func @unreduced_to_uneven_split
// CHECK: tessel.all_reduce
// CHECK-NOT: tessel.reduce_scatter
func.func @unreduced_to_uneven_split(
    %a: tensor<6x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}], unreduced={"x"}>})
    -> tensor<6x6xf32> {
  %0 = tessel.sharding_constraint %a <@mesh, [{"x"}, {}]> : tensor<6x6xf32>
  return %0 : tensor<6x6xf32>
}
