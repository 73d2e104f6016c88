// RUN: tessel-opt %s -split-input-file --tessel-partition | FileCheck %s

tessel.mesh @mesh = <["x"=4]>

// dynamic_slice along an unsplit dimension: local, with the same offsets.
// CHECK-LABEL: func @slice_local
// CHECK-NOT: tessel.all_gather
// CHECK: hlo.dynamic_slice %arg0, %{{.*}}, %arg1, sizes = [2, 2] : (tensor<2x6xf32>, tensor<i32>, tensor<i32>) -> tensor<2x2xf32>
func.func @slice_local(%a: tensor<8x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>}, %i: tensor<i32>)
    -> (tensor<8x2xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>}) {
  %c = hlo.constant dense<0> : tensor<i32>
  %0 = hlo.dynamic_slice %a, %c, %i, sizes = [8, 2] {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x6xf32>, tensor<i32>, tensor<i32>) -> tensor<8x2xf32>
  return %0 : tensor<8x2xf32>
}

// -----

tessel.mesh @mesh = <["x"=2, "y"=2]>

// Along a split dimension: that dimension is gathered, the other keeps its split.
// CHECK-LABEL: func @slice_split_dim
// CHECK: tessel.all_gather %arg0 over @mesh ["x"] dim = 0 : (tensor<4x3xf32>) -> tensor<8x3xf32>
// CHECK-NOT: tessel.all_gather
// CHECK: hlo.dynamic_slice {{.*}}, %arg1, %{{.*}}, sizes = [3, 3] : (tensor<8x3xf32>, tensor<i32>, tensor<i32>) -> tensor<3x3xf32>
func.func @slice_split_dim(%a: tensor<8x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {"y"}]>}, %i: tensor<i32>)
    -> (tensor<3x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {"y"}]>}) {
  %c = hlo.constant dense<0> : tensor<i32>
  %0 = hlo.dynamic_slice %a, %i, %c, sizes = [3, 6] {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{}, {"y"}]>]>} : (tensor<8x6xf32>, tensor<i32>, tensor<i32>) -> tensor<3x6xf32>
  return %0 : tensor<3x6xf32>
}

// -----

tessel.mesh @mesh = <["x"=4]>

// dynamic_update_slice along a split dimension: the start is clamped to [0, 8 - 3], each
// shard shifts the (whole) update into its rows (pad by 2 each side, cut at 2 - (st - 2i))
// and selects it where rows [st - 2i, st - 2i + 3) lie.
// CHECK-LABEL: func @update_split
// CHECK-NOT: tessel.all_gather
// CHECK: %[[ST:.*]] = hlo.clamp %{{.*}}, %arg2, %{{.*}} : tensor<i32>, tensor<i32>, tensor<i32>
// CHECK: hlo.constant dense<[0, 2, 4, 6]> : tensor<4xi32>
// CHECK: %[[LOCAL:.*]] = hlo.sub %[[ST]], %{{.*}} : tensor<i32>
// CHECK: hlo.compare GE
// CHECK: hlo.compare LT
// CHECK: %[[PAD:.*]] = hlo.pad %arg1, {{.*}} low = [2, 0], high = [2, 0], interior = [0, 0] : (tensor<3x6xf32>, tensor<f32>) -> tensor<7x6xf32>
// CHECK: %[[SHIFTED:.*]] = hlo.dynamic_slice %[[PAD]], {{.*}} sizes = [2, 6] : (tensor<7x6xf32>, tensor<i32>, tensor<i32>) -> tensor<2x6xf32>
// CHECK: hlo.select %{{.*}}, %[[SHIFTED]], %arg0 : tensor<2x6xi1>, tensor<2x6xf32>
func.func @update_split(%a: tensor<8x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>}, %u: tensor<3x6xf32>, %i: tensor<i32>)
    -> (tensor<8x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>}) {
  %c = hlo.constant dense<0> : tensor<i32>
  %0 = hlo.dynamic_update_slice %a, %u, %i, %c {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x6xf32>, tensor<3x6xf32>, tensor<i32>, tensor<i32>) -> tensor<8x6xf32>
  return %0 : tensor<8x6xf32>
}

// -----

tessel.mesh @mesh = <["x"=4]>

// The update covers the split dimension whole: local, with the same offsets.
// CHECK-LABEL: func @update_local
// CHECK-NOT: tessel.all_gather
// CHECK: hlo.dynamic_update_slice %arg0, %arg1, %{{.*}}, %arg2 : (tensor<2x6xf32>, tensor<2x2xf32>, tensor<i32>, tensor<i32>) -> tensor<2x6xf32>
func.func @update_local(%a: tensor<8x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>},
                        %u: tensor<8x2xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>}, %i: tensor<i32>)
    -> (tensor<8x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>}) {
  %c = hlo.constant dense<0> : tensor<i32>
  %0 = hlo.dynamic_update_slice %a, %u, %c, %i {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x6xf32>, tensor<8x2xf32>, tensor<i32>, tensor<i32>) -> tensor<8x6xf32>
  return %0 : tensor<8x6xf32>
}
