// RUN: tessel-opt %s -split-input-file --tessel-partition | FileCheck %s

tessel.mesh @mesh = <["x"=4]>

// Along the split dimension: output shard i (rows [4i, 4i+4)) takes the window
// [4i - o, 4i - o + 4) of each operand (offset o) from its neighbours, and a select keeps
// the second operand's window where it lies (local rows [8 - 4i, 16 - 4i)).
// CHECK-LABEL: func @along_split
// CHECK-NOT: tessel.all_gather
// CHECK-DAG: tessel.collective_permute %arg0 over @mesh ["x"] shift = -1 : tensor<2x6xf32>
// CHECK-DAG: tessel.collective_permute %arg0 over @mesh ["x"] shift = -2 : tensor<2x6xf32>
// CHECK: %[[A:.*]] = hlo.dynamic_slice {{.*}} sizes = [4, 6] : (tensor<6x6xf32>, tensor<i32>, tensor<i32>) -> tensor<4x6xf32>
// CHECK-DAG: tessel.collective_permute %arg1 over @mesh ["x"] shift = 2 : tensor<2x6xf32>
// CHECK-DAG: tessel.collective_permute %arg1 over @mesh ["x"] shift = 1 : tensor<2x6xf32>
// CHECK: %[[B:.*]] = hlo.dynamic_slice {{.*}} sizes = [4, 6] : (tensor<6x6xf32>, tensor<i32>, tensor<i32>) -> tensor<4x6xf32>
// CHECK: hlo.constant dense<[8, 4, 0, -4]> : tensor<4xi32>
// CHECK: hlo.constant dense<[16, 12, 8, 4]> : tensor<4xi32>
// CHECK: hlo.select {{.*}}, %[[B]], %[[A]] : tensor<4x6xi1>, tensor<4x6xf32>
func.func @along_split(%a: tensor<8x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>},
                       %b: tensor<8x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<16x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>}) {
  %0 = hlo.concatenate %a, %b, dim = 0 {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x6xf32>, tensor<8x6xf32>) -> tensor<16x6xf32>
  return %0 : tensor<16x6xf32>
}

// -----

tessel.mesh @mesh = <["x"=4]>

// Along an unsplit dimension: local.
// CHECK-LABEL: func @along_unsplit
// CHECK-NOT: tessel.all_gather
// CHECK-NOT: tessel.collective_permute
// CHECK: hlo.concatenate %arg0, %arg1, dim = 1 : (tensor<2x6xf32>, tensor<2x2xf32>) -> tensor<2x8xf32>
func.func @along_unsplit(%a: tensor<8x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>},
                         %b: tensor<8x2xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<8x8xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>}) {
  %0 = hlo.concatenate %a, %b, dim = 1 {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x6xf32>, tensor<8x2xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

tessel.mesh @mesh = <["x"=4]>

// A small operand far from most shards: its window would need three neighbour exchanges,
// more than gathering it, so the operands are gathered along the dimension, concatenated
// whole and cut locally.
// CHECK-LABEL: func @gathered
// CHECK: tessel.all_gather %arg0 over @mesh ["x"] dim = 0 : (tensor<1x6xf32>) -> tensor<4x6xf32>
// CHECK: tessel.all_gather %arg1 over @mesh ["x"] dim = 0 : (tensor<4x6xf32>) -> tensor<16x6xf32>
// CHECK: hlo.concatenate {{.*}} dim = 0 : (tensor<4x6xf32>, tensor<16x6xf32>) -> tensor<20x6xf32>
// CHECK: hlo.dynamic_slice {{.*}} sizes = [5, 6]
func.func @gathered(%a: tensor<4x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>},
                    %b: tensor<16x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<20x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>}) {
  %0 = hlo.concatenate %a, %b, dim = 0 {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<4x6xf32>, tensor<16x6xf32>) -> tensor<20x6xf32>
  return %0 : tensor<20x6xf32>
}
