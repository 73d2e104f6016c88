// Differential fuzz seed 24.
// options: combine-collectives
// seed 24
tessel.mesh @mesh = <["x"=3, "y"=2]>
func.func @main(%a0: tensor<2x5xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"x", "y"}, {?}]>}, %a1: tensor<3xi32> {tessel.sharding = #tessel.sharding<@mesh, [{}p0]>}, %a2: tensor<1x3xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"y", "x"}, {}]>}) -> (tensor<1x3xi32>, tensor<1x3xi32>) {
  %v0 = hlo.broadcast_in_dim %a1, dims = [1] : (tensor<3xi32>) -> tensor<1x3xi32>
  %v1 = hlo.constant dense<0> : tensor<i32>
  %v2 = hlo.broadcast_in_dim %v1, dims = [] : (tensor<i32>) -> tensor<1x3xi32>
  %v3 = hlo.shift_left %v0, %v2 : tensor<1x3xi32>
  return %v3, %v0 : tensor<1x3xi32>, tensor<1x3xi32>
}
