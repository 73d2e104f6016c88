// RUN: tessel-opt %s -split-input-file --tessel-partition | FileCheck %s

tessel.mesh @mesh = <["x"=4]>

// Evenly split: shard i takes shard 3 - i (one permute), then reverses locally; the unsplit
// reversed dimension is reversed locally.
// CHECK-LABEL: func @even
// CHECK-NOT: tessel.all_gather
// CHECK: %[[P:.*]] = tessel.collective_permute %arg0 over @mesh ["x"] pairs = {{\[}}[3, 0], [2, 1], [1, 2], [0, 3]] : tensor<2x6xf32>
// CHECK: %[[R:.*]] = hlo.reverse %[[P]], dims = [0] : tensor<2x6xf32>
// CHECK: hlo.reverse %[[R]], dims = [1] : tensor<2x6xf32>
func.func @even(%a: tensor<8x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<8x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>}) {
  %0 = hlo.reverse %a, dims = [0, 1] {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x6xf32>
  return %0 : tensor<8x6xf32>
}

// -----

tessel.mesh @mesh = <["x"=3]>

// Unevenly split (7 rows in shards of 3, 2 padding rows): the reversed padded rows are
// shifted by 2, so shard i is made of the reversed shards 2 - i and 1 - i: two permutes,
// concatenate, reverse, cut rows [2, 5).
// CHECK-LABEL: func @uneven
// CHECK-NOT: tessel.all_gather
// CHECK: %[[A:.*]] = tessel.collective_permute %arg0 over @mesh ["x"] pairs = {{\[}}[2, 0], [1, 1], [0, 2]] : tensor<3x6xi32>
// CHECK: %[[B:.*]] = tessel.collective_permute %arg0 over @mesh ["x"] pairs = {{\[}}[1, 0], [0, 1]] : tensor<3x6xi32>
// CHECK: %[[C:.*]] = hlo.concatenate %[[B]], %[[A]], dim = 0 : (tensor<3x6xi32>, tensor<3x6xi32>) -> tensor<6x6xi32>
// CHECK: %[[R:.*]] = hlo.reverse %[[C]], dims = [0] : tensor<6x6xi32>
// CHECK: hlo.slice %[[R]] [2:5, 0:6] : (tensor<6x6xi32>) -> tensor<3x6xi32>
func.func @uneven(%a: tensor<7x6xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<7x6xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>}) {
  %0 = hlo.reverse %a, dims = [0] {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<7x6xi32>
  return %0 : tensor<7x6xi32>
}
