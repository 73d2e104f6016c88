// RUN: tessel-opt %s -split-input-file --tessel-partition | FileCheck %s

tessel.mesh @mesh = <["x"=3]>

// 12 elements over 3 devices (4 each), window 3, stride 2, low padding 1: 6 windows, window
// o covering [2o - 1, 2o + 2), so neighbouring windows overlap and straddle shards. Shard i
// recomputes the 3 windows [2i, 2i + 2] that touch its elements (shard 2: [3, 5], the
// extra window 3 touching nothing it owns): their 3 source values (one from the right
// neighbour) and the 7 operand elements they read, [2*start - 1, 2*start + 6) (one from
// the left neighbour, two from the right). Shard 0's range starts in padding, which is
// never selected and so cannot be masked by a value: it runs its own variant, with the
// padding as the op's, chosen by an hlo.case on a partition_id table. Each shard then cuts
// its 4 elements out of the 7 at offset 4i - (2*start - 1).
// CHECK-LABEL: func @select_and_scatter_overlapping
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32> {{.*}}, %[[S:.*]]: tensor<2xf32> {{.*}}, %[[Z:.*]]: tensor<f32>) -> (tensor<4xf32>
// CHECK: %[[L:.*]] = hlo.slice %[[X]] [3:4] : (tensor<4xf32>) -> tensor<1xf32>
// CHECK: %[[LH:.*]] = tessel.collective_permute %[[L]] over @mesh ["x"] shift = 1 : tensor<1xf32>
// CHECK: %[[R:.*]] = hlo.slice %[[X]] [0:2] : (tensor<4xf32>) -> tensor<2xf32>
// CHECK: %[[RH:.*]] = tessel.collective_permute %[[R]] over @mesh ["x"] shift = -1 : tensor<2xf32>
// CHECK: %[[CAT:.*]] = hlo.concatenate %[[LH]], %[[X]], %[[RH]], dim = 0 : (tensor<1xf32>, tensor<4xf32>, tensor<2xf32>) -> tensor<7xf32>
// CHECK: %[[PAD:.*]] = hlo.pad %[[CAT]], %{{.*}}, low = [2], high = [0], interior = [0] : (tensor<7xf32>, tensor<f32>) -> tensor<9xf32>
// CHECK: hlo.constant dense<[2, 2, 0]> : tensor<3xi32>
// CHECK: %[[OPERAND:.*]] = hlo.dynamic_slice %[[PAD]], %{{.*}}, sizes = [7] : (tensor<9xf32>, tensor<i32>) -> tensor<7xf32>
// CHECK: %[[SR:.*]] = hlo.slice %[[S]] [0:1] : (tensor<2xf32>) -> tensor<1xf32>
// CHECK: %[[SH:.*]] = tessel.collective_permute %[[SR]] over @mesh ["x"] shift = -1 : tensor<1xf32>
// CHECK: %[[SCAT:.*]] = hlo.concatenate %[[S]], %[[SH]], dim = 0 : (tensor<2xf32>, tensor<1xf32>) -> tensor<3xf32>
// CHECK: hlo.constant dense<[1, 1, 0]> : tensor<3xi32>
// CHECK: %[[SOURCE:.*]] = hlo.dynamic_slice %{{.*}}, %{{.*}}, sizes = [3] : (tensor<4xf32>, tensor<i32>) -> tensor<3xf32>
// CHECK: hlo.constant dense<[0, 1, 1]> : tensor<3xi32>
// CHECK: %[[RESULT:.*]] = hlo.case %{{.*}} branches {
// CHECK: %[[IN:.*]] = hlo.slice %[[OPERAND]] [1:7] : (tensor<7xf32>) -> tensor<6xf32>
// CHECK: %[[V0:.*]] = hlo.select_and_scatter(%[[IN]], %[[SOURCE]], %[[Z]]) window_dimensions = [3], window_strides = [2], padding = {{\[}}[1, 0]] : (tensor<6xf32>, tensor<3xf32>, tensor<f32>) -> tensor<6xf32> select {
// CHECK: %[[P0:.*]] = hlo.pad %[[V0]], %[[Z]], low = [1], high = [0], interior = [0] : (tensor<6xf32>, tensor<f32>) -> tensor<7xf32>
// CHECK: hlo.return %[[P0]] : tensor<7xf32>
// CHECK: }, {
// CHECK: %[[V1:.*]] = hlo.select_and_scatter(%[[OPERAND]], %[[SOURCE]], %[[Z]]) window_dimensions = [3], window_strides = [2], padding = {{\[}}[0, 0]] : (tensor<7xf32>, tensor<3xf32>, tensor<f32>) -> tensor<7xf32> select {
// CHECK: hlo.return %[[V1]] : tensor<7xf32>
// CHECK: } : (tensor<i32>) -> tensor<7xf32>
// CHECK: hlo.constant dense<[1, 1, 3]> : tensor<3xi32>
// CHECK: %[[OWN:.*]] = hlo.dynamic_slice %[[RESULT]], %{{.*}}, sizes = [4] : (tensor<7xf32>, tensor<i32>) -> tensor<4xf32>
// CHECK: return %[[OWN]] : tensor<4xf32>
func.func @select_and_scatter_overlapping(%a: tensor<12xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}]>}, %src: tensor<6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}]>}, %z: tensor<f32>) -> (tensor<12xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}]>}) {
  %0 = hlo.select_and_scatter(%a, %src, %z) window_dimensions = [3], window_strides = [2], padding = [[1, 0]] {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{"x"}]>]>} : (tensor<12xf32>, tensor<6xf32>, tensor<f32>) -> tensor<12xf32> select {
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %p = hlo.compare GE, %x, %y : tensor<f32>
    hlo.return %p : tensor<i1>
  } scatter {
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = hlo.add %x, %y : tensor<f32>
    hlo.return %s : tensor<f32>
  }
  return %0 : tensor<12xf32>
}

