// Differential fuzz seed 8.
// options: combine-collectives
// seed 8
tessel.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%a0: tensor<3x5xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x", ?}p0, {"y"}]>}, %a1: tensor<3x5xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}p2, {"y"}]>}, %a2: tensor<3x5xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"y", ?}, {"x", ?}]>}, %a3: tensor<3x5xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {"y", ?}]>}, %a4: tensor<5x5xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"y"}, {}], replicated={"x"}>}, %a5: tensor<3x5xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"y"}p0, {"x"}]>}) -> (tensor<3x5xf32>) {
  %v0 = hlo.sub %a0, %a1 : tensor<3x5xf32>
  %v1 = hlo.clamp %a2, %a1, %a2 : tensor<3x5xf32>, tensor<3x5xf32>, tensor<3x5xf32>
  %v2 = hlo.concatenate %v1, %a3, dim = 0 : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<6x5xf32>
  %v3 = hlo.dot_general %v1, %a4, lhs_contract = [1], rhs_contract = [0] : (tensor<3x5xf32>, tensor<5x5xf32>) -> tensor<3x5xf32>
  tessel.sharding_group %v3, %a5 group_id = 0 : tensor<3x5xf32>, tensor<3x5xf32>
  return %a5 : tensor<3x5xf32>
}
