// Differential fuzz seed 16.
// options: weight-update-sharding combine-collectives
// seed 16
tessel.mesh @mesh = <["x"=3, "y"=2]>
func.func @main(%a0: tensor<6x5x4xi32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {?}, {"y"}]>}, %a1: tensor<i32> {tessel.sharding = #tessel.sharding<@mesh, []>}, %a2: tensor<6x5x4xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {?}, {}p1]>}, %a3: tensor<5x3x2xi32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {?}, {"x", "y"}]>}, %a4: tensor<13x2x4xi32> {tessel.sharding = #tessel.sharding<@mesh, [{?}p2, {}, {"y", "x"}]>}, %a5: tensor<13x3xi32>) -> (tensor<3xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"y", "x"}]>}) {
  %v1 = hlo.case %a1 branches {
    hlo.return %a0 : tensor<6x5x4xi32>
  }, {
    %v0 = hlo.add %a0, %a2 : tensor<6x5x4xi32>
    hlo.return %v0 : tensor<6x5x4xi32>
  } : (tensor<i32>) -> tensor<6x5x4xi32>
  %v2 = hlo.concatenate %v1, %a2, dim = 0 : (tensor<6x5x4xi32>, tensor<6x5x4xi32>) -> tensor<12x5x4xi32>
  %v3 = hlo.constant dense<0> : tensor<i32>
  %v4 = hlo.reduce_window(%v2) init(%v3) window_dimensions = [1, 2, 1], window_strides = [1, 3, 1], base_dilations = [1, 1, 1], window_dilations = [1, 1, 2], padding = [[0, 1], [0, 2], [0, 0]] : (tensor<12x5x4xi32>, tensor<i32>) -> tensor<13x2x4xi32> reducer {
  ^bb0(%v5_a: tensor<i32>, %v5_b: tensor<i32>):
    %v5_s = hlo.add %v5_a, %v5_b : tensor<i32>
    hlo.return %v5_s : tensor<i32>
  }
  %v6 = hlo.convolution %a2, %a3, dims = [b, f, 0]x[i, o, 0]->[f, 0, b], window_strides = [1], padding = [[0, 0]], lhs_dilation = [1], rhs_dilation = [1], feature_group_count = 1, batch_group_count = 3 : (tensor<6x5x4xi32>, tensor<5x3x2xi32>) -> tensor<3x3x2xi32>
  %v7 = hlo.reverse %v6, dims = [1] : tensor<3x3x2xi32>
  %v8 = hlo.concatenate %v4, %a4, dim = 0 : (tensor<13x2x4xi32>, tensor<13x2x4xi32>) -> tensor<26x2x4xi32>
  %v9 = hlo.constant dense<-2147483648> : tensor<i32>
  %v10 = hlo.reduce(%v4) init(%v9) dimensions = [1, 2] : (tensor<13x2x4xi32>, tensor<i32>) -> tensor<13xi32> reducer {
  ^bb0(%v11_a: tensor<i32>, %v11_b: tensor<i32>):
    %v11_s = hlo.max %v11_a, %v11_b : tensor<i32>
    hlo.return %v11_s : tensor<i32>
  }
  %v12 = hlo.dot_general %v10, %a5, lhs_contract = [0], rhs_contract = [0] : (tensor<13xi32>, tensor<13x3xi32>) -> tensor<3xi32>
  return %v12 : tensor<3xi32>
}
