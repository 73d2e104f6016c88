// RUN: tessel-opt %s --tessel-propagate --tessel-partition -split-input-file | FileCheck %s

tessel.mesh @mesh = <["x"=2]>

// A training-like loop on data split by rows: the carries keep their layouts, the body is
// local code, and the weight update (contracting the split rows) all-reduces in the body
// (gathering the 8 local rows instead would send more than the 4x4 partial sum).
// CHECK-LABEL: func @training_loop
// CHECK-SAME: %[[X:.*]]: tensor<8x4xf32> {{.*}}, %[[W:.*]]: tensor<4x4xf32>
// CHECK: %[[ZERO:.*]] = hlo.constant dense<0> : tensor<i32>
// CHECK: %[[R:.*]]:3 = hlo.while(%[[I:.*]] = %[[ZERO]], %[[A:.*]] = %[[X]], %[[V:.*]] = %[[W]]) : tensor<i32>, tensor<8x4xf32>, tensor<4x4xf32> cond {
// CHECK: %[[P:.*]] = hlo.compare LT, %[[I]], %{{.*}} : tensor<i32>
// CHECK-NEXT: hlo.return %[[P]] : tensor<i1>
// CHECK: } do {
// CHECK: %[[D:.*]] = hlo.dot_general %[[A]], %[[V]], {{.*}} -> tensor<8x4xf32>
// CHECK: %[[A1:.*]] = hlo.add %[[A]], %[[D]] : tensor<8x4xf32>
// CHECK: %[[G:.*]] = hlo.dot_general %[[A]], %[[A]], lhs_contract = [0], rhs_contract = [0] : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
// CHECK-NEXT: %[[GS:.*]] = tessel.all_reduce %[[G]] over @mesh ["x"] kind = sum : tensor<4x4xf32>
// CHECK-NEXT: %[[V1:.*]] = hlo.sub %[[V]], %[[GS]] : tensor<4x4xf32>
// CHECK-NEXT: hlo.return %{{.*}}, %[[A1]], %[[V1]] : tensor<i32>, tensor<8x4xf32>, tensor<4x4xf32>
// CHECK: return %[[R]]#1, %[[R]]#2 : tensor<8x4xf32>, tensor<4x4xf32>
func.func @training_loop(%x: tensor<16x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>}, %w: tensor<4x4xf32>) -> (tensor<16x4xf32>, tensor<4x4xf32>) {
  %zero = hlo.constant dense<0> : tensor<i32>
  %r:3 = hlo.while(%i = %zero, %a = %x, %v = %w) : tensor<i32>, tensor<16x4xf32>, tensor<4x4xf32>
  cond {
    %n = hlo.constant dense<3> : tensor<i32>
    %p = hlo.compare LT, %i, %n : tensor<i32>
    hlo.return %p : tensor<i1>
  } do {
    %one = hlo.constant dense<1> : tensor<i32>
    %i1 = hlo.add %i, %one : tensor<i32>
    %d = hlo.dot_general %a, %v, lhs_contract = [1], rhs_contract = [0] : (tensor<16x4xf32>, tensor<4x4xf32>) -> tensor<16x4xf32>
    %a1 = hlo.add %a, %d : tensor<16x4xf32>
    %g = hlo.dot_general %a, %a, lhs_contract = [0], rhs_contract = [0] : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<4x4xf32>
    %v1 = hlo.sub %v, %g : tensor<4x4xf32>
    hlo.return %i1, %a1, %v1 : tensor<i32>, tensor<16x4xf32>, tensor<4x4xf32>
  }
  return %r#1, %r#2 : tensor<16x4xf32>, tensor<4x4xf32>
}

// -----

tessel.mesh @mesh = <["x"=3]>

