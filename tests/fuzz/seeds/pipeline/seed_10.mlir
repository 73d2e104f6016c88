// Differential fuzz seed 10.
// options: weight-update-sharding combine-collectives hierarchical-all-reduce random-choices=10
// seed 10
tessel.mesh @mesh = <["x"=5]>
func.func @main(%a0: tensor<4x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>}, %a1: tensor<6x3xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>}, %a2: tensor<1x1xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {"x"}]>}, %a3: tensor<2x8x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}, {}]>}, %a4: tensor<4x3xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x", ?}, {?}p1]>}, %a5: tensor<i32>) -> (tensor<1xf32>, tensor<6x3xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}]>}) {
  %v0 = hlo.dot_general %a0, %a1, lhs_contract = [1], rhs_contract = [0] : (tensor<4x6xf32>, tensor<6x3xf32>) -> tensor<4x3xf32>
  %v1 = hlo.compare LE, %v0, %a4 : tensor<4x3xf32>
  %v2 = hlo.constant dense<0.0> : tensor<f32>
  %v3 = hlo.broadcast_in_dim %v2, dims = [] : (tensor<f32>) -> tensor<4x3xf32>
  %v4 = hlo.compare LT, %v0, %v3 : tensor<4x3xf32>
  %v5 = hlo.or %v1, %v4 : tensor<4x3xi1>
  %v7 = hlo.convert %v5 : (tensor<4x3xi1>) -> tensor<4x3xf32>
  %v6 = hlo.add %v0, %v7 : tensor<4x3xf32>
  %v9 = hlo.case %a5 branches {
    %v8 = hlo.add %v6, %v0 : tensor<4x3xf32>
    hlo.return %v8 : tensor<4x3xf32>
  }, {
    hlo.return %v6 : tensor<4x3xf32>
  } : (tensor<i32>) -> tensor<4x3xf32>
  %v10 = hlo.constant dense<0.0> : tensor<f32>
  %v11 = hlo.reduce(%v9) init(%v10) dimensions = [1] : (tensor<4x3xf32>, tensor<f32>) -> tensor<4xf32> reducer {
  ^bb0(%v12_a: tensor<f32>, %v12_b: tensor<f32>):
    %v12_s = hlo.add %v12_a, %v12_b : tensor<f32>
    hlo.return %v12_s : tensor<f32>
  }
  %v13 = hlo.slice %v11 [2:3:2] : (tensor<4xf32>) -> tensor<1xf32>
  %v14 = hlo.dot_general %a0, %v9, lhs_contract = [0], rhs_contract = [0] : (tensor<4x6xf32>, tensor<4x3xf32>) -> tensor<6x3xf32>
  %v15 = hlo.constant dense<1.0> : tensor<f32>
  %v16 = hlo.broadcast_in_dim %v15, dims = [] : (tensor<f32>) -> tensor<6x3xf32>
  %v17 = hlo.mul %v14, %v16 : tensor<6x3xf32>
  %v18 = hlo.sub %a1, %v17 : tensor<6x3xf32>
  return %v13, %v18 : tensor<1xf32>, tensor<6x3xf32>
}
