// RUN: tessel-opt %s -split-input-file --tessel-partition | FileCheck %s

// A split moving from one dimension to another is one all_to_all, no gather.

tessel.mesh @mesh = <["x"=4]>

// CHECK-LABEL: func @move
// CHECK-NOT: tessel.all_gather
// CHECK: tessel.all_to_all %arg0 over @mesh ["x"] split_dim = 1 concat_dim = 0 : (tensor<2x12xf32>) -> tensor<8x3xf32>
// CHECK-NEXT: return
func.func @move(%a: tensor<8x12xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<8x12xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {"x"}]>}) {
  return %a : tensor<8x12xf32>
}

// -----

tessel.mesh @mesh = <["x"=4]>

// Uneven both ways: the target dim is padded to a multiple of the group (5 -> 8) first, and
// the concatenated padding of the source dim (8 -> 7) is sliced off after.
// CHECK-LABEL: func @uneven
// CHECK-NOT: tessel.all_gather
// CHECK: hlo.pad %arg0, {{.*}} high = [0, 3], {{.*}} -> tensor<2x8xf32>
// CHECK: tessel.all_to_all {{.*}} over @mesh ["x"] split_dim = 1 concat_dim = 0 : (tensor<2x8xf32>) -> tensor<8x2xf32>
// CHECK: hlo.slice {{.*}} [0:7, 0:2] : (tensor<8x2xf32>) -> tensor<7x2xf32>
func.func @uneven(%a: tensor<7x5xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<7x5xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {"x"}]>}) {
  return %a : tensor<7x5xf32>
}

// -----

tessel.mesh @mesh = <["x"=2, "y"=3]>

// Only the minor axis of a dimension moves: the all_to_all runs over "y" alone, within the
// groups that share an "x" coordinate.
// CHECK-LABEL: func @minor
// CHECK-NOT: tessel.all_gather
// CHECK: tessel.all_to_all %arg0 over @mesh ["y"] split_dim = 1 concat_dim = 0 : (tensor<2x6xf32>) -> tensor<6x2xf32>
func.func @minor(%a: tensor<12x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x", "y"}, {}]>})
    -> (tensor<12x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {"y"}]>}) {
  return %a : tensor<12x6xf32>
}

// -----

tessel.mesh @mesh = <["x"=2, "y"=3]>

// On a subgroup: "x" keeps splitting dim 1 and "y" joins it as its minor axis.
// CHECK-LABEL: func @subgroup
// CHECK-NOT: tessel.all_gather
// CHECK: tessel.all_to_all %arg0 over @mesh ["y"] split_dim = 1 concat_dim = 0 : (tensor<2x6xf32>) -> tensor<6x2xf32>
func.func @subgroup(%a: tensor<6x12xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"y"}, {"x"}]>})
    -> (tensor<6x12xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {"x", "y"}]>}) {
  return %a : tensor<6x12xf32>
}

// -----

tessel.mesh @mesh = <["x"=2, "y"=3]>

// Two moves, one per axis, over a rank-3 tensor; dim 0 (4 rows) is padded to 6 for the
// 3-way split of the second.
// CHECK-LABEL: func @two_moves
// CHECK-NOT: tessel.all_gather
// CHECK: tessel.all_to_all %arg0 over @mesh ["x"] split_dim = 2 concat_dim = 0 : (tensor<2x3x6xf32>) -> tensor<4x3x3xf32>
// CHECK: hlo.pad {{.*}} high = [2, 0, 0], {{.*}} -> tensor<6x3x3xf32>
// CHECK: tessel.all_to_all {{.*}} over @mesh ["y"] split_dim = 0 concat_dim = 1 : (tensor<6x3x3xf32>) -> tensor<2x9x3xf32>
func.func @two_moves(%a: tensor<4x9x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {"y"}, {}]>})
    -> (tensor<4x9x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"y"}, {}, {"x"}]>}) {
  return %a : tensor<4x9x6xf32>
}

// -----

tessel.mesh @mesh = <["x"=2, "y"=3]>

// Not exact: 10 rows in 6 shards of 2 do not regroup into 2 shards of 5, so the planner
// gathers and slices instead.
// CHECK-LABEL: func @inexact
// CHECK-NOT: tessel.all_to_all
// CHECK: tessel.all_gather %arg0 over @mesh ["x", "y"] dim = 0 : (tensor<2x12xf32>) -> tensor<12x12xf32>
// CHECK: hlo.dynamic_slice {{.*}} sizes = [5, 4]
func.func @inexact(%a: tensor<10x12xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x", "y"}, {}]>})
    -> (tensor<10x12xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {"y"}]>}) {
  return %a : tensor<10x12xf32>
}
