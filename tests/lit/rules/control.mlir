// RUN: tessel-opt %s -split-input-file --tessel-test-print-sharding-rules -verify-diagnostics

// The sorted dim needs replication, and is movable (the partitioner can move its split to
// another dim for the sort); the other dims pass through. Inputs and results share every
// factor.
func.func @sort(%k: tensor<2x8xf32>, %v: tensor<2x8xi32>) -> (tensor<2x8xf32>, tensor<2x8xi32>) {
  // expected-remark @+1 {{sharding rule: ([i, j], [i, j])->([i, j], [i, j]) {i=2, j=8} need_replication={j} movable={j}}}
  %s:2 = hlo.sort(%k, %v) dimension = 1 is_stable : tensor<2x8xf32>, tensor<2x8xi32> comparator {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
    %lt = hlo.compare LT, %a, %b : tensor<f32>
    hlo.return %lt : tensor<i1>
  }
  return %s#0, %s#1 : tensor<2x8xf32>, tensor<2x8xi32>
}

// -----

// Constants and iotas have no operands: their results take their users' shardings.
func.func @source_ops() -> (tensor<2xf32>, tensor<4x8xi32>) {
  // expected-remark @+1 {{no sharding rule (source op): no operands: the result takes the sharding its users ask for}}
  %c = hlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  // expected-remark @+1 {{no sharding rule (source op): no operands: the result takes the sharding its users ask for}}
  %i = hlo.iota dim = 1 : tensor<4x8xi32>
  return %c, %i : tensor<2xf32>, tensor<4x8xi32>
}

// -----

// while: no factor rule; propagation follows the loop's data-flow edges, and visits the
// ops inside the regions, whose terminators feed those edges.
func.func @while(%i0: tensor<i32>, %x0: tensor<4xf32>, %p: tensor<i1>) -> (tensor<i32>, tensor<4xf32>) {
  // expected-remark @+1 {{no sharding rule (data-flow edges): loop state k is one value across operand k, the cond and body arguments k, the body's returned value k and result k}}
  %r:2 = hlo.while(%i = %i0, %x = %x0) : tensor<i32>, tensor<4xf32>
  cond {
    // expected-remark @+1 {{no sharding rule (data-flow edges): region terminator: its operands join the parent op's data-flow edges}}
    hlo.return %p : tensor<i1>
  } do {
    // expected-remark @+1 {{sharding rule: ([i], [i])->([i]) {i=4}}}
    %y = hlo.add %x, %x : tensor<4xf32>
    // expected-remark @+1 {{no sharding rule (data-flow edges): region terminator: its operands join the parent op's data-flow edges}}
    hlo.return %i, %y : tensor<i32>, tensor<4xf32>
  }
  return %r#0, %r#1 : tensor<i32>, tensor<4xf32>
}

// -----

func.func @case(%i: tensor<i32>, %a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  // expected-remark @+1 {{no sharding rule (data-flow edges): result k is one value with every branch's returned value k}}
  %r = hlo.case %i branches {
    // expected-remark @+1 {{no sharding rule (data-flow edges): region terminator: its operands join the parent op's data-flow edges}}
    hlo.return %a : tensor<4xf32>
  }, {
    // expected-remark @+1 {{no sharding rule (data-flow edges): region terminator: its operands join the parent op's data-flow edges}}
    hlo.return %b : tensor<4xf32>
  } : (tensor<i32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// Without a rule of its own a custom call is opaque.
func.func @custom_call_opaque(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-remark @+1 {{no sharding rule (opaque): custom call @my_kernel has no tessel.sharding_rule attribute}}
  %r = hlo.custom_call @my_kernel(%a) {backend_config = "fast"} : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// A custom call may state its rule in the textual form.
func.func @custom_call_with_rule(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>) -> tensor<4x16xf32> {
  // expected-remark @+1 {{sharding rule: ([i, k], [k, j])->([i, j]) {i=4, j=16, k=8} reduction={k}}}
  %r = hlo.custom_call @my_matmul(%a, %b) {tessel.sharding_rule = "([i, k], [k, j])->([i, j]) {i=4, j=16, k=8} reduction={k}"} : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// -----

// Every kind list, and blocked, round-trips through the attribute.
func.func @custom_call_all_kinds(%a: tensor<4x8x6xf32>) -> tensor<4x8x6xf32> {
  // expected-remark @+1 {{sharding rule: ([i, j, k])->([i, j, k]) {i=4, j=8, k=6} need_replication={i} permutation={j} blocked={j, k}}}
  %r = hlo.custom_call @my_kernel(%a) {tessel.sharding_rule = "([i,j,k])->([i,j,k]) {k=6, j=8, i=4} need_replication={i} permutation={j} blocked={j, k}"} : (tensor<4x8x6xf32>) -> tensor<4x8x6xf32>
  return %r : tensor<4x8x6xf32>
}

// -----

func.func @custom_call_malformed_rule(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-remark @+1 {{no sharding rule (opaque): tessel.sharding_rule is malformed: expected '}' at end of rule}}
  %r = hlo.custom_call @my_kernel(%a) {tessel.sharding_rule = "([i])->([i]) {i=4"} : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @custom_call_rule_does_not_fit(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-remark @+1 {{no sharding rule (opaque): tessel.sharding_rule does not fit the op: dimension 0 of operand 0 has size 4 but its factors multiply to 8}}
  %r = hlo.custom_call @my_kernel(%a) {tessel.sharding_rule = "([i])->([i]) {i=8}"} : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
