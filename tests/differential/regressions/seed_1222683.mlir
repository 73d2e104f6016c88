// Reduced from differential fuzz seed 1222683.
// Fails at compare: result 0: s32[17,1,4] {{{0, 4, 0, 3}}, {{0, 3, 1, 1}}, {{0, 7, 0, 0}}, {{2, 3, 3, 2}}, {{4, 3, 3, 3}}, {{1, 0, 1, 0}}, {{8, 2, 6, 3}}, {{1, 5, 1, 2}}, {{5, 1, 1, 0}}, {{2, 3, 1, 2}}, {{0, 3, 0, 0}}, {{2, 1, 8, 2}}, {{2, 2, 2, 1}}, {{3, 4, 5, 1}}, {{4, 4, 2, 1}}, {{2, 2, 2, 0}}, {{0, 6, 8, 1}}}
// options: random-choices=1222683
// seed 1222683
tessel.mesh @mesh = <["x"=4, "y"=2]>
func.func @main(%a0: tensor<8x6xi32> {tessel.sharding = #tessel.sharding<@mesh, [{}p2, {"y"}]>}, %a1: tensor<6x1xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {"y"}]>}, %a2: tensor<2xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"x", "y"}]>}, %a3: tensor<17x4xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"x", ?}, {"y"}]>}, %a4: tensor<17x8xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>}, %a5: tensor<17x4xi32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {"y"}p1]>}) -> (tensor<17x1x4xi32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}, {"x", ?}], replicated={"y"}>}, tensor<6x1xi32>) {
  %v0 = hlo.dot_general %a0, %a1, lhs_contract = [1], rhs_contract = [0] : (tensor<8x6xi32>, tensor<6x1xi32>) -> tensor<8x1xi32>
  %v1 = hlo.constant dense<3> : tensor<i32>
  %v2 = hlo.reduce_window(%a0) init(%v1) window_dimensions = [1, 3], window_strides = [1, 1], base_dilations = [2, 1], window_dilations = [1, 2], padding = [[2, 0], [0, 2]] : (tensor<8x6xi32>, tensor<i32>) -> tensor<17x4xi32> reducer {
  ^bb0(%v3_a: tensor<i32>, %v3_b: tensor<i32>):
    %v3_s = hlo.max %v3_a, %v3_b : tensor<i32>
    hlo.return %v3_s : tensor<i32>
  }
  %v4 = hlo.concatenate %v2, %a3, dim = 1 : (tensor<17x4xi32>, tensor<17x4xi32>) -> tensor<17x8xi32>
  %v5 = hlo.constant dense<3> : tensor<i32>
  %v6 = hlo.broadcast_in_dim %v5, dims = [] : (tensor<i32>) -> tensor<17x8xi32>
  %v7 = hlo.shift_right_arithmetic %v4, %v6 : tensor<17x8xi32>
  %v8 = hlo.and %v2, %a5 : tensor<17x4xi32>
  %v9 = hlo.broadcast_in_dim %v8, dims = [0, 2] : (tensor<17x4xi32>) -> tensor<17x1x4xi32>
  %v10 = hlo.dot_general %a0, %v0, lhs_contract = [0], rhs_contract = [0] : (tensor<8x6xi32>, tensor<8x1xi32>) -> tensor<6x1xi32>
  %v11 = hlo.constant dense<1> : tensor<i32>
  %v12 = hlo.broadcast_in_dim %v11, dims = [] : (tensor<i32>) -> tensor<6x1xi32>
  %v13 = hlo.mul %v10, %v12 : tensor<6x1xi32>
  %v14 = hlo.sub %a1, %v13 : tensor<6x1xi32>
  return %v9, %v14 : tensor<17x1x4xi32>, tensor<6x1xi32>
}