// The condition reads split data: its predicate is all-reduced so every device takes the
// same number of trips. 7 rows over 3: the padding is masked before the sum.
// CHECK-LABEL: func @data_dependent_predicate
// CHECK: hlo.while(%[[A:.*]] = %{{.*}}) : tensor<3x4xi32> cond {
// CHECK: hlo.constant dense<[3, 3, 1]> : tensor<3xi32>
// CHECK: %[[ROWS:.*]] = hlo.select {{.*}}, %[[A]], {{.*}} : tensor<3x4xi1>, tensor<3x4xi32>
// CHECK: %[[LOCAL:.*]] = hlo.reduce(%[[ROWS]])
// CHECK: %[[S:.*]] = tessel.all_reduce %[[LOCAL]] over @mesh ["x"] kind = sum : tensor<i32>
// CHECK: %[[P:.*]] = hlo.compare LT, %[[S]], %{{.*}} : tensor<i32>
// CHECK-NEXT: hlo.return %[[P]] : tensor<i1>
// CHECK: } do {
// CHECK-NEXT: %[[A1:.*]] = hlo.add %[[A]], %[[A]] : tensor<3x4xi32>
// CHECK-NEXT: hlo.return %[[A1]] : tensor<3x4xi32>
func.func @data_dependent_predicate(%x: tensor<7x4xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>}) -> tensor<7x4xi32> {
  %r = hlo.while(%a = %x) : tensor<7x4xi32>
  cond {
    %z = hlo.constant dense<0> : tensor<i32>
    %s = hlo.reduce(%a) init(%z) dimensions = [0, 1] : (tensor<7x4xi32>, tensor<i32>) -> tensor<i32> reducer {
    ^bb0(%l: tensor<i32>, %q: tensor<i32>):
      %t = hlo.add %l, %q : tensor<i32>
      hlo.return %t : tensor<i32>
    }
    %n = hlo.constant dense<5000> : tensor<i32>
    %p = hlo.compare LT, %s, %n : tensor<i32>
    hlo.return %p : tensor<i1>
  } do {
    %a1 = hlo.add %a, %a : tensor<7x4xi32>
    hlo.return %a1 : tensor<7x4xi32>
  }
  return %r : tensor<7x4xi32>
}

// -----

tessel.mesh @mesh = <["x"=2]>

// A case on split operands: each branch runs on local values and reshards what it
// returns to the case's result layout.
// CHECK-LABEL: func @case_split_operands
// CHECK-SAME: %[[K:.*]]: tensor<i32> {{.*}}, %[[X:.*]]: tensor<4x4xf32> {{.*}}, %[[Y:.*]]: tensor<8x2xf32>
// CHECK: %[[R:.*]] = hlo.case %[[K]] branches {
// CHECK: %[[COLS:.*]] = tessel.all_to_all %[[X]] over @mesh ["x"] split_dim = 1 concat_dim = 0 : (tensor<4x4xf32>) -> tensor<8x2xf32>
// CHECK-NEXT: %[[S:.*]] = hlo.add %[[COLS]], %[[COLS]] : tensor<8x2xf32>
// CHECK-NEXT: hlo.return %[[S]] : tensor<8x2xf32>
// CHECK-NEXT: }, {
// CHECK-NEXT: hlo.return %[[Y]] : tensor<8x2xf32>
// CHECK-NEXT: } : (tensor<i32>) -> tensor<8x2xf32>
// CHECK-NEXT: return %[[R]] : tensor<8x2xf32>
func.func @case_split_operands(%k: tensor<i32>, %x: tensor<8x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>}, %y: tensor<8x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {"x"}]>}) -> tensor<8x4xf32> {
  %r = hlo.case %k branches {
    %s = hlo.add %x, %x : tensor<8x4xf32>
    hlo.return %s : tensor<8x4xf32>
  }, {
    hlo.return %y : tensor<8x4xf32>
  } : (tensor<i32>) -> tensor<8x4xf32>
  return %r : tensor<8x4xf32>
}

// -----

tessel.mesh @mesh = <["x"=2]>

// A loop inside a branch is partitioned in place too.
// CHECK-LABEL: func @while_in_case
// CHECK-SAME: %[[K:.*]]: tensor<i32> {{.*}}, %[[X:.*]]: tensor<4x4xf32>
// CHECK: %[[R:.*]] = hlo.case %[[K]] branches {
// CHECK-NEXT: hlo.return %[[X]] : tensor<4x4xf32>
// CHECK-NEXT: }, {
// CHECK: %[[W:.*]]:2 = hlo.while(%{{.*}} = %{{.*}}, %[[A:.*]] = %[[X]]) : tensor<i32>, tensor<4x4xf32> cond {
// CHECK: %[[A1:.*]] = hlo.mul %[[A]], %[[A]] : tensor<4x4xf32>
// CHECK: hlo.return %[[W]]#1 : tensor<4x4xf32>
// CHECK: return %[[R]] : tensor<4x4xf32>
func.func @while_in_case(%k: tensor<i32>, %x: tensor<8x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x4xf32> {
  %r = hlo.case %k branches {
    hlo.return %x : tensor<8x4xf32>
  }, {
    %zero = hlo.constant dense<0> : tensor<i32>
    %w:2 = hlo.while(%i = %zero, %a = %x) : tensor<i32>, tensor<8x4xf32>
    cond {
      %n = hlo.constant dense<2> : tensor<i32>
      %p = hlo.compare LT, %i, %n : tensor<i32>
      hlo.return %p : tensor<i1>
    } do {
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %a1 = hlo.mul %a, %a : tensor<8x4xf32>
      hlo.return %i1, %a1 : tensor<i32>, tensor<8x4xf32>
    }
    hlo.return %w#1 : tensor<8x4xf32>
  } : (tensor<i32>) -> tensor<8x4xf32>
  return %r : tensor<8x4xf32>
}
