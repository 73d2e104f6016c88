// Differential fuzz seed 17.
// options: random-choices=17
// seed 17
tessel.mesh @mesh = <["x"=4]>
func.func @main(%a0: tensor<1x8x6xi32> {tessel.sharding = #tessel.sharding<@mesh, [{}p2, {?}, {}]>}, %a1: tensor<6x2x1xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}, {}]>}, %a2: tensor<6x8x2xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"x":(2)2}, {}, {}]>}) -> (tensor<8x2xi32>) {
  %v0 = hlo.transpose %a0, permutation = [2, 1, 0] : (tensor<1x8x6xi32>) -> tensor<6x8x1xi32>
  %v1 = hlo.constant dense<-2> : tensor<i32>
  %v2 = hlo.pad %v0, %v1, low = [0, 0, 0], high = [0, 0, 1], interior = [0, 0, 0] : (tensor<6x8x1xi32>, tensor<i32>) -> tensor<6x8x2xi32>
  %v3 = hlo.dot_general %v2, %a1, lhs_batch = [0], rhs_batch = [0], lhs_contract = [2], rhs_contract = [1] : (tensor<6x8x2xi32>, tensor<6x2x1xi32>) -> tensor<6x8x1xi32>
  %v4 = hlo.reverse %v3, dims = [2] : tensor<6x8x1xi32>
  %v5 = hlo.compare GE, %v2, %a2 : tensor<6x8x2xi32>
  %v7 = hlo.convert %v5 : (tensor<6x8x2xi1>) -> tensor<6x8x2xi32>
  %v6 = hlo.add %v2, %v7 : tensor<6x8x2xi32>
  %v8 = hlo.constant dense<0> : tensor<i32>
  %v9 = hlo.reduce(%v6) init(%v8) dimensions = [0] : (tensor<6x8x2xi32>, tensor<i32>) -> tensor<8x2xi32> reducer {
  ^bb0(%v10_a: tensor<i32>, %v10_b: tensor<i32>):
    %v10_s = hlo.add %v10_a, %v10_b : tensor<i32>
    hlo.return %v10_s : tensor<i32>
  }
  return %v9 : tensor<8x2xi32>
}
