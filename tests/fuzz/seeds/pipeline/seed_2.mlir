// Differential fuzz seed 2.
// options: combine-collectives random-choices=2
// seed 2
tessel.mesh @mesh = <["x"=1]>
func.func @main(%a0: tensor<4x1xi32> {tessel.sharding = #tessel.sharding<@mesh, [{}p0, {}]>}, %a1: tensor<1x6xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>}, %a2: tensor<6x2x7xi32>, %a3: tensor<6xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}p0]>}, %a4: tensor<2x6x4xi32>) -> (tensor<1x1x2xi32>, tensor<1x6xi32>) {
  %v0 = hlo.dot_general %a0, %a1, lhs_contract = [1], rhs_contract = [0] : (tensor<4x1xi32>, tensor<1x6xi32>) -> tensor<4x6xi32>
  %v1 = hlo.constant dense<[[0], [1]]> : tensor<2x1xi32>
  %v2 = hlo.gather %a2[%v1], slice_sizes = [1, 2, 6], offset_dims = [0, 2], collapsed_slice_dims = [0], start_index_map = [2, 0], index_vector_dim = 0 : (tensor<6x2x7xi32>, tensor<2x1xi32>) -> tensor<2x1x6xi32>
  %v3 = hlo.dot_general %v2, %a4, lhs_batch = [0], rhs_batch = [0], lhs_contract = [2], rhs_contract = [1] : (tensor<2x1x6xi32>, tensor<2x6x4xi32>) -> tensor<2x1x4xi32>
  %v4 = hlo.constant dense<4> : tensor<i32>
  %v5 = hlo.constant dense<-1> : tensor<i32>
  %v6 = hlo.constant dense<0> : tensor<i32>
  %v7 = hlo.dynamic_slice %a2, %v4, %v5, %v6, sizes = [2, 2, 4] : (tensor<6x2x7xi32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x4xi32>
  %v8 = hlo.transpose %v7, permutation = [0, 2, 1] : (tensor<2x2x4xi32>) -> tensor<2x4x2xi32>
  %v9 = hlo.constant dense<[[5], [6]]> : tensor<2x1xi32>
  %v10 = hlo.gather %a1[%v9], slice_sizes = [1, 1], offset_dims = [0, 1], start_index_map = [1], index_vector_dim = 1 : (tensor<1x6xi32>, tensor<2x1xi32>) -> tensor<1x1x2xi32>
  %v11 = tessel.sharding_constraint %v10 <@mesh, [{"x"}p2, {}, {?}p0]> : tensor<1x1x2xi32>
  %v12 = hlo.dot_general %a0, %v0, lhs_contract = [0], rhs_contract = [0] : (tensor<4x1xi32>, tensor<4x6xi32>) -> tensor<1x6xi32>
  %v13 = hlo.constant dense<1> : tensor<i32>
  %v14 = hlo.broadcast_in_dim %v13, dims = [] : (tensor<i32>) -> tensor<1x6xi32>
  %v15 = hlo.mul %v12, %v14 : tensor<1x6xi32>
  %v16 = hlo.sub %a1, %v15 : tensor<1x6xi32>
  return %v11, %v16 : tensor<1x1x2xi32>, tensor<1x6xi32>
}
