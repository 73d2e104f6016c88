// Differential fuzz seed 14.
// options: combine-collectives random-choices=14
// seed 14
tessel.mesh @mesh = <["x"=2]>
func.func @main(%a0: tensor<3x8xi32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}]>}, %a1: tensor<6x8xi32> {tessel.sharding = #tessel.sharding<@mesh, [{}p2, {"x"}]>}, %a2: tensor<8x1xi32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}p2]>}, %a3: tensor<6x3xi32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}]>}, %a4: tensor<6x3xi32>, %a5: tensor<1x1xi32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {"x"}]>}) -> (tensor<5x1x3xi32>) {
  %v0 = hlo.dot_general %a1, %a2, lhs_contract = [1], rhs_contract = [0] : (tensor<6x8xi32>, tensor<8x1xi32>) -> tensor<6x1xi32>
  %v1 = hlo.dot_general %v0, %a3, lhs_contract = [0], rhs_contract = [0] : (tensor<6x1xi32>, tensor<6x3xi32>) -> tensor<1x3xi32>
  %v2 = hlo.max %a3, %a4 : tensor<6x3xi32>
  %v3 = hlo.gather %v2[%a5], slice_sizes = [5, 3], offset_dims = [0, 2], start_index_map = [0], index_vector_dim = 1 : (tensor<6x3xi32>, tensor<1x1xi32>) -> tensor<5x1x3xi32>
  return %v3 : tensor<5x1x3xi32>
}
