// RUN: tessel-opt %s -split-input-file --tessel-partition | FileCheck %s

tessel.mesh @mesh = <["x"=2]>

// ALGORITHMS §3.2 example 1: 4 rows over 2 devices, window 5, stride 3, padding 2 on each
// side: one output row per shard, reading rows [3i - 2, 3i + 3). One row comes from each
// neighbour; the 4 rows are padded to 6 with the init value and cut at offset i; the rows
// outside [0, 4) are masked with the init value; the local op has no padding.
// CHECK-LABEL: func @reduce_window_two_sided
// CHECK-SAME: (%[[X:.*]]: tensor<2x2xf32> {{.*}}, %[[Z:.*]]: tensor<f32>) -> (tensor<1x2xf32>
// CHECK: %[[L:.*]] = hlo.slice %[[X]] [1:2, 0:2] : (tensor<2x2xf32>) -> tensor<1x2xf32>
// CHECK: %[[LH:.*]] = tessel.collective_permute %[[L]] over @mesh ["x"] shift = 1 : tensor<1x2xf32>
// CHECK: %[[R:.*]] = hlo.slice %[[X]] [0:1, 0:2] : (tensor<2x2xf32>) -> tensor<1x2xf32>
// CHECK: %[[RH:.*]] = tessel.collective_permute %[[R]] over @mesh ["x"] shift = -1 : tensor<1x2xf32>
// CHECK: %[[CAT:.*]] = hlo.concatenate %[[LH]], %[[X]], %[[RH]], dim = 0 : {{.*}} -> tensor<4x2xf32>
// CHECK: %[[PAD:.*]] = hlo.pad %[[CAT]], %[[Z]], low = [1, 0], high = [1, 0], interior = [0, 0] : {{.*}} -> tensor<6x2xf32>
// CHECK: hlo.constant dense<[0, 1]> : tensor<2xi32>
// CHECK: %[[WIN:.*]] = hlo.dynamic_slice %[[PAD]], {{.*}} sizes = [5, 2] : {{.*}} -> tensor<5x2xf32>
// CHECK: hlo.constant dense<[2, -1]> : tensor<2xi32>
// CHECK: hlo.compare GE
// CHECK: hlo.constant dense<[6, 3]> : tensor<2xi32>
// CHECK: hlo.compare LT
// CHECK: %[[FILL:.*]] = hlo.broadcast_in_dim %[[Z]], dims = [] : (tensor<f32>) -> tensor<5x2xf32>
// CHECK: %[[MASKED:.*]] = hlo.select %{{.*}}, %[[WIN]], %[[FILL]]
// CHECK: %[[Y:.*]] = hlo.reduce_window(%[[MASKED]]) init(%[[Z]]) window_dimensions = [5, 1], window_strides = [3, 1], padding = {{\[}}[0, 0], [0, 0]] : (tensor<5x2xf32>, tensor<f32>) -> tensor<1x2xf32>
// CHECK: return %[[Y]]
func.func @reduce_window_two_sided(%x: tensor<4x2xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>}, %z: tensor<f32>) -> (tensor<2x2xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>}) {
  %r = hlo.reduce_window(%x) init(%z) window_dimensions = [5, 1], window_strides = [3, 1], padding = [[2, 2], [0, 0]] {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<4x2xf32>, tensor<f32>) -> tensor<2x2xf32> reducer {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = hlo.add %a, %b : tensor<f32>
    hlo.return %s : tensor<f32>
  }
  return %r : tensor<2x2xf32>
}

// -----

tessel.mesh @mesh = <["x"=5]>

