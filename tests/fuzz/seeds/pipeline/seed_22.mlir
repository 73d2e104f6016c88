// Differential fuzz seed 22.
// options: weight-update-sharding combine-collectives random-choices=22
// seed 22
tessel.mesh @mesh = <["x"=2]>
func.func @main(%a0: tensor<3xi32> {tessel.sharding = #tessel.sharding<@mesh, [{}]>}, %a1: tensor<5x1xi32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {"x"}]>}, %a2: tensor<3xi32> {tessel.sharding = #tessel.sharding<@mesh, [{?}p0]>}, %a3: tensor<3xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}]>}, %a4: tensor<4x7x1x4xi32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {?}, {}p1, {}]>}, %a5: tensor<4x2x2x2xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}, {?}, {}]>}) -> (tensor<3xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}]>}, tensor<4x7x1x4xi32>) {
  %v0 = hlo.sub %a0, %a2 : tensor<3xi32>
  %v1 = hlo.constant dense<-1> : tensor<i32>
  %v2 = hlo.dynamic_update_slice %v0, %a3, %v1 : (tensor<3xi32>, tensor<3xi32>, tensor<i32>) -> tensor<3xi32>
  %v3 = hlo.convolution %a4, %a5, dims = [f, 1, b, 0]x[i, o, 0, 1]->[1, f, b, 0], window_strides = [3, 1], padding = [[0, 0], [-1, 0]], lhs_dilation = [1, 1], rhs_dilation = [1, 2], feature_group_count = 1, batch_group_count = 1 : (tensor<4x7x1x4xi32>, tensor<4x2x2x2xi32>) -> tensor<4x2x1x1xi32>
  %v4:2 = hlo.top_k %a0, k = 3 smallest : tensor<3xi32>
  %v5 = hlo.mul %v4#1, %a0 : tensor<3xi32>
  %v6 = hlo.constant dense<0> : tensor<i32>
  %v11:2 = hlo.case %v6 branches {
    %v7 = hlo.add %v5, %v5 : tensor<3xi32>
    %v8 = hlo.mul %v0, %v4#1 : tensor<3xi32>
    hlo.return %v7, %v8 : tensor<3xi32>, tensor<3xi32>
  }, {
    %v9 = hlo.max %v5, %a2 : tensor<3xi32>
    %v10 = hlo.mul %v0, %v0 : tensor<3xi32>
    hlo.return %v9, %v10 : tensor<3xi32>, tensor<3xi32>
  } : (tensor<i32>) -> (tensor<3xi32>, tensor<3xi32>)
  %v13 = hlo.constant dense<0> : tensor<i32>
  %v12:3 = hlo.while(%v12_i = %v13, %v12_c0 = %v4#0, %v12_c1 = %v4#1) : tensor<i32>, tensor<3xi32>, tensor<3xi32>
  cond {
    %v18 = hlo.constant dense<1> : tensor<i32>
    %v19 = hlo.compare LT, %v12_i, %v18 : tensor<i32>
    hlo.return %v19 : tensor<i1>
  } do {
    %v14 = hlo.constant dense<1> : tensor<i32>
    %v15 = hlo.add %v12_i, %v14 : tensor<i32>
    %v16 = hlo.add %v12_c0, %v12_c0 : tensor<3xi32>
    %v17 = hlo.mul %v12_c1, %v12_c1 : tensor<3xi32>
    hlo.return %v15, %v16, %v17 : tensor<i32>, tensor<3xi32>, tensor<3xi32>
  }
  %v20 = hlo.min %v12#2, %v12#2 : tensor<3xi32>
  return %v20, %a4 : tensor<3xi32>, tensor<4x7x1x4xi32>
}
