// RUN: tessel-opt %s --tessel-propagate --tessel-partition -split-input-file | FileCheck %s

tessel.mesh @mesh = <["x"=4]>

// Fully manual: the operand is cut to its in_sharding and the body is inlined as it is,
// its collective included; the result is the body's local value under out_shardings.
// CHECK-LABEL: func @fully_manual
// CHECK-SAME: -> (tensor<2x6xf32>
// CHECK: %[[LA:.*]] = hlo.dynamic_slice %arg0, {{.*}} : (tensor<8x6xf32>, tensor<i32>, tensor<i32>) -> tensor<2x6xf32>
// CHECK-NEXT: %[[S:.*]] = hlo.add %[[LA]], %[[LA]] : tensor<2x6xf32>
// CHECK-NEXT: %[[T:.*]] = tessel.all_reduce %[[S]] over @mesh ["x"] kind = sum : tensor<2x6xf32>
// CHECK-NEXT: return %[[T]] : tensor<2x6xf32>
func.func @fully_manual(%a: tensor<8x6xf32>) -> tensor<8x6xf32> {
  %r = tessel.manual_computation(%a) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x"} (%la: tensor<2x6xf32>) {
    %s = hlo.add %la, %la : tensor<2x6xf32>
    %t = tessel.all_reduce %s over @mesh ["x"] kind = sum : tensor<2x6xf32>
    tessel.return %t : tensor<2x6xf32>
  } : (tensor<8x6xf32>) -> tensor<8x6xf32>
  return %r : tensor<8x6xf32>
}

// -----

tessel.mesh @mesh = <["x"=2, "y"=2]>

// Manual over "x" only: inside, the body's values are split further over "y" as the
// in_sharding says; the body's ops (which carry no shardings) work on whole values along
// "y", and the result is cut back to the out_sharding's "y" part.
// CHECK-LABEL: func @partially_manual
// CHECK-SAME: -> (tensor<4x3xf32>
// CHECK: hlo.constant dense<[0, 2, 4, 6]> : tensor<4xi32>
// CHECK: %[[PIECE:.*]] = hlo.dynamic_slice %arg0, {{.*}} -> tensor<2x6xf32>
// CHECK-NEXT: %[[LA:.*]] = tessel.all_gather %[[PIECE]] over @mesh ["y"] dim = 0 : (tensor<2x6xf32>) -> tensor<4x6xf32>
// CHECK-NEXT: %[[S:.*]] = hlo.exp %[[LA]] : tensor<4x6xf32>
// CHECK: hlo.constant dense<[0, 3, 0, 3]> : tensor<4xi32>
// CHECK: %[[OUT:.*]] = hlo.dynamic_slice %[[S]], {{.*}} -> tensor<4x3xf32>
// CHECK-NEXT: return %[[OUT]] : tensor<4x3xf32>
func.func @partially_manual(%a: tensor<8x6xf32>) -> tensor<8x6xf32> {
  %r = tessel.manual_computation(%a) in_shardings=[<@mesh, [{"x", "y"}, {}]>] out_shardings=[<@mesh, [{"x"}, {"y"}]>] manual_axes={"x"} (%la: tensor<4x6xf32>) {
    %s = hlo.exp %la : tensor<4x6xf32>
    tessel.return %s : tensor<4x6xf32>
  } : (tensor<8x6xf32>) -> tensor<8x6xf32>
  return %r : tensor<8x6xf32>
}

// -----

tessel.mesh @mesh = <["x"=2, "y"=2]>

// 6 rows over manual "x" leaves 3 per manual shard, which "y" does not divide: the
// operand is split over "x" only, and the body sees whole rows along "y".
// CHECK-LABEL: func @manual_shard_not_divisible
// CHECK-SAME: -> (tensor<3x4xf32>
// CHECK: tessel.all_gather %arg0 over @mesh ["x", "y"] dim = 0 : (tensor<2x4xf32>) -> tensor<8x4xf32>
// CHECK: hlo.constant dense<[0, 0, 3, 3]> : tensor<4xi32>
// CHECK: %[[LA:.*]] = hlo.dynamic_slice %{{.*}} -> tensor<3x4xf32>
// CHECK-NEXT: %[[S:.*]] = hlo.neg %[[LA]] : tensor<3x4xf32>
// CHECK-NEXT: return %[[S]] : tensor<3x4xf32>
func.func @manual_shard_not_divisible(%a: tensor<6x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x", "y"}, {}]>}) -> tensor<6x4xf32> {
  %r = tessel.manual_computation(%a) in_shardings=[<@mesh, [{"x", "y"}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x"} (%la: tensor<3x4xf32>) {
    %s = hlo.neg %la : tensor<3x4xf32>
    tessel.return %s : tensor<3x4xf32>
  } : (tensor<6x4xf32>) -> tensor<6x4xf32>
  return %r : tensor<6x4xf32>
}

// -----

tessel.mesh @mesh = <["x"=4]>

// partition_id in the body is per-device code and stays as written.
// CHECK-LABEL: func @partition_id_in_body
// CHECK: %[[LA:.*]] = hlo.dynamic_slice %arg0, {{.*}} -> tensor<2xi32>
// CHECK-NEXT: %[[P:.*]] = tessel.partition_id : tensor<ui32>
// CHECK-NEXT: %[[C:.*]] = hlo.convert %[[P]] : (tensor<ui32>) -> tensor<i32>
// CHECK-NEXT: %[[B:.*]] = hlo.broadcast_in_dim %[[C]], dims = [] : (tensor<i32>) -> tensor<2xi32>
// CHECK-NEXT: %[[S:.*]] = hlo.add %[[LA]], %[[B]] : tensor<2xi32>
// CHECK-NEXT: return %[[S]] : tensor<2xi32>
func.func @partition_id_in_body(%a: tensor<8xi32>) -> tensor<8xi32> {
  %r = tessel.manual_computation(%a) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"} (%la: tensor<2xi32>) {
    %p = tessel.partition_id : tensor<ui32>
    %c = hlo.convert %p : (tensor<ui32>) -> tensor<i32>
    %b = hlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<2xi32>
    %s = hlo.add %la, %b : tensor<2xi32>
    tessel.return %s : tensor<2xi32>
  } : (tensor<8xi32>) -> tensor<8xi32>
  return %r : tensor<8xi32>
}
