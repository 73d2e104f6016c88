// Differential fuzz seed 13.
// options: weight-update-sharding random-choices=13
// seed 13
tessel.mesh @mesh = <["x"=6]>
func.func @main(%a0: tensor<8x4x3xi32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {?}, {}]>}, %a1: tensor<8x4x3xi32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}, {}p1]>}) -> (tensor<8x4x1xi32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}, {}]>}) {
  %v0:2 = hlo.sort(%a0, %a1) dimension = 1 is_stable : tensor<8x4x3xi32>, tensor<8x4x3xi32> comparator {
  ^bb0(%v1_0: tensor<i32>, %v1_1: tensor<i32>, %v1_2: tensor<i32>, %v1_3: tensor<i32>):
    %v1_p = hlo.compare GT, %v1_0, %v1_1 : tensor<i32>
    hlo.return %v1_p : tensor<i1>
  }
  tessel.sharding_group %v0#1, %v0#0 group_id = 0 : tensor<8x4x3xi32>, tensor<8x4x3xi32>
  %v2:2 = hlo.optimization_barrier %a0, %v0#0 : tensor<8x4x3xi32>, tensor<8x4x3xi32>
  %v3 = hlo.slice %a1 [0:8:1, 0:4:1, 0:1:2] : (tensor<8x4x3xi32>) -> tensor<8x4x1xi32>
  return %v3 : tensor<8x4x1xi32>
}
