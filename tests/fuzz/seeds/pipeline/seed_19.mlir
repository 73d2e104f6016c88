// Differential fuzz seed 19.
// options: weight-update-sharding
// seed 19
tessel.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%a0: tensor<1xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"x", "y"}]>}, %a1: tensor<1x7xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}p1, {"y", ?}]>}, %a2: tensor<1x7xi32>, %a3: tensor<1x7xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}p0, {}]>}, %a4: tensor<1xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"y", "x"}]>}, %a5: tensor<2xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}], replicated={"y"}>}) -> (tensor<4xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"x", "y"}]>}) {
  %v0 = hlo.constant dense<1> : tensor<i32>
  %v3 = hlo.case %v0 branches {
    %v1 = hlo.reverse %a1, dims = [1] : tensor<1x7xi32>
    hlo.return %v1 : tensor<1x7xi32>
  }, {
    %v2 = hlo.min %a1, %a2 : tensor<1x7xi32>
    hlo.return %v2 : tensor<1x7xi32>
  }, {
    hlo.return %a1 : tensor<1x7xi32>
  } : (tensor<i32>) -> tensor<1x7xi32>
  %v4 = hlo.clamp %a3, %v3, %a1 : tensor<1x7xi32>, tensor<1x7xi32>, tensor<1x7xi32>
  %v5 = hlo.concatenate %a0, %a4, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %v6 = hlo.constant dense<0> : tensor<i32>
  %v8 = hlo.select_and_scatter(%a0, %a4, %v6) window_dimensions = [1], window_strides = [3], padding = [[0, 1]] : (tensor<1xi32>, tensor<1xi32>, tensor<i32>) -> tensor<1xi32> select {
  ^bb0(%v7_a: tensor<i32>, %v7_b: tensor<i32>):
    %v7_p = hlo.compare GE, %v7_a, %v7_b : tensor<i32>
    hlo.return %v7_p : tensor<i1>
  } scatter {
  ^bb0(%v9_a: tensor<i32>, %v9_b: tensor<i32>):
    %v9_s = hlo.add %v9_a, %v9_b : tensor<i32>
    hlo.return %v9_s : tensor<i32>
  }
  tessel.sharding_group %v5, %a5 group_id = 0 : tensor<2xi32>, tensor<2xi32>
  %v10 = hlo.concatenate %a5, %v5, dim = 0 : (tensor<2xi32>, tensor<2xi32>) -> tensor<4xi32>
  return %v10 : tensor<4xi32>
}
