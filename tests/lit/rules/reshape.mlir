// RUN: tessel-opt %s -split-input-file --tessel-test-print-sharding-rules -verify-diagnostics

// Merging dims: the result dim is made of the operand dims' factors.
func.func @merge_2x4x32_to_8x32(%x: tensor<2x4x32xf32>) -> tensor<8x32xf32> {
  // expected-remark @+1 {{sharding rule: ([i, j, k])->([ij, k]) {i=2, j=4, k=32}}}
  %r = hlo.reshape %x : (tensor<2x4x32xf32>) -> tensor<8x32xf32>
  return %r : tensor<8x32xf32>
}

// -----

// Splitting and merging at once: 8 = 2*4 and 16 = 4*4 share the middle factor.
func.func @regroup_8x4_to_2x16(%x: tensor<8x4xf32>) -> tensor<2x16xf32> {
  // expected-remark @+1 {{sharding rule: ([ij, k])->([i, jk]) {i=2, j=4, k=4}}}
  %r = hlo.reshape %x : (tensor<8x4xf32>) -> tensor<2x16xf32>
  return %r : tensor<2x16xf32>
}

// -----

func.func @merge_4x6_to_24(%x: tensor<4x6xf32>) -> tensor<24xf32> {
  // expected-remark @+1 {{sharding rule: ([i, j])->([ij]) {i=4, j=6}}}
  %r = hlo.reshape %x : (tensor<4x6xf32>) -> tensor<24xf32>
  return %r : tensor<24xf32>
}

// -----

func.func @split_24_to_4x6(%x: tensor<24xf32>) -> tensor<4x6xf32> {
  // expected-remark @+1 {{sharding rule: ([ij])->([i, j]) {i=4, j=6}}}
  %r = hlo.reshape %x : (tensor<24xf32>) -> tensor<4x6xf32>
  return %r : tensor<4x6xf32>
}

// -----

// Nothing lines up: four unshared factors, so no sharding propagates (an all-to-all case).
func.func @swap_3x2_to_2x3(%x: tensor<3x2xf32>) -> tensor<2x3xf32> {
  // expected-remark @+1 {{sharding rule: ([i, l])->([j, k]) {i=3, j=2, k=3, l=2}}}
  %r = hlo.reshape %x : (tensor<3x2xf32>) -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}

// -----

// The sides drift apart after 3 vs 2 and meet again at 6: the minor 2 is shared.
func.func @realign_3x4_to_2x6(%x: tensor<3x4xf32>) -> tensor<2x6xf32> {
  // expected-remark @+1 {{sharding rule: ([i, lm])->([j, km]) {i=3, j=2, k=3, l=2, m=2}}}
  %r = hlo.reshape %x : (tensor<3x4xf32>) -> tensor<2x6xf32>
  return %r : tensor<2x6xf32>
}

// -----

// Size-1 dims get their own factors on either side.
func.func @unit_dims(%x: tensor<1x4x1xf32>) -> tensor<4x1xf32> {
  // expected-remark @+1 {{sharding rule: ([i, j, k])->([j, l]) {i=1, j=4, k=1, l=1}}}
  %r = hlo.reshape %x : (tensor<1x4x1xf32>) -> tensor<4x1xf32>
  return %r : tensor<4x1xf32>
}

// -----

func.func @to_scalar(%x: tensor<1x1xui8>) -> tensor<ui8> {
  // expected-remark @+1 {{sharding rule: ([i, j])->([]) {i=1, j=1}}}
  %r = hlo.reshape %x : (tensor<1x1xui8>) -> tensor<ui8>
  return %r : tensor<ui8>
}

// -----

// No elements: every dim gets a factor of its own.
func.func @zero_elements(%x: tensor<0x4xf32>) -> tensor<2x0xf32> {
  // expected-remark @+1 {{sharding rule: ([i, j])->([k, l]) {i=0, j=4, k=2, l=0}}}
  %r = hlo.reshape %x : (tensor<0x4xf32>) -> tensor<2x0xf32>
  return %r : tensor<2x0xf32>
}
