// RUN: tessel-opt %s -split-input-file --tessel-partition | FileCheck %s

tessel.mesh @mesh = <["x"=2]>

// GSPMD's conv example, scaled down: H split in 2 (8 rows each), kernel 7, stride 2,
// padding 3: every shard computes 4 output rows from rows [8i - 3, 8i + 10); it needs 3
// rows from the left neighbour and 2 from the right. The own rows plus the halos make 13
// rows, the op's padding is the masked part, and the local conv has no H padding.
// CHECK-LABEL: func @conv_spatial_halo
// CHECK-SAME: (%[[X:.*]]: tensor<1x8x6x3xf32> {{.*}}, %[[K:.*]]: tensor<7x1x3x4xf32>) -> (tensor<1x4x6x4xf32>
// CHECK: %[[L:.*]] = hlo.slice %[[X]] [0:1, 5:8, 0:6, 0:3] : (tensor<1x8x6x3xf32>) -> tensor<1x3x6x3xf32>
// CHECK: %[[LH:.*]] = tessel.collective_permute %[[L]] over @mesh ["x"] shift = 1 : tensor<1x3x6x3xf32>
// CHECK: %[[R:.*]] = hlo.slice %[[X]] [0:1, 0:2, 0:6, 0:3] : (tensor<1x8x6x3xf32>) -> tensor<1x2x6x3xf32>
// CHECK: %[[RH:.*]] = tessel.collective_permute %[[R]] over @mesh ["x"] shift = -1 : tensor<1x2x6x3xf32>
// CHECK: %[[CAT:.*]] = hlo.concatenate %[[LH]], %[[X]], %[[RH]], dim = 1 : {{.*}} -> tensor<1x13x6x3xf32>
// CHECK-NOT: hlo.dynamic_slice %[[CAT]]
// CHECK: hlo.constant dense<[3, -5]> : tensor<2xi32>
// CHECK: hlo.compare GE
// CHECK: hlo.constant dense<[19, 11]> : tensor<2xi32>
// CHECK: hlo.compare LT
// CHECK: %[[MASKED:.*]] = hlo.select %{{.*}}, %[[CAT]], %{{.*}} : tensor<1x13x6x3xi1>, tensor<1x13x6x3xf32>
// CHECK: %[[Y:.*]] = hlo.convolution %[[MASKED]], %[[K]], dims = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window_strides = [2, 1], padding = {{\[}}[0, 0], [0, 0]] : (tensor<1x13x6x3xf32>, tensor<7x1x3x4xf32>) -> tensor<1x4x6x4xf32>
// CHECK: return %[[Y]]
func.func @conv_spatial_halo(%x: tensor<1x16x6x3xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {"x"}, {}, {}]>}, %k: tensor<7x1x3x4xf32>) -> (tensor<1x8x6x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {"x"}, {}, {}]>}) {
  %0 = hlo.convolution %x, %k, dims = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window_strides = [2, 1], padding = [[3, 3], [0, 0]] {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{}, {"x"}, {}, {}]>]>} : (tensor<1x16x6x3xf32>, tensor<7x1x3x4xf32>) -> tensor<1x8x6x4xf32>
  return %0 : tensor<1x8x6x4xf32>
}

// -----

tessel.mesh @mesh = <["x"=6]>

