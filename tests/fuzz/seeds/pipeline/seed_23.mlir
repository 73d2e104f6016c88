// Differential fuzz seed 23.
// options: 
// seed 23
tessel.mesh @mesh = <["x"=4, "y"=4]>
func.func @main(%a0: tensor<7x6xi32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}], replicated={"x"}>}, %a1: tensor<6x3xi32> {tessel.sharding = #tessel.sharding<@mesh, [{}p2, {}]>}, %a2: tensor<5x4x4xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"x":(2)2}, {"x":(1)2}, {?}p1]>}, %a3: tensor<5xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"x", "y":(2)2}]>}, %a4: tensor<5xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}]>}, %a5: tensor<6x3xi32>) -> (tensor<7x3xi32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {"x"}]>}, tensor<5x4x4xi32>, tensor<6x3xi32>, tensor<6x3xi32>) {
  %v0 = hlo.dot_general %a0, %a1, lhs_contract = [1], rhs_contract = [0] : (tensor<7x6xi32>, tensor<6x3xi32>) -> tensor<7x3xi32>
  %v1 = hlo.constant dense<0> : tensor<i32>
  %v2 = hlo.broadcast_in_dim %v1, dims = [] : (tensor<i32>) -> tensor<5xi32>
  %v3 = hlo.shift_left %a3, %v2 : tensor<5xi32>
  %v4:2 = hlo.optimization_barrier %a0, %v0 : tensor<7x6xi32>, tensor<7x3xi32>
  %v5 = hlo.reverse %v4#1, dims = [1] : tensor<7x3xi32>
  %v6 = hlo.transpose %v4#1, permutation = [0, 1] : (tensor<7x3xi32>) -> tensor<7x3xi32>
  %v7 = hlo.dot_general %a0, %v6, lhs_contract = [0], rhs_contract = [0] : (tensor<7x6xi32>, tensor<7x3xi32>) -> tensor<6x3xi32>
  %v8 = hlo.add %a5, %v7 : tensor<6x3xi32>
  %v9 = hlo.constant dense<2> : tensor<i32>
  %v10 = hlo.broadcast_in_dim %v9, dims = [] : (tensor<i32>) -> tensor<6x3xi32>
  %v11 = hlo.mul %v8, %v10 : tensor<6x3xi32>
  %v12 = hlo.sub %a1, %v11 : tensor<6x3xi32>
  return %v6, %a2, %v12, %v8 : tensor<7x3xi32>, tensor<5x4x4xi32>, tensor<6x3xi32>, tensor<6x3xi32>
}