// ALGORITHMS §3.2 example 3: 9 rows over 5 devices (2 each), window 4, stride 2, low
// padding 3: shard i reads rows [2i - 3, 2i + 1), three rows to its left: 1 row from
// i - 2 and 2 from i - 1, and one own row. Only the low side needs a mask.
// CHECK-LABEL: func @reduce_window_beyond_neighbour
// CHECK-SAME: (%[[X:.*]]: tensor<2x2xf32> {{.*}}, %[[Z:.*]]: tensor<f32>) -> (tensor<1x2xf32>
// CHECK: %[[L2:.*]] = hlo.slice %[[X]] [1:2, 0:2]
// CHECK: %[[P2:.*]] = tessel.collective_permute %[[L2]] over @mesh ["x"] shift = 2 : tensor<1x2xf32>
// CHECK: %[[P1:.*]] = tessel.collective_permute %[[X]] over @mesh ["x"] shift = 1 : tensor<2x2xf32>
// CHECK-NOT: shift = -
// CHECK: %[[CAT:.*]] = hlo.concatenate %[[P2]], %[[P1]], %[[X]], dim = 0 : {{.*}} -> tensor<5x2xf32>
// CHECK: %[[WIN:.*]] = hlo.slice %[[CAT]] [0:4, 0:2] : (tensor<5x2xf32>) -> tensor<4x2xf32>
// CHECK: hlo.constant dense<[3, 1, -1, -3, -5]> : tensor<5xi32>
// CHECK: hlo.compare GE
// CHECK-NOT: hlo.compare LT
// CHECK: %[[MASKED:.*]] = hlo.select %{{.*}}, %[[WIN]], %{{.*}} : tensor<4x2xi1>, tensor<4x2xf32>
// CHECK: hlo.reduce_window(%[[MASKED]]) init(%[[Z]]) {{.*}} padding = {{\[}}[0, 0], [0, 0]] : (tensor<4x2xf32>, tensor<f32>) -> tensor<1x2xf32>
func.func @reduce_window_beyond_neighbour(%x: tensor<9x2xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>}, %z: tensor<f32>) -> (tensor<5x2xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>}) {
  %r = hlo.reduce_window(%x) init(%z) window_dimensions = [4, 1], window_strides = [2, 1], padding = [[3, 0], [0, 0]] {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<9x2xf32>, tensor<f32>) -> tensor<5x2xf32> reducer {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = hlo.max %a, %b : tensor<f32>
    hlo.return %s : tensor<f32>
  }
  return %r : tensor<5x2xf32>
}

// -----

tessel.mesh @mesh = <["x"=2]>

// Base dilation 2 of 4 elements (7 dilated), window 2: 6 outputs, 3 per shard, reading
// dilated positions [3i, 3i + 4), i.e. elements [ceil(3i/2), ...): shard 1 starts at
// element 2 = its own first one, so nothing moves. The elements are dilated locally with
// the init value and each shard's 4 positions cut at offset 1 - (2*ceil(3i/2) - 3i).
// CHECK-LABEL: func @reduce_window_base_dilation
// CHECK-SAME: (%[[X:.*]]: tensor<2xi32> {{.*}}, %[[Z:.*]]: tensor<i32>) -> (tensor<3xi32>
// CHECK-NOT: tessel.collective_permute
// CHECK: %[[DIL:.*]] = hlo.pad %[[X]], %[[Z]], low = [1], high = [1], interior = [1] : (tensor<2xi32>, tensor<i32>) -> tensor<5xi32>
// CHECK: hlo.constant dense<[1, 0]> : tensor<2xi32>
// CHECK: %[[WIN:.*]] = hlo.dynamic_slice %[[DIL]], %{{.*}}, sizes = [4] : (tensor<5xi32>, tensor<i32>) -> tensor<4xi32>
// CHECK: hlo.reduce_window(%[[WIN]]) init(%[[Z]]) window_dimensions = [2], base_dilations = [1] : (tensor<4xi32>, tensor<i32>) -> tensor<3xi32>
func.func @reduce_window_base_dilation(%x: tensor<4xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}]>}, %z: tensor<i32>) -> (tensor<6xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}]>}) {
  %r = hlo.reduce_window(%x) init(%z) window_dimensions = [2], base_dilations = [2] {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{"x"}]>]>} : (tensor<4xi32>, tensor<i32>) -> tensor<6xi32> reducer {
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = hlo.add %a, %b : tensor<i32>
    hlo.return %s : tensor<i32>
  }
  return %r : tensor<6xi32>
}

// -----

tessel.mesh @mesh = <["x"=2]>

