// RUN: tessel-opt %s -split-input-file --tessel-partition | FileCheck %s

// When every dimension keeps its number of shards but the shards change devices, one
// collective_permute with (source, target) group positions moves them; nothing is gathered.

tessel.mesh @mesh = <["x"=2, "y"=3]>

// ["x", "y"] -> ["y", "x"] on one dim: position 3x+y holds shard 3x+y and needs shard 2y+x.
// CHECK-LABEL: func @reorder_axes
// CHECK-NOT: tessel.all_gather
// CHECK: tessel.collective_permute %arg0 over @mesh ["x", "y"] pairs = {{\[}}[0, 0], [2, 1], [4, 2], [1, 3], [3, 4], [5, 5]] : tensor<2x5xf32>
// CHECK-NEXT: return
func.func @reorder_axes(%a: tensor<12x5xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x", "y"}, {}]>})
    -> (tensor<12x5xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"y", "x"}, {}]>}) {
  return %a : tensor<12x5xf32>
}

// -----

tessel.mesh @mesh = <["x"=2, "y"=3]>

// Uneven (7 rows in 6 shards of 2): the shards keep their shape, so the permute is exact.
// CHECK-LABEL: func @reorder_uneven
// CHECK-NOT: tessel.all_gather
// CHECK: tessel.collective_permute %arg0 over @mesh ["x", "y"] pairs = {{.*}} : tensor<2x5xi32>
func.func @reorder_uneven(%a: tensor<7x5xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"x", "y"}, {}]>})
    -> (tensor<7x5xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"y", "x"}, {}]>}) {
  return %a : tensor<7x5xi32>
}

// -----

tessel.mesh @mesh = <["x"=2, "y"=2]>

// The splits of two dims trade axes of the same size: the device at (x, y) needs the
// shard the device at (y, x) holds.
// CHECK-LABEL: func @swap_dims
// CHECK-NOT: tessel.all_gather
// CHECK: tessel.collective_permute %arg0 over @mesh ["x", "y"] pairs = {{\[}}[0, 0], [2, 1], [1, 2], [3, 3]] : tensor<3x2xf32>
func.func @swap_dims(%a: tensor<6x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {"y"}]>})
    -> (tensor<6x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"y"}, {"x"}]>}) {
  return %a : tensor<6x4xf32>
}

// -----

tessel.mesh @mesh = <["x"=2, "y"=2]>

// A split moving to another mesh axis of the same size: devices along "y" did not hold
// distinct shards before, so each target takes the shard from a distinct holder.
// CHECK-LABEL: func @other_axis
// CHECK-NOT: tessel.all_gather
// CHECK: tessel.collective_permute %arg0 over @mesh ["x", "y"] pairs = {{\[}}[0, 0], [2, 1], [1, 2], [3, 3]] : tensor<3x4xf32>
func.func @other_axis(%a: tensor<6x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<6x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"y"}, {}]>}) {
  return %a : tensor<6x4xf32>
}

// -----

// Rows split 4 ways over "y" become rows split 8 ways over "x" then "y": every new shard (2
// rows) lies inside one old shard (4 rows). Each device cuts the 2 rows its partner needs
// and one collective_permute hands them over (128 bytes, the least any plan can move);
// gathering "y" and slicing would send three shards (768 bytes).
tessel.mesh @mesh = <["x"=2, "y"=4]>
// CHECK-LABEL: func @slice_pieces
// CHECK-NOT: tessel.all_gather
// CHECK: %[[PIECE:.*]] = hlo.dynamic_slice %arg0, %{{.*}}, %{{.*}} sizes = [2, 16] : (tensor<4x16xf32>, tensor<i32>, tensor<i32>) -> tensor<2x16xf32>
// CHECK: tessel.collective_permute %[[PIECE]] over @mesh ["x", "y"] pairs = {{\[\[}}0, 0], [4, 1], [1, 2], [5, 3], [2, 4], [6, 5], [3, 6], [7, 7]] : tensor<2x16xf32>
// CHECK-NOT: tessel.all_gather
func.func @slice_pieces(%a: tensor<16x16xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"y"}, {}]>})
    -> (tensor<16x16xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x", "y"}, {}]>}) {
  %0 = tessel.sharding_constraint %a <@mesh, [{"x", "y"}, {}]> : tensor<16x16xf32>
  return %0 : tensor<16x16xf32>
}

// -----

// Rows split 4 ways over "y" become rows split 2 ways over "x": each new shard (8 rows) is
// two old shards (4 rows each), and a device holds one of them or none. In each of two
// rounds every device lacking a quarter receives one by a slice and a collective_permute
// and writes it at its place (a device with nothing to receive writes into a spare piece
// past the end, sliced off at the end); then devices copy the quarter they hold: 512 bytes,
// where gathering "y" sends 768.
tessel.mesh @mesh = <["x"=2, "y"=4]>
// CHECK-LABEL: func @exchange_pieces
// CHECK-NOT: tessel.all_gather
// CHECK: hlo.broadcast_in_dim %{{.*}} -> tensor<12x16xf32>
// CHECK: tessel.collective_permute %{{.*}} over @mesh ["x", "y"] pairs = {{.*}} : tensor<4x16xf32>
// CHECK: hlo.dynamic_update_slice %{{.*}} : (tensor<12x16xf32>, tensor<4x16xf32>, tensor<i32>, tensor<i32>) -> tensor<12x16xf32>
// CHECK: tessel.collective_permute %{{.*}} over @mesh ["x", "y"] pairs = {{.*}} : tensor<4x16xf32>
// CHECK: hlo.dynamic_update_slice
// CHECK-NOT: tessel.collective_permute
// CHECK: hlo.dynamic_update_slice
// CHECK: hlo.slice %{{.*}} [0:8, 0:16] : (tensor<12x16xf32>) -> tensor<8x16xf32>
// CHECK-NOT: tessel.all_gather
func.func @exchange_pieces(%a: tensor<16x16xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"y"}, {}]>})
    -> (tensor<16x16xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>}) {
  %0 = tessel.sharding_constraint %a <@mesh, [{"x"}, {}]> : tensor<16x16xf32>
  return %0 : tensor<16x16xf32>
}

// -----

// Two axes move at once: rows split 8 ways over "y" then "x" become columns split 4 ways
// over "y". A device holds 2 rows and needs 4 columns; of its 8 pieces (2x4) it holds one.
// Holders are assigned so no device sends more than 7 pieces, and the transfers are
// coloured into 7 rounds of one collective_permute each: 224 bytes, the least any plan can
// move. Moving "x" to the columns by all_to_all and gathering the rest would send 240;
// gathering the rows, 896.
tessel.mesh @mesh = <["x"=2, "y"=4]>
// CHECK-LABEL: func @several_axes
// CHECK-NOT: tessel.all_gather
// CHECK-NOT: tessel.all_to_all
// CHECK-COUNT-7: tessel.collective_permute %{{.*}} over @mesh ["x", "y"] pairs = {{.*}} : tensor<2x4xf32>
// CHECK-NOT: tessel.collective_permute
// CHECK: hlo.slice %{{.*}} [0:16, 0:4] : (tensor<18x4xf32>) -> tensor<16x4xf32>
func.func @several_axes(%a: tensor<16x16xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"y", "x"}, {}]>})
    -> (tensor<16x16xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {"y"}]>}) {
  %0 = tessel.sharding_constraint %a <@mesh, [{}, {"y"}]> : tensor<16x16xf32>
  return %0 : tensor<16x16xf32>
}
