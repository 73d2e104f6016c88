// Differential fuzz seed 20.
// options: combine-collectives hierarchical-all-reduce
// seed 20
tessel.mesh @mesh = <["x"=4]>
func.func @main(%a0: tensor<6x6xi32> {tessel.sharding = #tessel.sharding<@mesh, [{}p2, {"x":(1)2}]>}, %a1: tensor<7x4xi32>, %a2: tensor<7x4xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}p0, {?}p2]>}) -> (tensor<2x6xi32>, tensor<2x6xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"x", ?}p1, {}]>}) {
  %v0 = hlo.constant dense<0> : tensor<i32>
  %v1 = hlo.reduce_window(%a0) init(%v0) window_dimensions = [1, 1], window_strides = [3, 1], base_dilations = [1, 1], window_dilations = [2, 1], padding = [[0, 0], [0, 0]] : (tensor<6x6xi32>, tensor<i32>) -> tensor<2x6xi32> reducer {
  ^bb0(%v2_a: tensor<i32>, %v2_b: tensor<i32>):
    %v2_s = hlo.add %v2_a, %v2_b : tensor<i32>
    hlo.return %v2_s : tensor<i32>
  }
  %v3 = tessel.sharding_constraint %v1 <@mesh, [{}, {}]> : tensor<2x6xi32>
  %v4 = hlo.compare LT, %a1, %a2 : tensor<7x4xi32>
  %v5 = hlo.select %v4, %a2, %a1 : tensor<7x4xi1>, tensor<7x4xi32>
  %v6 = hlo.optimization_barrier %v3 : tensor<2x6xi32>
  %v7 = hlo.sort(%v3) dimension = 0 : tensor<2x6xi32> comparator {
  ^bb0(%v8_0: tensor<i32>, %v8_1: tensor<i32>):
    %v8_p = hlo.compare GT, %v8_0, %v8_1 : tensor<i32>
    hlo.return %v8_p : tensor<i1>
  }
  %v9 = hlo.count_leading_zeros %v7 : tensor<2x6xi32>
  return %v9, %v7 : tensor<2x6xi32>, tensor<2x6xi32>
}
