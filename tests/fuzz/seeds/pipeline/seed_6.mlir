// Differential fuzz seed 6.
// options: combine-collectives random-choices=6
// seed 6
tessel.mesh @mesh = <["x"=1, "y"=3]>
func.func @main(%a0: tensor<3x5x4xi32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {"y"}, {"x"}]>}, %a1: tensor<i32> {tessel.sharding = #tessel.sharding<@mesh, []>}, %a2: tensor<6x6xi32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {?}], replicated={"y"}>}, %a3: tensor<3x3x6xi32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}, {}], replicated={"x"}>}) -> (tensor<3x1x2x6xi32>) {
  %v0 = hlo.constant dense<2> : tensor<i32>
  %v1 = hlo.reduce_window(%a0) init(%v0) window_dimensions = [1, 1, 2], window_strides = [1, 2, 1], base_dilations = [1, 1, 2], window_dilations = [1, 1, 1], padding = [[0, 0], [0, 0], [0, 0]] : (tensor<3x5x4xi32>, tensor<i32>) -> tensor<3x3x6xi32> reducer {
  ^bb0(%v2_a: tensor<i32>, %v2_b: tensor<i32>):
    %v2_s = hlo.add %v2_a, %v2_b : tensor<i32>
    hlo.return %v2_s : tensor<i32>
  }
  %v5 = hlo.case %a1 branches {
    %v3 = hlo.abs %v1 : tensor<3x3x6xi32>
    hlo.return %v3 : tensor<3x3x6xi32>
  }, {
    %v4 = hlo.dot_general %v1, %a2, lhs_contract = [2], rhs_contract = [0] : (tensor<3x3x6xi32>, tensor<6x6xi32>) -> tensor<3x3x6xi32>
    hlo.return %v4 : tensor<3x3x6xi32>
  }, {
    hlo.return %v1 : tensor<3x3x6xi32>
  } : (tensor<i32>) -> tensor<3x3x6xi32>
  tessel.sharding_group %v5, %a3 group_id = 0 : tensor<3x3x6xi32>, tensor<3x3x6xi32>
  %v7 = hlo.constant dense<0> : tensor<i32>
  %v6:2 = hlo.while(%v6_i = %v7, %v6_c0 = %a3) : tensor<i32>, tensor<3x3x6xi32>
  cond {
    %v11 = hlo.constant dense<2> : tensor<i32>
    %v12 = hlo.compare LT, %v6_i, %v11 : tensor<i32>
    hlo.return %v12 : tensor<i1>
  } do {
    %v8 = hlo.constant dense<1> : tensor<i32>
    %v9 = hlo.add %v6_i, %v8 : tensor<i32>
    %v10 = hlo.dot_general %v6_c0, %a2, lhs_contract = [2], rhs_contract = [0] : (tensor<3x3x6xi32>, tensor<6x6xi32>) -> tensor<3x3x6xi32>
    hlo.return %v9, %v10 : tensor<i32>, tensor<3x3x6xi32>
  }
  %v13 = hlo.constant dense<[[1], [0]]> : tensor<2x1xi32>
  %v14 = hlo.gather %a3[%v13], slice_sizes = [3, 1, 6], offset_dims = [0, 1, 3], start_index_map = [2], index_vector_dim = 1 : (tensor<3x3x6xi32>, tensor<2x1xi32>) -> tensor<3x1x2x6xi32>
  return %v14 : tensor<3x1x2x6xi32>
}
