// RUN: tessel-opt %s --tessel-propagate | FileCheck %s

tessel.mesh @mesh = <["x"=4, "y"=2]>

// linalg.matmul and arith ops propagate through their external sharding rules.
// CHECK-LABEL: func @linalg_and_arith
// CHECK-SAME: %arg2: tensor<8x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {"y"}]>}
func.func @linalg_and_arith(
    %a: tensor<8x16xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>},
    %b: tensor<16x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {"y"}]>},
    %c: tensor<8x4xf32>) -> tensor<8x4xf32> {
  // CHECK: linalg.matmul {{.*}}[<@mesh, [{"x"}, {"y"}]>]
  %0 = linalg.matmul ins(%a, %b : tensor<8x16xf32>, tensor<16x4xf32>)
                     outs(%c : tensor<8x4xf32>) -> tensor<8x4xf32>
  // CHECK: arith.addf {{.*}}[<@mesh, [{"x"}, {"y"}]>]
  %1 = arith.addf %0, %0 : tensor<8x4xf32>
  return %1 : tensor<8x4xf32>
}