// H = 11 over 6 devices (2 rows each), kernel 7, padding 3: each shard's 2 output rows
// read rows [2i - 3, 2i + 5), three beyond each edge of its shard, so the halo comes in two
// hops per side (1 row from i - 2 and 2 from i - 1; 2 from i + 1 and 1 from i + 2).
// CHECK-LABEL: func @conv_two_hops
// CHECK-SAME: (%[[X:.*]]: tensor<1x2x3xf32> {{.*}}, %[[K:.*]]: tensor<7x3x2xf32>) -> (tensor<1x2x2xf32>
// CHECK: %[[L2:.*]] = hlo.slice %[[X]] [0:1, 1:2, 0:3] : (tensor<1x2x3xf32>) -> tensor<1x1x3xf32>
// CHECK: %[[P2:.*]] = tessel.collective_permute %[[L2]] over @mesh ["x"] shift = 2 : tensor<1x1x3xf32>
// CHECK: %[[P1:.*]] = tessel.collective_permute %[[X]] over @mesh ["x"] shift = 1 : tensor<1x2x3xf32>
// CHECK: %[[M1:.*]] = tessel.collective_permute %[[X]] over @mesh ["x"] shift = -1 : tensor<1x2x3xf32>
// CHECK: %[[R2:.*]] = hlo.slice %[[X]] [0:1, 0:1, 0:3] : (tensor<1x2x3xf32>) -> tensor<1x1x3xf32>
// CHECK: %[[M2:.*]] = tessel.collective_permute %[[R2]] over @mesh ["x"] shift = -2 : tensor<1x1x3xf32>
// CHECK: %[[CAT:.*]] = hlo.concatenate %[[P2]], %[[P1]], %[[X]], %[[M1]], %[[M2]], dim = 1 : {{.*}} -> tensor<1x8x3xf32>
// CHECK: hlo.constant dense<[3, 1, -1, -3, -5, -7]> : tensor<6xi32>
// CHECK: hlo.constant dense<[14, 12, 10, 8, 6, 4]> : tensor<6xi32>
// CHECK: %[[MASKED:.*]] = hlo.select %{{.*}}, %[[CAT]], %{{.*}} : tensor<1x8x3xi1>, tensor<1x8x3xf32>
// CHECK: hlo.convolution %[[MASKED]], %[[K]], {{.*}} padding = {{\[}}[0, 0]] : (tensor<1x8x3xf32>, tensor<7x3x2xf32>) -> tensor<1x2x2xf32>
func.func @conv_two_hops(%x: tensor<1x11x3xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {"x"}, {}]>}, %k: tensor<7x3x2xf32>) -> (tensor<1x11x2xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {"x"}, {}]>}) {
  %0 = hlo.convolution %x, %k, dims = [b, 0, f]x[0, i, o]->[b, 0, f], padding = [[3, 3]] {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{}, {"x"}, {}]>]>} : (tensor<1x11x3xf32>, tensor<7x3x2xf32>) -> tensor<1x11x2xf32>
  return %0 : tensor<1x11x2xf32>
}

// -----

tessel.mesh @mesh = <["x"=2]>

// lhs dilation 2 of 5 rows (9 dilated) and kernel 2: 8 outputs, 4 per shard, reading
// dilated positions [4i, 4i + 5): input rows [2i, 2i + 3), one from the left neighbour on
// shard 1. The rows are dilated locally (interior padding) and the shard's 5 positions cut
// at offset 1 - (2i*2 - 4i) = 1 (the same on both: a static slice); the local conv has
// no lhs dilation.
// CHECK-LABEL: func @conv_lhs_dilation
// CHECK-SAME: (%[[X:.*]]: tensor<1x3x1xf32> {{.*}}, %[[K:.*]]: tensor<2x1x1xf32>) -> (tensor<1x4x1xf32>
// CHECK: %[[L:.*]] = hlo.slice %[[X]] [0:1, 2:3, 0:1]
// CHECK: %[[P:.*]] = tessel.collective_permute %[[L]] over @mesh ["x"] shift = 1 : tensor<1x1x1xf32>
// CHECK: %[[CAT:.*]] = hlo.concatenate %[[P]], %[[X]], dim = 1 : {{.*}} -> tensor<1x4x1xf32>
// CHECK: hlo.constant dense<[1, 0]> : tensor<2xi32>
// CHECK: %[[ROWS:.*]] = hlo.dynamic_slice %[[CAT]], {{.*}} sizes = [1, 3, 1] : {{.*}} -> tensor<1x3x1xf32>
// CHECK: %[[DIL:.*]] = hlo.pad %[[ROWS]], %{{.*}}, low = [0, 1, 0], high = [0, 0, 0], interior = [0, 1, 0] : {{.*}} -> tensor<1x6x1xf32>
// CHECK: %[[WIN:.*]] = hlo.slice %[[DIL]] [0:1, 1:6, 0:1] : (tensor<1x6x1xf32>) -> tensor<1x5x1xf32>
// CHECK: hlo.convolution %[[WIN]], %[[K]], {{.*}} lhs_dilation = [1] : (tensor<1x5x1xf32>, tensor<2x1x1xf32>) -> tensor<1x4x1xf32>
func.func @conv_lhs_dilation(%x: tensor<1x5x1xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {"x"}, {}]>}, %k: tensor<2x1x1xf32>) -> (tensor<1x8x1xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {"x"}, {}]>}) {
  %0 = hlo.convolution %x, %k, dims = [b, 0, f]x[0, i, o]->[b, 0, f], lhs_dilation = [2] {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{}, {"x"}, {}]>]>} : (tensor<1x5x1xf32>, tensor<2x1x1xf32>) -> tensor<1x8x1xf32>
  return %0 : tensor<1x8x1xf32>
}

