// RUN: tessel-opt %s -split-input-file --tessel-test-print-sharding-rules -verify-diagnostics

// Every arith and math op with the Elementwise trait gets one pass-through factor per dim.
func.func @arith_binary(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-remark @+1 {{sharding rule: ([i, j], [i, j])->([i, j]) {i=4, j=8}}}
  %r = arith.addf %x, %y : tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

func.func @arith_compare_and_select(%x: tensor<16xi32>, %y: tensor<16xi32>) -> tensor<16xi32> {
  // expected-remark @+1 {{sharding rule: ([i], [i])->([i]) {i=16}}}
  %c = arith.cmpi slt, %x, %y : tensor<16xi32>
  // expected-remark @+1 {{sharding rule: ([i], [i], [i])->([i]) {i=16}}}
  %r = arith.select %c, %x, %y : tensor<16xi1>, tensor<16xi32>
  return %r : tensor<16xi32>
}

// -----

// A scalar condition maps to no factor.
func.func @arith_select_scalar_condition(%c: i1, %x: tensor<16xi32>, %y: tensor<16xi32>) -> tensor<16xi32> {
  // expected-remark @+1 {{sharding rule: ([], [i], [i])->([i]) {i=16}}}
  %r = arith.select %c, %x, %y : tensor<16xi32>
  return %r : tensor<16xi32>
}

// -----

func.func @arith_cast(%x: tensor<2x3xf32>) -> tensor<2x3xf64> {
  // expected-remark @+1 {{sharding rule: ([i, j])->([i, j]) {i=2, j=3}}}
  %r = arith.extf %x : tensor<2x3xf32> to tensor<2x3xf64>
  return %r : tensor<2x3xf64>
}

// -----

// arith.constant is not elementwise: no model.
func.func @arith_constant() -> tensor<4xf32> {
  %c = arith.constant dense<1.0> : tensor<4xf32>
  return %c : tensor<4xf32>
}

// -----

func.func @math_unary(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-remark @+1 {{sharding rule: ([i, j])->([i, j]) {i=4, j=8}}}
  %r = math.exp %x : tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

func.func @math_fma(%x: tensor<8xf32>, %y: tensor<8xf32>, %z: tensor<8xf32>) -> tensor<8xf32> {
  // expected-remark @+1 {{sharding rule: ([i], [i], [i])->([i]) {i=8}}}
  %r = math.fma %x, %y, %z : tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

// Dynamic dims have no factor size.
func.func @dynamic_shape(%x: tensor<?x8xf32>) -> tensor<?x8xf32> {
  // expected-remark @+1 {{no sharding rule (opaque): factor sizes need static shapes, and an operand or result is dynamic}}
  %r = math.tanh %x : tensor<?x8xf32>
  return %r : tensor<?x8xf32>
}
