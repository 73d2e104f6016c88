// Differential fuzz seed 9.
// options: random-choices=9
// seed 9
tessel.mesh @mesh = <["x"=3, "y"=2]>
func.func @main(%a0: tensor<5x8xi32>, %a1: tensor<5x1x4xi32> {tessel.sharding = #tessel.sharding<@mesh, [{}p0, {"y"}, {}]>}, %a2: tensor<5x1x4xi32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}, {}], replicated={"y"}>}, %a3: tensor<i32>) -> (tensor<5x1x4xi32>) {
  %v0 = hlo.mul %a1, %a2 : tensor<5x1x4xi32>
  %v3 = hlo.case %a3 branches {
    %v1 = hlo.add %a2, %a1 : tensor<5x1x4xi32>
    hlo.return %v1 : tensor<5x1x4xi32>
  }, {
    %v2 = hlo.abs %a2 : tensor<5x1x4xi32>
    hlo.return %v2 : tensor<5x1x4xi32>
  }, {
    hlo.return %a2 : tensor<5x1x4xi32>
  } : (tensor<i32>) -> tensor<5x1x4xi32>
  return %v3 : tensor<5x1x4xi32>
}