// -----

tessel.mesh @mesh = <["x"=2]>

// Kernel 5 with padding 2 over 2-row shards: each shard needs 2 rows from each side,
// more than a gather brings, so the dim is all-gathered, padded and cut at 2i.
// CHECK-LABEL: func @conv_gather_route
// CHECK-NOT: tessel.collective_permute
// CHECK: %[[G:.*]] = tessel.all_gather %{{.*}} over @mesh ["x"] dim = 1 : (tensor<1x2x1xf32>) -> tensor<1x4x1xf32>
// CHECK: %[[P:.*]] = hlo.pad %[[G]], %{{.*}}, low = [0, 2, 0], high = [0, 2, 0], interior = [0, 0, 0] : {{.*}} -> tensor<1x8x1xf32>
// CHECK: hlo.constant dense<[0, 2]> : tensor<2xi32>
// CHECK: hlo.dynamic_slice %[[P]], {{.*}} sizes = [1, 6, 1] : {{.*}} -> tensor<1x6x1xf32>
// CHECK: hlo.convolution {{.*}} padding = {{\[}}[0, 0]] : (tensor<1x6x1xf32>, tensor<5x1x1xf32>) -> tensor<1x2x1xf32>
func.func @conv_gather_route(%x: tensor<1x4x1xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {"x"}, {}]>}, %k: tensor<5x1x1xf32>) -> (tensor<1x4x1xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {"x"}, {}]>}) {
  %0 = hlo.convolution %x, %k, dims = [b, 0, f]x[0, i, o]->[b, 0, f], padding = [[2, 2]] {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{}, {"x"}, {}]>]>} : (tensor<1x4x1xf32>, tensor<5x1x1xf32>) -> tensor<1x4x1xf32>
  return %0 : tensor<1x4x1xf32>
}

// -----

tessel.mesh @mesh = <["x"=2]>

// Batch split: the conv runs on the local batch, nothing moves.
// CHECK-LABEL: func @conv_batch_and_out_feature
// CHECK-NOT: tessel.{{(all_|collective|reduce_scatter|partition_id)}}
// CHECK: %[[Y:.*]] = hlo.convolution %arg0, %arg1, {{.*}} : (tensor<2x8x3xf32>, tensor<3x3x6xf32>) -> tensor<2x6x6xf32>
// CHECK-NEXT: return %[[Y]]
func.func @conv_batch_and_out_feature(%x: tensor<4x8x3xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}, {}]>}, %k: tensor<3x3x6xf32>) -> (tensor<4x6x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}, {}]>}) {
  %0 = hlo.convolution %x, %k, dims = [b, 0, f]x[0, i, o]->[b, 0, f] {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{"x"}, {}, {}]>]>} : (tensor<4x8x3xf32>, tensor<3x3x6xf32>) -> tensor<4x6x6xf32>
  return %0 : tensor<4x6x6xf32>
}

// -----

tessel.mesh @mesh = <["x"=2]>

// Output features split: the kernel's output features are split alike; nothing moves.
// CHECK-LABEL: func @conv_out_feature
// CHECK-NOT: tessel.{{(all_|collective|reduce_scatter|partition_id)}}
// CHECK: %[[Y:.*]] = hlo.convolution %arg0, %arg1, {{.*}} : (tensor<4x8x3xf32>, tensor<3x3x3xf32>) -> tensor<4x6x3xf32>
// CHECK-NEXT: return %[[Y]]
func.func @conv_out_feature(%x: tensor<4x8x3xf32>, %k: tensor<3x3x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}, {"x"}]>}) -> (tensor<4x6x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}, {"x"}]>}) {
  %0 = hlo.convolution %x, %k, dims = [b, 0, f]x[0, i, o]->[b, 0, f] {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{}, {}, {"x"}]>]>} : (tensor<4x8x3xf32>, tensor<3x3x6xf32>) -> tensor<4x6x6xf32>
  return %0 : tensor<4x6x6xf32>
}

