// RUN: tessel-opt %s -split-input-file --tessel-test-print-sharding-rules -verify-diagnostics

// One pass-through factor per dimension, shared by every operand and the result.
func.func @unary(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-remark @+1 {{sharding rule: ([i, j])->([i, j]) {i=4, j=8}}}
  %r = hlo.abs %x : tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

func.func @binary(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-remark @+1 {{sharding rule: ([i, j], [i, j])->([i, j]) {i=4, j=8}}}
  %r = hlo.add %x, %y : tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

func.func @compare_pred_result(%x: tensor<3xi32>, %y: tensor<3xi32>) -> tensor<3xi1> {
  // expected-remark @+1 {{sharding rule: ([i], [i])->([i]) {i=3}}}
  %r = hlo.compare LT, %x, %y : tensor<3xi32>
  return %r : tensor<3xi1>
}

// -----

func.func @convert(%x: tensor<2x3x5xf32>) -> tensor<2x3x5xbf16> {
  // expected-remark @+1 {{sharding rule: ([i, j, k])->([i, j, k]) {i=2, j=3, k=5}}}
  %r = hlo.convert %x : (tensor<2x3x5xf32>) -> tensor<2x3x5xbf16>
  return %r : tensor<2x3x5xbf16>
}

// -----

// A rank-0 predicate maps to no factor.
func.func @select_scalar_pred(%p: tensor<i1>, %x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-remark @+1 {{sharding rule: ([], [i, j], [i, j])->([i, j]) {i=4, j=8}}}
  %r = hlo.select %p, %x, %y : tensor<i1>, tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

func.func @select_tensor_pred(%p: tensor<4x8xi1>, %x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-remark @+1 {{sharding rule: ([i, j], [i, j], [i, j])->([i, j]) {i=4, j=8}}}
  %r = hlo.select %p, %x, %y : tensor<4x8xi1>, tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

// Rank-0 bounds map to no factor.
func.func @clamp_scalar_bounds(%lo: tensor<f32>, %x: tensor<16xf32>, %hi: tensor<f32>) -> tensor<16xf32> {
  // expected-remark @+1 {{sharding rule: ([], [i], [])->([i]) {i=16}}}
  %r = hlo.clamp %lo, %x, %hi : tensor<f32>, tensor<16xf32>, tensor<f32>
  return %r : tensor<16xf32>
}

// -----

// Rank-0 tensors have no dimensions and the rule has no factors.
func.func @rank0(%x: tensor<f32>) -> tensor<f32> {
  // expected-remark @+1 {{sharding rule: ([], [])->([]) {}}}
  %r = hlo.mul %x, %x : tensor<f32>
  return %r : tensor<f32>
}