// -----

tessel.mesh @mesh = <["x"=2]>

// Windows that tile the shards exactly (size = stride = 2, 4 rows per shard): each shard's
// windows lie inside it; no halo, no table, one local op on the shard.
// CHECK-LABEL: func @select_and_scatter_disjoint
// CHECK-NOT: tessel.{{(all_|collective|partition_id)}}
// CHECK-NOT: hlo.case
// CHECK: %[[Y:.*]] = hlo.select_and_scatter(%arg0, %arg1, %arg2) window_dimensions = [2, 1], window_strides = [2, 1], padding = {{\[}}[0, 0], [0, 0]] : (tensor<4x3xf32>, tensor<2x3xf32>, tensor<f32>) -> tensor<4x3xf32>
// CHECK: return %[[Y]]
func.func @select_and_scatter_disjoint(%a: tensor<8x3xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>}, %src: tensor<4x3xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>}, %z: tensor<f32>) -> (tensor<8x3xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>}) {
  %0 = hlo.select_and_scatter(%a, %src, %z) window_dimensions = [2, 1], window_strides = [2, 1] {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x3xf32>, tensor<4x3xf32>, tensor<f32>) -> tensor<8x3xf32> select {
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %p = hlo.compare GE, %x, %y : tensor<f32>
    hlo.return %p : tensor<i1>
  } scatter {
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = hlo.add %x, %y : tensor<f32>
    hlo.return %s : tensor<f32>
  }
  return %0 : tensor<8x3xf32>
}

// -----

tessel.mesh @mesh = <["x"=2]>

// A trivial window along the split dim (5 rows over 2): the operand and source shards
// pass through.
// CHECK-LABEL: func @select_and_scatter_trivial_split
// CHECK-NOT: tessel.{{(all_|collective|partition_id)}}
// CHECK: %[[Y:.*]] = hlo.select_and_scatter(%arg0, %arg1, %arg2) window_dimensions = [1, 2], window_strides = [1, 2] : (tensor<3x6xf32>, tensor<3x3xf32>, tensor<f32>) -> tensor<3x6xf32>
// CHECK: return %[[Y]]
func.func @select_and_scatter_trivial_split(%a: tensor<5x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>}, %src: tensor<5x3xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>}, %z: tensor<f32>) -> (tensor<5x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>}) {
  %0 = hlo.select_and_scatter(%a, %src, %z) window_dimensions = [1, 2], window_strides = [1, 2] {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<5x6xf32>, tensor<5x3xf32>, tensor<f32>) -> tensor<5x6xf32> select {
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %p = hlo.compare GE, %x, %y : tensor<f32>
    hlo.return %p : tensor<i1>
  } scatter {
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = hlo.add %x, %y : tensor<f32>
    hlo.return %s : tensor<f32>
  }
  return %0 : tensor<5x6xf32>
}