// -----

tessel.mesh @mesh = <["x"=2]>

// Input features split (3 over 2, uneven): the padding feature of both operands is
// zeroed, each shard convolves its features, and the partial sums are all-reduced.
// CHECK-LABEL: func @conv_in_feature
// CHECK: hlo.constant dense<[2, 1]> : tensor<2xi32>
// CHECK: %[[XM:.*]] = hlo.select %{{.*}}, %arg0, %{{.*}} : tensor<4x8x2xi1>, tensor<4x8x2xf32>
// CHECK: %[[KM:.*]] = hlo.select %{{.*}}, %arg1, %{{.*}} : tensor<3x2x6xi1>, tensor<3x2x6xf32>
// CHECK: %[[Y:.*]] = hlo.convolution %[[XM]], %[[KM]], {{.*}} : (tensor<4x8x2xf32>, tensor<3x2x6xf32>) -> tensor<4x6x6xf32>
// CHECK: %[[S:.*]] = tessel.all_reduce %[[Y]] over @mesh ["x"] kind = sum : tensor<4x6x6xf32>
// CHECK: return %[[S]]
func.func @conv_in_feature(%x: tensor<4x8x3xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}, {"x"}]>}, %k: tensor<3x3x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {"x"}, {}]>}) -> (tensor<4x6x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}, {}]>}) {
  %0 = hlo.convolution %x, %k, dims = [b, 0, f]x[0, i, o]->[b, 0, f] {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{}, {}, {}]>]>} : (tensor<4x8x3xf32>, tensor<3x3x6xf32>) -> tensor<4x6x6xf32>
  return %0 : tensor<4x6x6xf32>
}

// -----

tessel.mesh @mesh = <["x"=2]>

// Two feature groups over 2 devices: each shard holds one whole group (its input features
// and its kernel's output features) and runs an ungrouped conv.
// CHECK-LABEL: func @conv_feature_groups
// CHECK-NOT: tessel.{{(all_|collective|reduce_scatter|partition_id)}}
// CHECK: hlo.convolution %arg0, %arg1, dims = [b, 0, f]x[0, i, o]->[b, 0, f] : (tensor<1x8x2xf32>, tensor<3x2x3xf32>) -> tensor<1x6x3xf32>
func.func @conv_feature_groups(%x: tensor<1x8x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}, {"x"}]>}, %k: tensor<3x2x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}, {"x"}]>}) -> (tensor<1x6x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}, {"x"}]>}) {
  %0 = hlo.convolution %x, %k, dims = [b, 0, f]x[0, i, o]->[b, 0, f], feature_group_count = 2 {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{}, {}, {"x"}]>]>} : (tensor<1x8x4xf32>, tensor<3x2x6xf32>) -> tensor<1x6x6xf32>
  return %0 : tensor<1x6x6xf32>
}

// -----

tessel.mesh @mesh = <["x"=2]>

// Two batch groups over 2 devices: each shard holds one group of the input batch and its
// output features.
// CHECK-LABEL: func @conv_batch_groups
// CHECK-NOT: tessel.{{(all_|collective|reduce_scatter|partition_id)}}
// CHECK: hlo.convolution %arg0, %arg1, dims = [b, 0, f]x[0, i, o]->[b, 0, f] : (tensor<2x8x3xf32>, tensor<3x3x3xf32>) -> tensor<2x6x3xf32>
func.func @conv_batch_groups(%x: tensor<4x8x3xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}, {}]>}, %k: tensor<3x3x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}, {"x"}]>}) -> (tensor<2x6x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}, {"x"}]>}) {
  %0 = hlo.convolution %x, %k, dims = [b, 0, f]x[0, i, o]->[b, 0, f], batch_group_count = 2 {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{}, {}, {"x"}]>]>} : (tensor<4x8x3xf32>, tensor<3x3x6xf32>) -> tensor<2x6x6xf32>
  return %0 : tensor<2x6x6xf32>
}

// -----

tessel.mesh @mesh = <["x"=3]>

