// RUN: tessel-opt %s --tessel-propagate --tessel-partition -split-input-file | FileCheck %s
// RUN: tessel-opt %s --tessel-propagate --tessel-weight-update-sharding -split-input-file 2>/dev/null | FileCheck %s --check-prefix=MARKED

// Gradient accumulation: every trip adds a partial sum over "data" (a dot contracting the
// split batch, transposed as JAX emits it) to a carried accumulator. The accumulator stays
// a partial sum through the loop: no collective in the body, one all_reduce after it.
tessel.mesh @mesh = <["data"=2]>
// CHECK-LABEL: func.func @accumulate
// CHECK: hlo.while
// CHECK: } do {
// CHECK-NOT: tessel.all_reduce
// CHECK-NOT: tessel.reduce_scatter
// CHECK: hlo.return
// CHECK: tessel.all_reduce %{{.*}} over @mesh ["data"] kind = sum : tensor<6x5xf32>
// The weight-update sharding pass marks the accumulator before it looks for gradients (after
// folding the transpose into the dot).
// MARKED-LABEL: func.func @accumulate
// MARKED: hlo.while{{.*}}tessel.sharding = #tessel.sharding_per_value<[<@mesh, []>, <@mesh, [{"data"}, {}]>, <@mesh, [{"data"}, {}]>, <@mesh, [{}, {}], unreduced={"data"}>]>
// MARKED: hlo.dot_general {{.*}}unreduced={"data"}
// MARKED: hlo.add {{.*}}unreduced={"data"}
func.func @accumulate(%x: tensor<8x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>},
                      %dy: tensor<8x5xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>})
    -> tensor<6x5xf32> {
  %zero = hlo.constant dense<0> : tensor<i32>
  %acc0 = hlo.constant dense<0.0> : tensor<6x5xf32>
  %r:4 = hlo.while(%i = %zero, %h = %x, %d = %dy, %acc = %acc0) : tensor<i32>, tensor<8x6xf32>, tensor<8x5xf32>, tensor<6x5xf32>
  cond {
    %n = hlo.constant dense<4> : tensor<i32>
    %p = hlo.compare LT, %i, %n : tensor<i32>
    hlo.return %p : tensor<i1>
  } do {
    %one = hlo.constant dense<1> : tensor<i32>
    %i1 = hlo.add %i, %one : tensor<i32>
    %g = hlo.dot_general %d, %h, lhs_contract = [0], rhs_contract = [0] : (tensor<8x5xf32>, tensor<8x6xf32>) -> tensor<5x6xf32>
    %gt = hlo.transpose %g, permutation = [1, 0] : (tensor<5x6xf32>) -> tensor<6x5xf32>
    %a = hlo.add %acc, %gt : tensor<6x5xf32>
    %h1 = hlo.tanh %h : tensor<8x6xf32>
    hlo.return %i1, %h1, %d, %a : tensor<i32>, tensor<8x6xf32>, tensor<8x5xf32>, tensor<6x5xf32>
  }
  return %r#3 : tensor<6x5xf32>
}

// -----

// A bias-style accumulator: a zero-init sum over the split batch, scaled by a scalar on the
// way (1 / microbatches); the sum stays partial through the scale too.
tessel.mesh @mesh = <["data"=2]>
// CHECK-LABEL: func.func @accumulate_scaled_sum
// CHECK: } do {
// CHECK-NOT: tessel.all_reduce
// CHECK: hlo.return
// CHECK: tessel.all_reduce %{{.*}} over @mesh ["data"] kind = sum : tensor<5xf32>
func.func @accumulate_scaled_sum(%dy: tensor<8x5xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>})
    -> tensor<5xf32> {
  %zero = hlo.constant dense<0> : tensor<i32>
  %acc0 = hlo.constant dense<0.0> : tensor<5xf32>
  %r:3 = hlo.while(%i = %zero, %d = %dy, %acc = %acc0) : tensor<i32>, tensor<8x5xf32>, tensor<5xf32>
  cond {
    %n = hlo.constant dense<4> : tensor<i32>
    %p = hlo.compare LT, %i, %n : tensor<i32>
    hlo.return %p : tensor<i1>
  } do {
    %one = hlo.constant dense<1> : tensor<i32>
    %i1 = hlo.add %i, %one : tensor<i32>
    %z = hlo.constant dense<0.0> : tensor<f32>
    %s = hlo.reduce(%d) init(%z) dimensions = [0] : (tensor<8x5xf32>, tensor<f32>) -> tensor<5xf32> reducer {
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %t = hlo.add %p, %q : tensor<f32>
      hlo.return %t : tensor<f32>
    }
    %quarter = hlo.constant dense<0.25> : tensor<f32>
    %qs = hlo.broadcast_in_dim %quarter, dims = [] : (tensor<f32>) -> tensor<5xf32>
    %scaled = hlo.mul %s, %qs : tensor<5xf32>
    %a = hlo.add %scaled, %acc : tensor<5xf32>
    %d1 = hlo.tanh %d : tensor<8x5xf32>
    hlo.return %i1, %d1, %a : tensor<i32>, tensor<8x5xf32>, tensor<5xf32>
  }
  return %r#2 : tensor<5xf32>
}

