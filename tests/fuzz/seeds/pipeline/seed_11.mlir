// Differential fuzz seed 11.
// options: 
// seed 11
tessel.mesh @mesh = <["x"=2, "y"=4]>
func.func @main(%a0: tensor<1x3xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"x", ?}, {}p0]>}, %a1: tensor<5x1xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}p1, {"y"}]>}, %a2: tensor<3x1xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"x", "y"}, {}]>}, %a3: tensor<5x1xi32>) -> (tensor<5xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"x", "y"}]>}) {
  %v0 = hlo.constant dense<2> : tensor<i32>
  %v2 = hlo.select_and_scatter(%a1, %a2, %v0) window_dimensions = [1, 1], window_strides = [2, 3], padding = [[0, 0], [0, 0]] : (tensor<5x1xi32>, tensor<3x1xi32>, tensor<i32>) -> tensor<5x1xi32> select {
  ^bb0(%v1_a: tensor<i32>, %v1_b: tensor<i32>):
    %v1_p = hlo.compare LE, %v1_a, %v1_b : tensor<i32>
    hlo.return %v1_p : tensor<i1>
  } scatter {
  ^bb0(%v3_a: tensor<i32>, %v3_b: tensor<i32>):
    %v3_s = hlo.add %v3_a, %v3_b : tensor<i32>
    hlo.return %v3_s : tensor<i32>
  }
  %v4:2 = hlo.optimization_barrier %v2, %a0 : tensor<5x1xi32>, tensor<1x3xi32>
  %v5 = tessel.sharding_constraint %v4#0 <@mesh, [{"x"}, {"y", ?}]> : tensor<5x1xi32>
  %v6:2 = hlo.sort(%v5, %a3) dimension = 1 is_stable : tensor<5x1xi32>, tensor<5x1xi32> comparator {
  ^bb0(%v7_0: tensor<i32>, %v7_1: tensor<i32>, %v7_2: tensor<i32>, %v7_3: tensor<i32>):
    %v7_p = hlo.compare LT, %v7_0, %v7_1 : tensor<i32>
    hlo.return %v7_p : tensor<i1>
  }
  %v8 = hlo.constant dense<0> : tensor<i32>
  %v9 = hlo.reduce(%v6#1) init(%v8) dimensions = [1] : (tensor<5x1xi32>, tensor<i32>) -> tensor<5xi32> reducer {
  ^bb0(%v10_a: tensor<i32>, %v10_b: tensor<i32>):
    %v10_s = hlo.add %v10_a, %v10_b : tensor<i32>
    hlo.return %v10_s : tensor<i32>
  }
  %v12 = hlo.constant dense<0> : tensor<i32>
  %v11:2 = hlo.while(%v11_i = %v12, %v11_c0 = %v9) : tensor<i32>, tensor<5xi32>
  cond {
    %v17 = hlo.constant dense<1> : tensor<i32>
    %v18 = hlo.compare LT, %v11_i, %v17 : tensor<i32>
    hlo.return %v18 : tensor<i1>
  } do {
    %v13 = hlo.constant dense<1> : tensor<i32>
    %v14 = hlo.add %v11_i, %v13 : tensor<i32>
    %v15 = hlo.mul %v11_c0, %v9 : tensor<5xi32>
    %v16 = hlo.neg %v15 : tensor<5xi32>
    hlo.return %v14, %v16 : tensor<i32>, tensor<5xi32>
  }
  return %v11#1 : tensor<5xi32>
}
