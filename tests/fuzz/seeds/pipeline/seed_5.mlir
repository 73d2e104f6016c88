// Differential fuzz seed 5.
// options: hierarchical-all-reduce random-choices=5
// seed 5
tessel.mesh @mesh = <["x"=1, "y"=3]>
func.func @main(%a0: tensor<8x3xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"y"}, {?}]>}, %a1: tensor<3x6xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"y"}, {}]>}, %a2: tensor<3xi32>) -> (tensor<8x3xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {"y"}]>}, tensor<3x6xi32>) {
  %v0 = hlo.dot_general %a0, %a1, lhs_contract = [1], rhs_contract = [0] : (tensor<8x3xi32>, tensor<3x6xi32>) -> tensor<8x6xi32>
  %v1 = hlo.constant dense<0> : tensor<i32>
  %v3 = hlo.select_and_scatter(%v0, %a0, %v1) window_dimensions = [2, 3], window_strides = [1, 2], padding = [[1, 0], [1, 1]] : (tensor<8x6xi32>, tensor<8x3xi32>, tensor<i32>) -> tensor<8x6xi32> select {
  ^bb0(%v2_a: tensor<i32>, %v2_b: tensor<i32>):
    %v2_p = hlo.compare LE, %v2_a, %v2_b : tensor<i32>
    hlo.return %v2_p : tensor<i1>
  } scatter {
  ^bb0(%v4_a: tensor<i32>, %v4_b: tensor<i32>):
    %v4_s = hlo.add %v4_a, %v4_b : tensor<i32>
    hlo.return %v4_s : tensor<i32>
  }
  %v5 = hlo.optimization_barrier %a0 : tensor<8x3xi32>
  %v6 = hlo.dot_general %a0, %v3, lhs_contract = [0], rhs_contract = [0] : (tensor<8x3xi32>, tensor<8x6xi32>) -> tensor<3x6xi32>
  %v7 = hlo.constant dense<1> : tensor<i32>
  %v8 = hlo.broadcast_in_dim %v7, dims = [] : (tensor<i32>) -> tensor<3x6xi32>
  %v9 = hlo.mul %v6, %v8 : tensor<3x6xi32>
  %v10 = hlo.sub %a1, %v9 : tensor<3x6xi32>
  return %v5, %v10 : tensor<8x3xi32>, tensor<3x6xi32>
}
