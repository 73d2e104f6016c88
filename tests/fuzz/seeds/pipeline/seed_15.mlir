// Differential fuzz seed 15.
// options: hierarchical-all-reduce
// seed 15
tessel.mesh @mesh = <["x"=5]>
func.func @main(%a0: tensor<2x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{?}, {}]>}, %a1: tensor<4x1xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>}, %a2: tensor<7x2x5xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}, {"x"}]>}) -> (tensor<6x1xf32>, tensor<4x1xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}p1]>}) {
  %v0 = hlo.dot_general %a0, %a1, lhs_contract = [1], rhs_contract = [0] : (tensor<2x4xf32>, tensor<4x1xf32>) -> tensor<2x1xf32>
  %v1 = hlo.iota dim = 2 : tensor<7x2x5xf32>
  %v2 = hlo.add %a2, %v1 : tensor<7x2x5xf32>
  %v3 = hlo.constant dense<0.0> : tensor<f32>
  %v4 = hlo.pad %v0, %v3, low = [2, 0], high = [-1, 0], interior = [1, 0] : (tensor<2x1xf32>, tensor<f32>) -> tensor<4x1xf32>
  %v5 = hlo.constant dense<0.0> : tensor<f32>
  %v6 = hlo.pad %v4, %v5, low = [2, 0], high = [0, 0], interior = [0, 0] : (tensor<4x1xf32>, tensor<f32>) -> tensor<6x1xf32>
  %v7 = hlo.dot_general %a0, %v0, lhs_contract = [0], rhs_contract = [0] : (tensor<2x4xf32>, tensor<2x1xf32>) -> tensor<4x1xf32>
  %v8 = hlo.constant dense<2.0> : tensor<f32>
  %v9 = hlo.broadcast_in_dim %v8, dims = [] : (tensor<f32>) -> tensor<4x1xf32>
  %v10 = hlo.mul %v7, %v9 : tensor<4x1xf32>
  %v11 = hlo.sub %a1, %v10 : tensor<4x1xf32>
  return %v6, %v11 : tensor<6x1xf32>, tensor<4x1xf32>
}
