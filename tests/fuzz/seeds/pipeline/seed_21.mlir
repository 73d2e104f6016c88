// Differential fuzz seed 21.
// options: random-choices=21
// seed 21
tessel.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%a0: tensor<3xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x", "y"}]>}, %a1: tensor<3xf32>) -> (tensor<4xf32>, tensor<3xf32>) {
  %v0 = hlo.convert %a0 : (tensor<3xf32>) -> tensor<3xi32>
  %v2 = hlo.convert %a1 : (tensor<3xf32>) -> tensor<3xi32>
  %v1 = hlo.or %v0, %v2 : tensor<3xi32>
  %v3 = hlo.convert %v1 : (tensor<3xi32>) -> tensor<3xf32>
  %v4 = hlo.constant dense<0.0> : tensor<f32>
  %v5 = hlo.pad %v3, %v4, low = [-1], high = [0], interior = [1] : (tensor<3xf32>, tensor<f32>) -> tensor<4xf32>
  %v6 = tessel.sharding_constraint %v5 <@mesh, [{"x"}], replicated={"y"}> : tensor<4xf32>
  return %v6, %v3 : tensor<4xf32>, tensor<3xf32>
}
