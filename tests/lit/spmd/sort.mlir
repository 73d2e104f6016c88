// RUN: tessel-opt %s -split-input-file --tessel-partition | FileCheck %s

tessel.mesh @mesh = <["x"=2, "y"=2]>

// Sorting along an unsplit dimension with the other split: purely local.
// CHECK-LABEL: func @local
// CHECK-NOT: tessel.all_gather
// CHECK: hlo.sort(%arg0) dimension = 1 : tensor<4x6xf32>
func.func @local(%a: tensor<8x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<8x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>}) {
  %0 = hlo.sort(%a) dimension = 1 {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x6xf32> comparator {
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %c = hlo.compare LT, %x, %y : tensor<f32>
    hlo.return %c : tensor<i1>
  }
  return %0 : tensor<8x6xf32>
}

// -----

tessel.mesh @mesh = <["x"=2, "y"=2]>

// Sorting along a split dimension: only that dimension is gathered ("y"); dim 0 keeps its
// split, and the sorted rows are cut back to their layout locally.
// CHECK-LABEL: func @split_sort_dim
// CHECK: tessel.all_gather %arg0 over @mesh ["y"] dim = 1 : (tensor<4x3xf32>) -> tensor<4x6xf32>
// CHECK-NOT: tessel.all_gather
// CHECK: hlo.sort(%{{.*}}) dimension = 1 : tensor<4x6xf32>
// CHECK: hlo.dynamic_slice {{.*}} sizes = [4, 3] : (tensor<4x6xf32>, tensor<i32>, tensor<i32>) -> tensor<4x3xf32>
func.func @split_sort_dim(%a: tensor<8x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {"y"}]>})
    -> (tensor<8x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {"y"}]>}) {
  %0 = hlo.sort(%a) dimension = 1 {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<8x6xf32> comparator {
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %c = hlo.compare LT, %x, %y : tensor<f32>
    hlo.return %c : tensor<i1>
  }
  return %0 : tensor<8x6xf32>
}

// -----

tessel.mesh @mesh = <["x"=4]>

// Sorting along a dimension split 4 ways while the other is unsplit: the split moves to the
// other dimension (all_to_all), every device sorts its columns whole, and it moves back:
// 2 x 3/4 of the shard sent, where gathering the sorted dimension would send 3 shards and
// sort on every device alike.
// CHECK-LABEL: func @moved_sort_dim
// CHECK: %[[T:.*]] = tessel.all_to_all %arg0 over @mesh ["x"] split_dim = 0 concat_dim = 1 : (tensor<8x2xf32>) -> tensor<2x8xf32>
// CHECK: %[[S:.*]] = hlo.sort(%[[T]]) dimension = 1 : tensor<2x8xf32>
// CHECK: tessel.all_to_all %[[S]] over @mesh ["x"] split_dim = 1 concat_dim = 0 : (tensor<2x8xf32>) -> tensor<8x2xf32>
// CHECK-NOT: tessel.all_gather
func.func @moved_sort_dim(%a: tensor<8x8xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {"x"}]>})
    -> (tensor<8x8xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {"x"}]>}) {
  %0 = hlo.sort(%a) dimension = 1 {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{}, {"x"}]>]>} : tensor<8x8xf32> comparator {
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %c = hlo.compare LT, %x, %y : tensor<f32>
    hlo.return %c : tensor<i1>
  }
  return %0 : tensor<8x8xf32>
}
