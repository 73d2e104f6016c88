// Differential fuzz seed 7.
// options: weight-update-sharding
// seed 7
tessel.mesh @mesh = <["x"=2, "y"=4]>
func.func @main(%a0: tensor<5x2xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"y"}, {"x"}]>}, %a1: tensor<2x2xi32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {"x", "y"}]>}, %a2: tensor<5x1xi32>, %a3: tensor<i32> {tessel.sharding = #tessel.sharding<@mesh, []>}) -> (tensor<i32> {tessel.sharding = #tessel.sharding<@mesh, []>}, tensor<2x1xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>}) {
  %v0 = hlo.constant dense<0> : tensor<i32>
  %v1 = hlo.pad %a0, %v0, low = [-1, 0], high = [2, 0], interior = [1, 0] : (tensor<5x2xi32>, tensor<i32>) -> tensor<10x2xi32>
  %v2 = hlo.constant dense<2> : tensor<i32>
  %v4 = hlo.select_and_scatter(%a0, %a1, %v2) window_dimensions = [1, 1], window_strides = [3, 1], padding = [[1, 0], [0, 0]] : (tensor<5x2xi32>, tensor<2x2xi32>, tensor<i32>) -> tensor<5x2xi32> select {
  ^bb0(%v3_a: tensor<i32>, %v3_b: tensor<i32>):
    %v3_p = hlo.compare GE, %v3_a, %v3_b : tensor<i32>
    hlo.return %v3_p : tensor<i1>
  } scatter {
  ^bb0(%v5_a: tensor<i32>, %v5_b: tensor<i32>):
    %v5_s = hlo.add %v5_a, %v5_b : tensor<i32>
    hlo.return %v5_s : tensor<i32>
  }
  %v6 = hlo.dot_general %a0, %a2, lhs_contract = [0], rhs_contract = [0] : (tensor<5x2xi32>, tensor<5x1xi32>) -> tensor<2x1xi32>
  %v7 = hlo.constant dense<-2147483648> : tensor<i32>
  %v8 = hlo.reduce_window(%v6) init(%v7) window_dimensions = [1, 2], window_strides = [1, 1], base_dilations = [1, 1], window_dilations = [1, 1], padding = [[0, 0], [1, 2]] : (tensor<2x1xi32>, tensor<i32>) -> tensor<2x3xi32> reducer {
  ^bb0(%v9_a: tensor<i32>, %v9_b: tensor<i32>):
    %v9_s = hlo.max %v9_a, %v9_b : tensor<i32>
    hlo.return %v9_s : tensor<i32>
  }
  %v10 = hlo.constant dense<0> : tensor<i32>
  %v11 = hlo.reduce(%v8) init(%v10) dimensions = [0, 1] : (tensor<2x3xi32>, tensor<i32>) -> tensor<i32> reducer {
  ^bb0(%v12_a: tensor<i32>, %v12_b: tensor<i32>):
    %v12_s = hlo.add %v12_a, %v12_b : tensor<i32>
    hlo.return %v12_s : tensor<i32>
  }
  %v13 = tessel.sharding_constraint %v11 <@mesh, [], unreduced={"y"}> : tensor<i32>
  %v14 = hlo.constant dense<3> : tensor<i32>
  %v15 = hlo.broadcast_in_dim %v14, dims = [] : (tensor<i32>) -> tensor<i32>
  %v16 = hlo.shift_right_arithmetic %v13, %v15 : tensor<i32>
  %v17 = hlo.constant dense<-1000> : tensor<i32>
  %v18 = hlo.constant dense<1000> : tensor<i32>
  %v19 = hlo.clamp %v17, %v16, %v18 : tensor<i32>, tensor<i32>, tensor<i32>
  %v20 = hlo.convert %v19 : (tensor<i32>) -> tensor<f32>
  %v22 = hlo.constant dense<2.0> : tensor<f32>
  %v23 = hlo.broadcast_in_dim %v22, dims = [] : (tensor<f32>) -> tensor<f32>
  %v21 = hlo.mul %v20, %v23 : tensor<f32>
  %v24 = hlo.convert %v21 : (tensor<f32>) -> tensor<i32>
  return %v24, %v6 : tensor<i32>, tensor<2x1xi32>
}