// Window 1 and stride 2 along the split dim: 4 outputs, 2 per shard, reading own rows 0
// and 2 only. No halo, no table: a static slice of the rows the windows read.
// CHECK-LABEL: func @reduce_window_passthrough
// CHECK-NOT: tessel.partition_id
// CHECK: %[[ROWS:.*]] = hlo.slice %arg0 [0:3, 0:6] : (tensor<4x6xf32>) -> tensor<3x6xf32>
// CHECK: hlo.reduce_window(%[[ROWS]]) init(%arg1) window_dimensions = [1, 3], window_strides = [2, 1] : (tensor<3x6xf32>, tensor<f32>) -> tensor<2x4xf32>
func.func @reduce_window_passthrough(%x: tensor<8x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>}, %z: tensor<f32>) -> (tensor<4x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>}) {
  %r = hlo.reduce_window(%x) init(%z) window_dimensions = [1, 3], window_strides = [2, 1] {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x6xf32>, tensor<f32>) -> tensor<4x4xf32> reducer {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = hlo.add %a, %b : tensor<f32>
    hlo.return %s : tensor<f32>
  }
  return %r : tensor<4x4xf32>
}

// -----

tessel.mesh @mesh = <["x"=2]>

// A trivial window along the split dim (uneven, 5 over 2): pure pass-through.
// CHECK-LABEL: func @reduce_window_trivial_split
// CHECK-NOT: tessel.{{(all_|collective|partition_id)}}
// CHECK: %[[Y:.*]] = hlo.reduce_window(%arg0) init(%arg1) window_dimensions = [1, 3] : (tensor<3x6xf32>, tensor<f32>) -> tensor<3x4xf32>
// CHECK: return %[[Y]]
func.func @reduce_window_trivial_split(%x: tensor<5x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>}, %z: tensor<f32>) -> (tensor<5x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>}) {
  %r = hlo.reduce_window(%x) init(%z) window_dimensions = [1, 3] {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<5x6xf32>, tensor<f32>) -> tensor<5x4xf32> reducer {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = hlo.add %a, %b : tensor<f32>
    hlo.return %s : tensor<f32>
  }
  return %r : tensor<5x4xf32>
}

// -----

tessel.mesh @mesh = <["x"=2]>

// Two inputs reduced together: each gets its halo (one row from the right neighbour).
// CHECK-LABEL: func @reduce_window_variadic
// CHECK: %[[A:.*]] = tessel.collective_permute %{{.*}} over @mesh ["x"] shift = -1 : tensor<1xf32>
// CHECK: %[[CA:.*]] = hlo.concatenate %arg0, %[[A]], dim = 0 : (tensor<3xf32>, tensor<1xf32>) -> tensor<4xf32>
// CHECK: %[[B:.*]] = tessel.collective_permute %{{.*}} over @mesh ["x"] shift = -1 : tensor<1xi32>
// CHECK: %[[CB:.*]] = hlo.concatenate %arg1, %[[B]], dim = 0 : (tensor<3xi32>, tensor<1xi32>) -> tensor<4xi32>
// CHECK: hlo.reduce_window(%[[CA]], %[[CB]]) init(%arg2, %arg3) window_dimensions = [2] : (tensor<4xf32>, tensor<4xi32>, tensor<f32>, tensor<i32>) -> (tensor<3xf32>, tensor<3xi32>)
func.func @reduce_window_variadic(%x: tensor<6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}]>}, %i: tensor<6xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}]>}, %z: tensor<f32>, %zi: tensor<i32>) -> (tensor<5xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}]>}, tensor<5xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}]>}) {
  %r:2 = hlo.reduce_window(%x, %i) init(%z, %zi) window_dimensions = [2] {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{"x"}]>, <@mesh, [{"x"}]>]>} : (tensor<6xf32>, tensor<6xi32>, tensor<f32>, tensor<i32>) -> (tensor<5xf32>, tensor<5xi32>) reducer {
  ^bb0(%a: tensor<f32>, %ai: tensor<i32>, %b: tensor<f32>, %bi: tensor<i32>):
    %s = hlo.add %a, %b : tensor<f32>
    %si = hlo.add %ai, %bi : tensor<i32>
    hlo.return %s, %si : tensor<f32>, tensor<i32>
  }
  return %r#0, %r#1 : tensor<5xf32>, tensor<5xi32>
}
