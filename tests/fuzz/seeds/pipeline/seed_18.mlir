// Differential fuzz seed 18.
// options: combine-collectives random-choices=18
// seed 18
tessel.mesh @mesh = <["x"=3, "y"=2]>
func.func @main(%a0: tensor<6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x", "y"}]>}, %a1: tensor<8x7xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}]>}, %a2: tensor<8x2xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {"x", "y"}]>}, %a3: tensor<6x1xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {"y"}]>}, %a4: tensor<i32> {tessel.sharding = #tessel.sharding<@mesh, []>}, %a5: tensor<3x2xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {"y"}p0]>}) -> (tensor<3x2xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {"y", ?}p0]>}) {
  %v0 = hlo.dot_general %a1, %a2, lhs_contract = [0], rhs_contract = [0] : (tensor<8x7xf32>, tensor<8x2xf32>) -> tensor<7x2xf32>
  %v2 = hlo.constant dense<0.0> : tensor<f32>
  %v3 = hlo.constant dense<6.0> : tensor<f32>
  %v1 = hlo.clamp %v2, %v0, %v3 : tensor<f32>, tensor<7x2xf32>, tensor<f32>
  %v4 = hlo.constant dense<0.0> : tensor<f32>
  %v6 = hlo.select_and_scatter(%a2, %a3, %v4) window_dimensions = [3, 2], window_strides = [1, 1], padding = [[0, 0], [0, 0]] : (tensor<8x2xf32>, tensor<6x1xf32>, tensor<f32>) -> tensor<8x2xf32> select {
  ^bb0(%v5_a: tensor<f32>, %v5_b: tensor<f32>):
    %v5_p = hlo.compare LE, %v5_a, %v5_b : tensor<f32>
    hlo.return %v5_p : tensor<i1>
  } scatter {
  ^bb0(%v7_a: tensor<f32>, %v7_b: tensor<f32>):
    %v7_s = hlo.add %v7_a, %v7_b : tensor<f32>
    hlo.return %v7_s : tensor<f32>
  }
  %v8 = hlo.constant dense<0xFF800000> : tensor<f32>
  %v9 = hlo.reduce(%v6) init(%v8) dimensions = [0] : (tensor<8x2xf32>, tensor<f32>) -> tensor<2xf32> reducer {
  ^bb0(%v10_a: tensor<f32>, %v10_b: tensor<f32>):
    %v10_s = hlo.max %v10_a, %v10_b : tensor<f32>
    hlo.return %v10_s : tensor<f32>
  }
  %v11 = hlo.floor %v1 : tensor<7x2xf32>
  %v14 = hlo.case %a4 branches {
    %v12 = hlo.abs %a3 : tensor<6x1xf32>
    hlo.return %v12 : tensor<6x1xf32>
  }, {
    %v13 = hlo.abs %a3 : tensor<6x1xf32>
    hlo.return %v13 : tensor<6x1xf32>
  } : (tensor<i32>) -> tensor<6x1xf32>
  %v15 = hlo.reshape %a0 : (tensor<6xf32>) -> tensor<3x2xf32>
  %v16 = hlo.convert %v15 : (tensor<3x2xf32>) -> tensor<3x2xi32>
  %v18 = hlo.convert %a5 : (tensor<3x2xf32>) -> tensor<3x2xi32>
  %v17 = hlo.and %v16, %v18 : tensor<3x2xi32>
  %v19 = hlo.convert %v17 : (tensor<3x2xi32>) -> tensor<3x2xf32>
  return %v19 : tensor<3x2xf32>
}
