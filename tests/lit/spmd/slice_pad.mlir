// RUN: tessel-opt %s -split-input-file --tessel-partition | FileCheck %s

tessel.mesh @mesh = <["x"=3]>

// slice [2:12] of 13 rows over 3 shards of 5 (output shards of 4): shard i reads rows
// [2 + 4i, 6 + 4i), so it needs one row of its right neighbour (shift = -1); the window is
// cut at offset 2 - i from a table, then dim 1 is sliced locally.
// CHECK-LABEL: func @slice_halo
// CHECK: %[[EDGE:.*]] = hlo.slice %arg0 [0:1, 0:6] : (tensor<5x6xi32>) -> tensor<1x6xi32>
// CHECK: %[[RIGHT:.*]] = tessel.collective_permute %[[EDGE]] over @mesh ["x"] shift = -1 : tensor<1x6xi32>
// CHECK: %[[EXT:.*]] = hlo.concatenate %arg0, %[[RIGHT]], dim = 0 : (tensor<5x6xi32>, tensor<1x6xi32>) -> tensor<6x6xi32>
// CHECK: hlo.constant dense<[2, 1, 0]> : tensor<3xi32>
// CHECK: %[[WIN:.*]] = hlo.dynamic_slice %[[EXT]], {{.*}} sizes = [4, 6] : (tensor<6x6xi32>, tensor<i32>, tensor<i32>) -> tensor<4x6xi32>
// CHECK: hlo.slice %[[WIN]] [0:4, 1:6] : (tensor<4x6xi32>) -> tensor<4x5xi32>
// CHECK-NOT: tessel.all_gather
func.func @slice_halo(%a: tensor<13x6xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<10x5xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>}) {
  %0 = hlo.slice %a [2:12, 1:6] {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<13x6xi32>) -> tensor<10x5xi32>
  return %0 : tensor<10x5xi32>
}

// -----

tessel.mesh @mesh = <["x"=2]>

// A strided slice whose windows fall inside each shard: a static local cut, no exchange.
// CHECK-LABEL: func @slice_strided_local
// CHECK-NOT: tessel.collective_permute
// CHECK-NOT: tessel.all_gather
// CHECK: %[[WIN:.*]] = hlo.slice %arg0 [0:5, 0:3] : (tensor<6x3xf32>) -> tensor<5x3xf32>
// CHECK: hlo.slice %[[WIN]] [0:5:2, 0:3] : (tensor<5x3xf32>) -> tensor<3x3xf32>
func.func @slice_strided_local(%a: tensor<12x3xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<6x3xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>}) {
  %0 = hlo.slice %a [0:12:2, 0:3] {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<12x3xf32>) -> tensor<6x3xf32>
  return %0 : tensor<6x3xf32>
}

// -----

tessel.mesh @mesh = <["x"=2]>

// Unsplit sliced dimension: local.
// CHECK-LABEL: func @slice_unsplit_dim
// CHECK-NOT: tessel.all_gather
// CHECK-NOT: tessel.collective_permute
// CHECK: hlo.slice %arg0 [0:4, 1:3] : (tensor<4x4xf32>) -> tensor<4x2xf32>
func.func @slice_unsplit_dim(%a: tensor<8x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<8x2xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>}) {
  %0 = hlo.slice %a [0:8, 1:3] {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x4xf32>) -> tensor<8x2xf32>
  return %0 : tensor<8x2xf32>
}

// -----

tessel.mesh @mesh = <["x"=2]>

