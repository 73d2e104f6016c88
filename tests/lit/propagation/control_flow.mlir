// RUN: tessel-opt %s --tessel-propagate | FileCheck %s

tessel.mesh @mesh = <["x"=4, "y"=2]>

// The loop state carries the sharding from the operand into the body and to the result.
// CHECK-LABEL: func @while_loop
// CHECK-SAME: -> (tensor<8x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>})
func.func @while_loop(%init: tensor<i32>,
                      %a: tensor<8x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>})
    -> tensor<8x4xf32> {
  // CHECK: hlo.while{{.*}}[<@mesh, []>, <@mesh, [{"x"}, {}]>]
  %r:2 = hlo.while(%i = %init, %v = %a) : tensor<i32>, tensor<8x4xf32>
  cond {
    %t = hlo.constant dense<true> : tensor<i1>
    hlo.return %t : tensor<i1>
  } do {
    // CHECK: hlo.exp {{.*}}[<@mesh, [{"x"}, {}]>]
    %e = hlo.exp %v : tensor<8x4xf32>
    hlo.return %i, %e : tensor<i32>, tensor<8x4xf32>
  }
  return %r#1 : tensor<8x4xf32>
}

// A sharding in one branch reaches the case result and, from there, the other branch.
// CHECK-LABEL: func @case
func.func @case(%i: tensor<i32>,
                %a: tensor<8xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"y"}]>})
    -> tensor<8xf32> {
  // CHECK: hlo.case {{.*}}[<@mesh, [{"y"}]>]
  %r = hlo.case %i branches {
    %e = hlo.exp %a : tensor<8xf32>
    hlo.return %e : tensor<8xf32>
  }, {
    // CHECK: hlo.constant {{.*}}[<@mesh, [{"y"}]>]
    %z = hlo.constant dense<0.0> : tensor<8xf32>
    hlo.return %z : tensor<8xf32>
  } : (tensor<i32>) -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// Calls: the caller's argument sharding flows through the callee and back.
// CHECK-LABEL: func private @callee
// CHECK-SAME: %arg0: tensor<8xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}]>}
func.func private @callee(%p: tensor<8xf32>) -> tensor<8xf32> {
  // CHECK: hlo.exp {{.*}}[<@mesh, [{"x"}]>]
  %e = hlo.exp %p : tensor<8xf32>
  return %e : tensor<8xf32>
}
// CHECK-LABEL: func @caller
func.func @caller(%a: tensor<8xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}]>})
    -> tensor<8xf32> {
  // CHECK: call @callee{{.*}}[<@mesh, [{"x"}]>]
  %r = func.call @callee(%a) : (tensor<8xf32>) -> tensor<8xf32>
  return %r : tensor<8xf32>
}
