// Differential fuzz seed 3.
// options: 
// seed 3
tessel.mesh @mesh = <["x"=4]>
func.func @main(%a0: tensor<5x8x1xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}, {}]>}, %a1: tensor<3x6x4xi32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}, {"x"}]>}, %a2: tensor<5x8x1xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"x":(2)2, ?}, {}, {}]>}) -> (tensor<5x8x1xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"x":(2)2}, {}p1, {}]>}) {
  %v0 = hlo.popcnt %a1 : tensor<3x6x4xi32>
  %v1 = hlo.min %a0, %a2 : tensor<5x8x1xi32>
  return %v1 : tensor<5x8x1xi32>
}