// -----

// Not an accumulator: the body reads the running sum besides adding to it, so each trip
// needs it whole and the partial sum is reduced in the loop.
tessel.mesh @mesh = <["data"=2]>
// CHECK-LABEL: func.func @sum_read_in_loop
// CHECK: } do {
// CHECK: tessel.all_{{gather|reduce}}
// CHECK: hlo.return
func.func @sum_read_in_loop(%x: tensor<8x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>})
    -> tensor<6x6xf32> {
  %zero = hlo.constant dense<0> : tensor<i32>
  %acc0 = hlo.constant dense<0.0> : tensor<6x6xf32>
  %r:3 = hlo.while(%i = %zero, %h = %x, %acc = %acc0) : tensor<i32>, tensor<8x6xf32>, tensor<6x6xf32>
  cond {
    %n = hlo.constant dense<4> : tensor<i32>
    %p = hlo.compare LT, %i, %n : tensor<i32>
    hlo.return %p : tensor<i1>
  } do {
    %one = hlo.constant dense<1> : tensor<i32>
    %i1 = hlo.add %i, %one : tensor<i32>
    %g = hlo.dot_general %h, %h, lhs_contract = [0], rhs_contract = [0] : (tensor<8x6xf32>, tensor<8x6xf32>) -> tensor<6x6xf32>
    %a = hlo.add %acc, %g : tensor<6x6xf32>
    %t = hlo.tanh %acc : tensor<6x6xf32>
    %h1 = hlo.dot_general %h, %t, lhs_contract = [1], rhs_contract = [0] : (tensor<8x6xf32>, tensor<6x6xf32>) -> tensor<8x6xf32>
    hlo.return %i1, %h1, %a : tensor<i32>, tensor<8x6xf32>, tensor<6x6xf32>
  }
  return %r#2 : tensor<6x6xf32>
}

// -----

// The added value reaches the add through a negation, a division by a broadcast scalar and
// a convert to f64: each keeps the partial sum partial, so the body holds no collective and
// one all_reduce follows the loop.
tessel.mesh @mesh = <["data"=2]>
// CHECK-LABEL: func.func @accumulate_through_neg_div_convert
// CHECK: } do {
// CHECK-NOT: tessel.all_reduce
// CHECK: hlo.return
// CHECK: tessel.all_reduce %{{.*}} over @mesh ["data"] kind = sum : tensor<6x5xf64>
func.func @accumulate_through_neg_div_convert(
    %x: tensor<8x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>},
    %dy: tensor<8x5xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>})
    -> tensor<6x5xf64> {
  %zero = hlo.constant dense<0> : tensor<i32>
  %acc0 = hlo.constant dense<0.0> : tensor<6x5xf64>
  %r:4 = hlo.while(%i = %zero, %h = %x, %d = %dy, %acc = %acc0) : tensor<i32>, tensor<8x6xf32>, tensor<8x5xf32>, tensor<6x5xf64>
  cond {
    %n = hlo.constant dense<4> : tensor<i32>
    %p = hlo.compare LT, %i, %n : tensor<i32>
    hlo.return %p : tensor<i1>
  } do {
    %one = hlo.constant dense<1> : tensor<i32>
    %i1 = hlo.add %i, %one : tensor<i32>
    %g = hlo.dot_general %h, %d, lhs_contract = [0], rhs_contract = [0] : (tensor<8x6xf32>, tensor<8x5xf32>) -> tensor<6x5xf32>
    %ng = hlo.neg %g : tensor<6x5xf32>
    %four = hlo.constant dense<4.0> : tensor<f32>
    %fours = hlo.broadcast_in_dim %four, dims = [] : (tensor<f32>) -> tensor<6x5xf32>
    %q = hlo.div %ng, %fours : tensor<6x5xf32>
    %w = hlo.convert %q : (tensor<6x5xf32>) -> tensor<6x5xf64>
    %a = hlo.add %acc, %w : tensor<6x5xf64>
    %h1 = hlo.tanh %h : tensor<8x6xf32>
    hlo.return %i1, %h1, %d, %a : tensor<i32>, tensor<8x6xf32>, tensor<8x5xf32>, tensor<6x5xf64>
  }
  return %r#3 : tensor<6x5xf64>
}
