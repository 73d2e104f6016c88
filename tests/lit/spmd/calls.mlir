// RUN: tessel-opt %s --tessel-propagate --tessel-partition | FileCheck %s

// Calls are inlined before partitioning; the callee goes once no call is left.
tessel.mesh @mesh = <["x"=4]>

// CHECK-NOT: func.func private @twice
func.func private @twice(%p: tensor<8xf32>) -> tensor<8xf32> {
  %0 = hlo.add %p, %p : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// CHECK-LABEL: func.func @main
// CHECK-SAME: tensor<2xf32>
// CHECK-NOT: call
// CHECK: hlo.add {{.*}} : tensor<2xf32>
// CHECK: hlo.add {{.*}} : tensor<2xf32>
func.func @main(%a: tensor<8xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
  %0 = func.call @twice(%a) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = func.call @twice(%0) : (tensor<8xf32>) -> tensor<8xf32>
  return %1 : tensor<8xf32>
}
