// Differential fuzz seed 4.
// options: weight-update-sharding combine-collectives
// seed 4
tessel.mesh @mesh = <["x"=4, "y"=4]>
func.func @main(%a0: tensor<7x2x5xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}, {?}]>}) -> (tensor<7x3x5xi32>, tensor<7x2x5xi32>) {
  %v0 = hlo.constant dense<-1000> : tensor<i32>
  %v1 = hlo.constant dense<1000> : tensor<i32>
  %v2 = hlo.clamp %v0, %a0, %v1 : tensor<i32>, tensor<7x2x5xi32>, tensor<i32>
  %v3 = hlo.convert %v2 : (tensor<7x2x5xi32>) -> tensor<7x2x5xf32>
  %v5 = hlo.constant dense<2.0> : tensor<f32>
  %v6 = hlo.broadcast_in_dim %v5, dims = [] : (tensor<f32>) -> tensor<7x2x5xf32>
  %v4 = hlo.mul %v3, %v6 : tensor<7x2x5xf32>
  %v7 = hlo.convert %v4 : (tensor<7x2x5xf32>) -> tensor<7x2x5xi32>
  %v8 = hlo.constant dense<0> : tensor<i32>
  %v9 = hlo.pad %v7, %v8, low = [0, 2, 0], high = [0, -1, 0], interior = [0, 0, 0] : (tensor<7x2x5xi32>, tensor<i32>) -> tensor<7x3x5xi32>
  return %v9, %a0 : tensor<7x3x5xi32>, tensor<7x2x5xi32>
}
