// Differential fuzz seed 12.
// options: combine-collectives
// seed 12
tessel.mesh @mesh = <["x"=1, "y"=3]>
func.func @main(%a0: tensor<7x8xf32>, %a1: tensor<8x2xf32>, %a2: tensor<8x5xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}]>}, %a3: tensor<3x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {"y"}]>}, %a4: tensor<6x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {"x"}]>}) -> (tensor<6x6xf32>) {
  %v0 = hlo.constant dense<3.0> : tensor<f32>
  %v1 = hlo.reduce_window(%a0) init(%v0) window_dimensions = [1, 3], window_strides = [3, 1], base_dilations = [1, 1], window_dilations = [2, 1], padding = [[0, 0], [0, 0]] : (tensor<7x8xf32>, tensor<f32>) -> tensor<3x6xf32> reducer {
  ^bb0(%v2_a: tensor<f32>, %v2_b: tensor<f32>):
    %v2_s = hlo.add %v2_a, %v2_b : tensor<f32>
    hlo.return %v2_s : tensor<f32>
  }
  %v4 = hlo.constant dense<0> : tensor<i32>
  %v3:2 = hlo.while(%v3_i = %v4, %v3_c0 = %a0) : tensor<i32>, tensor<7x8xf32>
  cond {
    %v8 = hlo.constant dense<3> : tensor<i32>
    %v9 = hlo.compare LT, %v3_i, %v8 : tensor<i32>
    hlo.return %v9 : tensor<i1>
  } do {
    %v5 = hlo.constant dense<1> : tensor<i32>
    %v6 = hlo.add %v3_i, %v5 : tensor<i32>
    %v7 = hlo.abs %v3_c0 : tensor<7x8xf32>
    hlo.return %v6, %v7 : tensor<i32>, tensor<7x8xf32>
  }
  %v10 = hlo.dot_general %v3#1, %a1, lhs_contract = [1], rhs_contract = [0] : (tensor<7x8xf32>, tensor<8x2xf32>) -> tensor<7x2xf32>
  %v12 = hlo.constant dense<0> : tensor<i32>
  %v11:2 = hlo.while(%v11_i = %v12, %v11_c0 = %a0) : tensor<i32>, tensor<7x8xf32>
  cond {
    %v19 = hlo.constant dense<2> : tensor<i32>
    %v20 = hlo.compare LT, %v11_i, %v19 : tensor<i32>
    hlo.return %v20 : tensor<i1>
  } do {
    %v13 = hlo.constant dense<1> : tensor<i32>
    %v14 = hlo.add %v11_i, %v13 : tensor<i32>
    %v16 = hlo.convert %v11_i : (tensor<i32>) -> tensor<f32>
    %v17 = hlo.broadcast_in_dim %v16, dims = [] : (tensor<f32>) -> tensor<7x8xf32>
    %v15 = hlo.add %v11_c0, %v17 : tensor<7x8xf32>
    %v18 = hlo.abs %v15 : tensor<7x8xf32>
    hlo.return %v14, %v18 : tensor<i32>, tensor<7x8xf32>
  }
  %v21 = hlo.dot_general %v11#1, %a2, lhs_contract = [1], rhs_contract = [0] : (tensor<7x8xf32>, tensor<8x5xf32>) -> tensor<7x5xf32>
  %v22 = tessel.sharding_constraint %v1 <@mesh, [{"y"}, {"x"}]> : tensor<3x6xf32>
  %v23 = tessel.sharding_constraint %a3 <@mesh, [{"x"}, {"y"}]> : tensor<3x6xf32>
  %v24 = hlo.dot_general %v22, %v23, lhs_contract = [0], rhs_contract = [0] : (tensor<3x6xf32>, tensor<3x6xf32>) -> tensor<6x6xf32>
  %v25 = hlo.compare LE, %v24, %a4 : tensor<6x6xf32>
  %v26 = hlo.constant dense<0.0> : tensor<f32>
  %v27 = hlo.broadcast_in_dim %v26, dims = [] : (tensor<f32>) -> tensor<6x6xf32>
  %v28 = hlo.compare EQ, %v24, %v27 : tensor<6x6xf32>
  %v29 = hlo.or %v25, %v28 : tensor<6x6xi1>
  %v31 = hlo.convert %v29 : (tensor<6x6xi1>) -> tensor<6x6xf32>
  %v30 = hlo.add %v24, %v31 : tensor<6x6xf32>
  return %v30 : tensor<6x6xf32>
}
