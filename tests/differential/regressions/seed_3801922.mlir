// From differential fuzz seed 3801922.
// Failed: weight-update sharding split the update over the axis propagation had already split the
// reshaped convolution gradient over, so a reshard target used that axis twice and its
// all_to_all plan moved the axis back and forth without end (unbounded memory).
// options: weight-update-sharding combine-collectives random-choices=3801922
tessel.mesh @mesh = <["x"=4]>
func.func @main(%a0: tensor<2x8x4xi32> {tessel.sharding = #tessel.sharding<@mesh, [{?}, {"x"}, {}]>}, %a1: tensor<8x4x3xi32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}, {}]>}, %a2: tensor<4x1xi32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}]>}, %a3: tensor<3xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}]>}) -> (tensor<3xi32>, tensor<4x1xi32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {"x"}]>}) {
  %v0 = hlo.popcnt %a0 : tensor<2x8x4xi32>
  %v1 = hlo.convolution %a0, %a1, dims = [0, f, b]x[i, o, 0]->[f, b, 0], window_strides = [2], padding = [[1, 0]], lhs_dilation = [1], rhs_dilation = [1], feature_group_count = 1, batch_group_count = 4 : (tensor<2x8x4xi32>, tensor<8x4x3xi32>) -> tensor<4x1x1xi32>
  %v2 = hlo.reshape %v1 : (tensor<4x1x1xi32>) -> tensor<4x1xi32>
  %v3 = hlo.compare GT, %v2, %a2 : tensor<4x1xi32>
  %v4 = hlo.select %v3, %a2, %v2 : tensor<4x1xi1>, tensor<4x1xi32>
  %v5 = hlo.constant dense<-2147483648> : tensor<i32>
  %v6 = hlo.reduce(%v4) init(%v5) dimensions = [0] : (tensor<4x1xi32>, tensor<i32>) -> tensor<1xi32> reducer {
  ^bb0(%v7_a: tensor<i32>, %v7_b: tensor<i32>):
    %v7_s = hlo.max %v7_a, %v7_b : tensor<i32>
    hlo.return %v7_s : tensor<i32>
  }
  %v8 = hlo.gather %v6[%a3], slice_sizes = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1 : (tensor<1xi32>, tensor<3xi32>) -> tensor<3xi32>
  return %v8, %v4 : tensor<3xi32>, tensor<4x1xi32>
}
