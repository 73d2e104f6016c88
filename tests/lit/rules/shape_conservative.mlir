// RUN: tessel-opt %s -split-input-file --tessel-test-print-sharding-rules=conservative=true -verify-diagnostics

// Conservative mode blocks the permutation factors of slice and pad.
func.func @slice(%x: tensor<8x3xf32>) -> tensor<2x3xf32> {
  // expected-remark @+1 {{sharding rule: ([i, j])->([i, j]) {i=8, j=3} permutation={i} blocked={i}}}
  %r = hlo.slice %x [1:5:2, 0:3] : (tensor<8x3xf32>) -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}

// -----

func.func @pad(%x: tensor<4x3xf32>, %pv: tensor<f32>) -> tensor<4x6xf32> {
  // expected-remark @+1 {{sharding rule: ([i, j], [])->([i, j]) {i=4, j=6} permutation={j} blocked={j}}}
  %r = hlo.pad %x, %pv, low = [0, 1], high = [0, 2], interior = [0, 0] : (tensor<4x3xf32>, tensor<f32>) -> tensor<4x6xf32>
  return %r : tensor<4x6xf32>
}

// -----

// Reversing only swaps whole shards: not blocked even here.
func.func @reverse(%x: tensor<4x3xf32>) -> tensor<4x3xf32> {
  // expected-remark @+1 {{sharding rule: ([i, j])->([i, j]) {i=4, j=3} permutation={i}}}
  %r = hlo.reverse %x, dims = [0] : tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}