// Two feature groups cannot be dealt to 3 devices: the handler declines and the op takes
// the fallback (whole op, then the result is cut).
// CHECK-LABEL: func @conv_groups_declined
// CHECK: hlo.convolution %arg0, %arg1, {{.*}} feature_group_count = 2 : (tensor<1x8x4xf32>, tensor<3x2x6xf32>) -> tensor<1x6x6xf32>
// CHECK: hlo.dynamic_slice {{.*}} -> tensor<1x6x2xf32>
func.func @conv_groups_declined(%x: tensor<1x8x4xf32>, %k: tensor<3x2x6xf32>) -> (tensor<1x6x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}, {"x"}]>}) {
  %0 = hlo.convolution %x, %k, dims = [b, 0, f]x[0, i, o]->[b, 0, f], feature_group_count = 2 {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{}, {}, {"x"}]>]>} : (tensor<1x8x4xf32>, tensor<3x2x6xf32>) -> tensor<1x6x6xf32>
  return %0 : tensor<1x6x6xf32>
}

// -----

// A kernel gradient: the "kernel" (an output gradient as tall as the input) is split along
// H like the input, the result's H (3 positions) is whole. Each shard takes one row of
// halo from each neighbour (collective_permute both ways), convolves its 8 kernel rows
// with its 10 input rows, and one all_reduce sums the partial kernel gradients; nothing is
// gathered.
tessel.mesh @mesh = <["x"=2]>
// CHECK-LABEL: func.func @kernel_gradient
// CHECK-DAG: tessel.collective_permute %{{.*}} over @mesh ["x"] shift = 1 : tensor<4x1x16x2xf32>
// CHECK-DAG: tessel.collective_permute %{{.*}} over @mesh ["x"] shift = -1 : tensor<4x1x16x2xf32>
// CHECK: %[[C:.*]] = hlo.convolution %{{.*}}, %{{.*}}, dims = [f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f], padding = {{\[\[}}0, 0], [1, 1]] : (tensor<4x10x16x2xf32>, tensor<4x8x16x3xf32>) -> tensor<3x3x2x3xf32>
// CHECK-NEXT: tessel.all_reduce %[[C]] over @mesh ["x"] kind = sum : tensor<3x3x2x3xf32>
// CHECK-NOT: tessel.all_gather
func.func @kernel_gradient(%x: tensor<4x16x16x2xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {"x"}, {}, {}]>},
                           %g: tensor<4x16x16x3xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {"x"}, {}, {}]>})
    -> (tensor<3x3x2x3xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}, {}, {}]>}) {
  %0 = hlo.convolution %x, %g, dims = [f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f], padding = [[1, 1], [1, 1]] {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{}, {}, {}, {}]>]>} : (tensor<4x16x16x2xf32>, tensor<4x16x16x3xf32>) -> tensor<3x3x2x3xf32>
  return %0 : tensor<3x3x2x3xf32>
}

// -----

// Input features split over "x" (both operands), the output (2 channels, smaller than the
// input) wanted split by batch: computing with the features split and reduce-scattering
// the partial sums onto the batch sends 3/4 of the output; resharding the input to the batch
// split (an all_to_all of the activation) and gathering the kernel would send more.
tessel.mesh @mesh = <["x"=4]>
// CHECK-LABEL: func.func @feature_split_reduce_scatter
// CHECK-NOT: tessel.all_to_all
// CHECK-NOT: tessel.all_gather
// CHECK: %[[C:.*]] = hlo.convolution %arg0, %arg1, {{.*}} : (tensor<8x6x6x6xf32>, tensor<1x1x6x2xf32>) -> tensor<8x6x6x2xf32>
// CHECK-NEXT: tessel.reduce_scatter %[[C]] over @mesh ["x"] dim = 0 kind = sum : (tensor<8x6x6x2xf32>) -> tensor<2x6x6x2xf32>
// CHECK-NOT: tessel.all_gather
func.func @feature_split_reduce_scatter(
    %x: tensor<8x6x6x24xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}, {}, {"x"}]>},
    %k: tensor<1x1x24x2xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}, {"x"}, {}]>})
    -> (tensor<8x6x6x2xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}, {}, {}]>}) {
  %0 = hlo.convolution %x, %k, dims = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f] {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{"x"}, {}, {}, {}]>]>} : (tensor<8x6x6x24xf32>, tensor<1x1x24x2xf32>) -> tensor<8x6x6x2xf32>
  return %0 : tensor<8x6x6x2xf32>
}
