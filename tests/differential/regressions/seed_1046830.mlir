// Reduced from differential fuzz seed 1046830.
// Fails at verify: the partitioned module does not verify:
// options: combine-collectives
module {
  tessel.mesh @mesh = <["x"=2, "y"=3, "z"=2]>
  func.func @main(%arg0: tensor<8x2xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"y"}, {"x"}]>}, %arg1: tensor<2x4xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"y"}, {"x"}]>}, %arg2: tensor<2x1xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"x", ?}, {"y", "z"}]>}, %arg3: tensor<2x4xi32>, %arg4: tensor<8x4xi32>) -> (tensor<4x1xi32>, tensor<2x4xi32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {"y"}]>}) {
    %0 = hlo.dot_general %arg1, %arg2, lhs_contract = [0], rhs_contract = [0] : (tensor<2x4xi32>, tensor<2x1xi32>) -> tensor<4x1xi32>
    %1 = hlo.dot_general %arg0, %arg4, lhs_contract = [0], rhs_contract = [0] : (tensor<8x2xi32>, tensor<8x4xi32>) -> tensor<2x4xi32>
    %2 = hlo.mul %1, %arg3 : tensor<2x4xi32>
    %3 = hlo.sub %arg1, %2 : tensor<2x4xi32>
    return %0, %3 : tensor<4x1xi32>, tensor<2x4xi32>
  }
}
