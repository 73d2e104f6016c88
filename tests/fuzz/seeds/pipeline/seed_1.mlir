// Differential fuzz seed 1.
// options: weight-update-sharding random-choices=1
// seed 1
tessel.mesh @mesh = <["x"=7]>
func.func @main(%a0: tensor<2xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}]>}) -> (tensor<2xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}]>}) {
  %v0 = tessel.sharding_constraint %a0 <@mesh, [{}], replicated={"x"}> : tensor<2xi32>
  %v1 = hlo.not %v0 : tensor<2xi32>
  %v2 = hlo.constant dense<1> : tensor<i32>
  %v3 = hlo.dynamic_slice %v1, %v2, sizes = [2] : (tensor<2xi32>, tensor<i32>) -> tensor<2xi32>
  return %v3 : tensor<2xi32>
}