// pad low 2 of 8 rows over 2 shards (output 10 rows, shards of 5): shard 1 needs the last
// row of shard 0 (shift = 1); the window is cut, and rows outside [2, 10) of the padded
// dimension are masked with the padding value.
// CHECK-LABEL: func @pad_edge
// CHECK: %[[EDGE:.*]] = hlo.slice %arg0 [3:4, 0:3] : (tensor<4x3xf32>) -> tensor<1x3xf32>
// CHECK: %[[LEFT:.*]] = tessel.collective_permute %[[EDGE]] over @mesh ["x"] shift = 1 : tensor<1x3xf32>
// CHECK: hlo.concatenate %[[LEFT]], %arg0, dim = 0 : (tensor<1x3xf32>, tensor<4x3xf32>) -> tensor<5x3xf32>
// CHECK: %[[EXT:.*]] = hlo.pad {{.*}} low = [1, 0], high = [0, 0], interior = [0, 0] : (tensor<5x3xf32>, tensor<f32>) -> tensor<6x3xf32>
// CHECK: %[[WIN:.*]] = hlo.dynamic_slice %[[EXT]], {{.*}} sizes = [5, 3] : (tensor<6x3xf32>, tensor<i32>, tensor<i32>) -> tensor<5x3xf32>
// CHECK-NOT: hlo.dynamic_slice %[[WIN]]
// CHECK: hlo.compare GE
// CHECK: hlo.compare LT
// CHECK: hlo.select {{.*}}, %[[WIN]], {{.*}} : tensor<5x3xi1>, tensor<5x3xf32>
// CHECK-NOT: tessel.all_gather
func.func @pad_edge(%a: tensor<8x3xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<10x3xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>}) {
  %v = hlo.constant dense<1.0> : tensor<f32>
  %0 = hlo.pad %a, %v, low = [2, 0], high = [0, 0], interior = [0, 0] {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x3xf32>, tensor<f32>) -> tensor<10x3xf32>
  return %0 : tensor<10x3xf32>
}

// -----

tessel.mesh @mesh = <["x"=3]>

// Interior padding and a negative low edge over an uneven split (7 rows in shards of 3):
// each shard needs only its own rows (zero-padded around so every window offset is exact);
// the interior padding is applied locally before the window is cut at a per-device offset
// and masked with the padding value.
// CHECK-LABEL: func @pad_interior
// CHECK-NOT: tessel.all_gather
// CHECK: hlo.pad %arg0, {{.*}} low = [1, 0], high = [1, 0], interior = [0, 0] : (tensor<3x6xi32>, tensor<i32>) -> tensor<5x6xi32>
// CHECK: hlo.dynamic_slice {{.*}} sizes = [4, 6] : (tensor<5x6xi32>, tensor<i32>, tensor<i32>) -> tensor<4x6xi32>
// CHECK: hlo.pad {{.*}} low = [0, 0], high = [0, 0], interior = [1, 0] : (tensor<4x6xi32>, tensor<i32>) -> tensor<7x6xi32>
// CHECK: hlo.dynamic_slice {{.*}} sizes = [5, 6] : (tensor<7x6xi32>, tensor<i32>, tensor<i32>) -> tensor<5x6xi32>
// CHECK: hlo.select {{.*}} : tensor<5x6xi1>, tensor<5x6xi32>
func.func @pad_interior(%a: tensor<7x6xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<14x6xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>}) {
  %v = hlo.constant dense<5> : tensor<i32>
  %0 = hlo.pad %a, %v, low = [-1, 0], high = [2, 0], interior = [1, 0] {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<7x6xi32>, tensor<i32>) -> tensor<14x6xi32>
  return %0 : tensor<14x6xi32>
}

// -----

tessel.mesh @mesh = <["x"=2]>

// Unsplit padded dimension: local pad.
// CHECK-LABEL: func @pad_unsplit_dim
// CHECK-NOT: tessel.all_gather
// CHECK-NOT: tessel.collective_permute
// CHECK: hlo.pad %arg0, {{.*}} low = [0, 1], high = [0, 2], interior = [0, 0] : (tensor<4x3xf32>, tensor<f32>) -> tensor<4x6xf32>
func.func @pad_unsplit_dim(%a: tensor<8x3xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<8x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>}) {
  %v = hlo.constant dense<0.0> : tensor<f32>
  %0 = hlo.pad %a, %v, low = [0, 1], high = [0, 2], interior = [0, 0] {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x3xf32>, tensor<f32>) -> tensor<8x6xf32>
  return %0 : tensor<8x6xf32>
}
