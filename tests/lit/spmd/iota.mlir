// RUN: tessel-opt %s -split-input-file --tessel-partition | FileCheck %s

tessel.mesh @mesh = <["x"=3]>

// Split along its counting dimension (7 over 3: shards of 3, the last one padded): the local
// iota counts from 0, plus the shard's offset 3 * index read from a table.
// CHECK-LABEL: func @iota_counting_dim
// CHECK: %[[IOTA:.*]] = hlo.iota dim = 0 : tensor<3x4xf32>
// CHECK: %[[TABLE:.*]] = hlo.constant dense<[0, 3, 6]> : tensor<3xi32>
// CHECK: %[[ENTRY:.*]] = hlo.dynamic_slice %[[TABLE]]
// CHECK: %[[OFFSET:.*]] = hlo.reshape %[[ENTRY]] : (tensor<1xi32>) -> tensor<i32>
// CHECK: %[[F:.*]] = hlo.convert %[[OFFSET]] : (tensor<i32>) -> tensor<f32>
// CHECK: %[[B:.*]] = hlo.broadcast_in_dim %[[F]], dims = [] : (tensor<f32>) -> tensor<3x4xf32>
// CHECK: %[[SUM:.*]] = hlo.add %[[IOTA]], %[[B]] : tensor<3x4xf32>
// CHECK: return %[[SUM]] : tensor<3x4xf32>
func.func @iota_counting_dim() -> (tensor<7x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>}) {
  %0 = hlo.iota dim = 0 {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<7x4xf32>
  return %0 : tensor<7x4xf32>
}

// -----

tessel.mesh @mesh = <["x"=2]>

// Split along another dimension: every shard counts the same way; no offset.
// CHECK-LABEL: func @iota_other_dim
// CHECK-NOT: tessel.partition_id
// CHECK: %[[IOTA:.*]] = hlo.iota dim = 1 : tensor<2x4xi32>
// CHECK-NEXT: return %[[IOTA]] : tensor<2x4xi32>
func.func @iota_other_dim() -> (tensor<4x4xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>}) {
  %0 = hlo.iota dim = 1 {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<4x4xi32>
  return %0 : tensor<4x4xi32>
}
