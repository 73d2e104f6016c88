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

// An uneven split (6 rows over 4): the partial sums are zero-padded to 8 rows, so each
// device receives its padded shard of 2 rows; still no all_reduce.
tessel.mesh @mesh = <["x"=4, "y"=2]>
// CHECK-LABEL: func.func @unreduced_to_uneven_split
// CHECK: %[[ZERO:.*]] = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK: %[[PADDED:.*]] = hlo.pad %arg0, %[[ZERO]], low = [0, 0], high = [2, 0], interior = [0, 0] : (tensor<6x6xf32>, tensor<f32>) -> tensor<8x6xf32>
// CHECK: tessel.reduce_scatter %[[PADDED]] over @mesh ["x"] dim = 0 kind = sum : (tensor<8x6xf32>) -> tensor<2x6xf32>
// CHECK-NOT: tessel.all_reduce
func.func @unreduced_to_uneven_split(
    %a: tensor<6x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}], unreduced={"x"}>})
    -> tensor<6x6xf32> {
  %0 = tessel.sharding_constraint %a <@mesh, [{"x"}, {}]> : tensor<6x6xf32>
  return %0 : tensor<6x6xf32>
}
