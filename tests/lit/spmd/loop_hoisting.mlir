// RUN: tessel-opt %s --tessel-propagate --tessel-partition -split-input-file | FileCheck %s

// A weight split by rows (FSDP) that the loop never changes: it is gathered once, before the
// loop, and the body holds no collective (an all_reduce of a partial sum per trip would be
// dearer than a gather that runs once).
tessel.mesh @mesh = <["x"=2, "y"=2]>
// CHECK-LABEL: func.func @invariant_weight
// CHECK-SAME: %[[W:[^:]*]]: tensor<3x6xf32>
// CHECK: %[[WHOLE:.*]] = tessel.all_gather %[[W]] over @mesh ["y"] dim = 0 : (tensor<3x6xf32>) -> tensor<6x6xf32>
// CHECK: hlo.while
// CHECK: } do {
// CHECK-NOT: tessel.
// CHECK: hlo.dot_general %{{.*}}, %[[WHOLE]]
// CHECK-NOT: tessel.
// CHECK: hlo.return
func.func @invariant_weight(%h: tensor<10x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>},
                            %w: tensor<6x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"y"}, {}]>})
    -> (tensor<10x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>}) {
  %zero = hlo.constant dense<0> : tensor<i32>
  %r:3 = hlo.while(%i = %zero, %a = %h, %v = %w) : tensor<i32>, tensor<10x6xf32>, tensor<6x6xf32>
  cond {
    %n = hlo.constant dense<4> : tensor<i32>
    %p = hlo.compare LT, %i, %n : tensor<i32>
    hlo.return %p : tensor<i1>
  } do {
    %one = hlo.constant dense<1> : tensor<i32>
    %i1 = hlo.add %i, %one : tensor<i32>
    %d = hlo.dot_general %a, %v, lhs_contract = [1], rhs_contract = [0] : (tensor<10x6xf32>, tensor<6x6xf32>) -> tensor<10x6xf32>
    %t = hlo.tanh %d : tensor<10x6xf32>
    %c = tessel.sharding_constraint %t <@mesh, [{"x"}, {}]> : tensor<10x6xf32>
    hlo.return %i1, %c, %v : tensor<i32>, tensor<10x6xf32>, tensor<6x6xf32>
  }
  return %r#1 : tensor<10x6xf32>
}

// -----

// Both branches read w gathered alike: one gather before the case, none in the branches.
tessel.mesh @mesh = <["x"=4]>
// (Here the whole dot is the same in both branches, so it moves out too.)
// CHECK-LABEL: func.func @case_common_reshard
// CHECK: %[[WHOLE:.*]] = tessel.all_gather %{{.*}} over @mesh ["x"] dim = 0 : (tensor<2x6xf32>) -> tensor<8x6xf32>
// CHECK: %[[D:.*]] = hlo.dot_general %{{.*}}, %[[WHOLE]]
// CHECK: hlo.case
// CHECK-NEXT: hlo.return %[[D]]
// CHECK-NOT: tessel.all_gather
// CHECK: } : (tensor<i32>) -> tensor<8x6xf32>
func.func @case_common_reshard(%i: tensor<i32>, %h: tensor<8x8xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}]>},
                               %w: tensor<8x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>})
    -> tensor<8x6xf32> {
  %r = hlo.case %i branches {
    %d = hlo.dot_general %h, %w, lhs_contract = [1], rhs_contract = [0] : (tensor<8x8xf32>, tensor<8x6xf32>) -> tensor<8x6xf32>
    hlo.return %d : tensor<8x6xf32>
  }, {
    %d = hlo.dot_general %h, %w, lhs_contract = [1], rhs_contract = [0] : (tensor<8x8xf32>, tensor<8x6xf32>) -> tensor<8x6xf32>
    %t = hlo.tanh %d : tensor<8x6xf32>
    hlo.return %t : tensor<8x6xf32>
  } : (tensor<i32>) -> tensor<8x6xf32>
  return %r : tensor<8x6xf32>
}
