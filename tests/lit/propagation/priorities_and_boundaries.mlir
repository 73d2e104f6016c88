// RUN: tessel-opt %s --tessel-propagate | FileCheck %s

tessel.mesh @mesh = <["x"=4, "y"=2]>

// %a's p0 dimension propagates first and takes "x" for the op's dim 0; %b's p1 sharding of
// dim 1 over "x" comes later and no longer fits (x is used).
// CHECK-LABEL: func @user_priorities
// CHECK-SAME: %arg0: tensor<8x8xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}p0, {?}]>}
func.func @user_priorities(
    %a: tensor<8x8xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}p0, {?}]>},
    %b: tensor<8x8xf32> {tessel.sharding = #tessel.sharding<@mesh, [{?}, {"x"}p1]>})
    -> tensor<8x8xf32> {
  // CHECK: hlo.add {{.*}}[<@mesh, [{"x"}, {}]>]
  %0 = hlo.add %a, %b : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// Swapping the priorities swaps the outcome.
// CHECK-LABEL: func @user_priorities_swapped
func.func @user_priorities_swapped(
    %a: tensor<8x8xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}p1, {?}]>},
    %b: tensor<8x8xf32> {tessel.sharding = #tessel.sharding<@mesh, [{?}, {"x"}p0]>})
    -> tensor<8x8xf32> {
  // CHECK: hlo.add {{.*}}[<@mesh, [{}, {"x"}]>]
  %0 = hlo.add %a, %b : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// Elementwise ops propagate before broadcasts: the broadcast's operand sharding (over "y"
// on dim 1) loses to the elementwise user's (over "x" on dim 0 and "y" on dim 1... here the
// add's other operand pins dim 0), and the result gets both.
// CHECK-LABEL: func @op_priority
func.func @op_priority(
    %row: tensor<4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"y"}]>},
    %m: tensor<8x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {?}]>})
    -> tensor<8x4xf32> {
  // CHECK: hlo.broadcast_in_dim {{.*}}[<@mesh, [{"x"}, {"y"}]>]
  %b = hlo.broadcast_in_dim %row, dims = [1] : (tensor<4xf32>) -> tensor<8x4xf32>
  // CHECK: hlo.add {{.*}}[<@mesh, [{"x"}, {"y"}]>]
  %0 = hlo.add %b, %m : tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// A constraint pins its result and pulls its open operand along.
// CHECK-LABEL: func @constraint
// CHECK-SAME: %arg0: tensor<8x8xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {"y"}]>}
func.func @constraint(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // CHECK: hlo.exp {{.*}}[<@mesh, [{}, {"y"}]>]
  %0 = hlo.exp %a : tensor<8x8xf32>
  // CHECK: tessel.sharding_constraint {{.*}}[<@mesh, [{}, {"y"}]>]
  %1 = tessel.sharding_constraint %0 <@mesh, [{}, {"y"}]> : tensor<8x8xf32>
  // CHECK: hlo.neg {{.*}}[<@mesh, [{}, {"y"}]>]
  %2 = hlo.neg %1 : tensor<8x8xf32>
  return %2 : tensor<8x8xf32>
}

// A manual computation is a boundary: its result takes its out_shardings, and the body
// (per-device code) is not annotated.
// CHECK-LABEL: func @manual_boundary
func.func @manual_boundary(%a: tensor<8x8xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>})
    -> tensor<8x8xf32> {
  // CHECK: tessel.manual_computation
  // CHECK: hlo.add %{{[a-z0-9]+}}, %{{[a-z0-9]+}} : tensor<4x8xf32>
  // CHECK: [<@mesh, [{"y"}, {}]>]
  %r = tessel.manual_computation(%a) in_shardings=[<@mesh, [{"y"}, {}]>]
      out_shardings=[<@mesh, [{"y"}, {}]>] manual_axes={"y"}
      (%la: tensor<4x8xf32>) {
    %s = hlo.add %la, %la : tensor<4x8xf32>
    tessel.return %s : tensor<4x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  // CHECK: hlo.exp {{.*}}[<@mesh, [{"y"}, {}]>]
  %e = hlo.exp %r : tensor<8x8xf32>
  return %e : tensor<8x8xf32>
}

// A partly manual computation (manual over "y") whose in_sharding leaves dim 0 open: it
// takes the automatic axis "x" the operand has, propagation runs through the body (its
// values split over "x"), and the open out_sharding takes "x" from the returned value, and
// with it the result and its users. Closed dims and the manual axis stay as written.
// CHECK-LABEL: func @manual_open_dims
func.func @manual_open_dims(%a: tensor<8x8xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {"y"}]>})
    -> tensor<8x8xf32> {
  // CHECK: tessel.manual_computation(%arg0) in_shardings=[<@mesh, [{"x", ?}, {"y"}]>] out_shardings=[<@mesh, [{"x", ?}, {}]>] manual_axes={"y"}
  // CHECK: hlo.tanh %{{.*}} {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x4xf32>
  // CHECK: tessel.all_reduce %{{.*}} over @mesh ["y"] kind = sum {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{"x"}, {}]>]>}
  %r = tessel.manual_computation(%a) in_shardings=[<@mesh, [{?}, {"y"}]>]
      out_shardings=[<@mesh, [{?}, {}]>] manual_axes={"y"}
      (%la: tensor<8x4xf32>) {
    %t = hlo.tanh %la : tensor<8x4xf32>
    %c = hlo.constant dense<1.0> : tensor<4x8xf32>
    %d = hlo.dot_general %t, %c, lhs_contract = [1], rhs_contract = [0] : (tensor<8x4xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
    %s = tessel.all_reduce %d over @mesh ["y"] kind = sum : tensor<8x8xf32>
    tessel.return %s : tensor<8x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  // CHECK: hlo.exp {{.*}}[<@mesh, [{"x"}, {}]>]
  %e = hlo.exp %r : tensor<8x8xf32>
  return %e : tensor<8x8xf32>
}

// An argument returned as a result annotated differently keeps its own sharding; the
// partitioner reshards at the return.
// CHECK-LABEL: func @result_differs_from_argument
// CHECK-SAME: %arg0: tensor<8xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}]>}
// CHECK-SAME: -> (tensor<8xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"y"}]>})
func.func @result_differs_from_argument(
    %a: tensor<8xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}]>})
    -> (tensor<8xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"y"}]>}) {
  return %a : tensor<8xf32>
}
