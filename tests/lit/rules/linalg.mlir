// RUN: tessel-opt %s -split-input-file --tessel-test-print-sharding-rules -verify-diagnostics

// Matmul: lhs-free i, rhs-free j, contracting k (reduction).
func.func @dot_general_matmul(%a: tensor<8x8xf32>, %b: tensor<8x16xf32>) -> tensor<8x16xf32> {
  // expected-remark @+1 {{sharding rule: ([i, k], [k, j])->([i, j]) {i=8, j=16, k=8} reduction={k}}}
  %r = hlo.dot_general %a, %b, lhs_contract = [1], rhs_contract = [0] : (tensor<8x8xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// -----

// Batch factor first (lhs, rhs, result), then lhs-free, rhs-free, contracting.
func.func @dot_general_batched(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>) -> tensor<2x3x5xf32> {
  // expected-remark @+1 {{sharding rule: ([i, j, l], [i, l, k])->([i, j, k]) {i=2, j=3, k=5, l=4} reduction={l}}}
  %r = hlo.dot_general %a, %b, lhs_batch = [0], rhs_batch = [0], lhs_contract = [2], rhs_contract = [1] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  return %r : tensor<2x3x5xf32>
}

// -----

// Outer product: no contracting factor.
func.func @dot_general_outer(%a: tensor<3xf32>, %b: tensor<5xf32>) -> tensor<3x5xf32> {
  // expected-remark @+1 {{sharding rule: ([i], [j])->([i, j]) {i=3, j=5}}}
  %r = hlo.dot_general %a, %b : (tensor<3xf32>, tensor<5xf32>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}

// -----

// Per spatial dim: windows (6, permutation) major to window size (3, reduction) in the
// input; input feature (reduction) and output feature last.
func.func @convolution(%x: tensor<1x8x8x3xf32>, %k: tensor<3x3x3x16xf32>) -> tensor<1x6x6x16xf32> {
  // expected-remark @+1 {{sharding rule: ([i, jk, lm, n], [k, m, n, o])->([i, j, l, o]) {i=1, j=6, k=3, l=6, m=3, n=3, o=16} reduction={k, m, n} permutation={j, l}}}
  %r = hlo.convolution %x, %k, dims = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f] : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x6x6x16xf32>
  return %r : tensor<1x6x6x16xf32>
}

// -----

// A 1x1 kernel with stride 1 and no padding: the windows factors are pass-through and each
// input spatial dim is exactly windows x 1.
func.func @convolution_1x1(%x: tensor<2x8x8x3xf32>, %k: tensor<1x1x3x16xf32>) -> tensor<2x8x8x16xf32> {
  // expected-remark @+1 {{sharding rule: ([i, jk, lm, n], [k, m, n, o])->([i, j, l, o]) {i=2, j=8, k=1, l=8, m=1, n=3, o=16} reduction={k, m, n}}}
  %r = hlo.convolution %x, %k, dims = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f] : (tensor<2x8x8x3xf32>, tensor<1x1x3x16xf32>) -> tensor<2x8x8x16xf32>
  return %r : tensor<2x8x8x16xf32>
}

// -----

// The window size (5) is larger than the number of windows (4): it is the major factor.
func.func @convolution_large_window(%x: tensor<1x8x1xf32>, %k: tensor<5x1x1xf32>) -> tensor<1x4x1xf32> {
  // expected-remark @+1 {{sharding rule: ([i, jk, l], [j, l, m])->([i, k, m]) {i=1, j=5, k=4, l=1, m=1} reduction={j, l} permutation={k}}}
  %r = hlo.convolution %x, %k, dims = [b, 0, f]x[0, i, o]->[b, 0, f] : (tensor<1x8x1xf32>, tensor<5x1x1xf32>) -> tensor<1x4x1xf32>
  return %r : tensor<1x4x1xf32>
}

// -----

// Two feature groups: a group factor shared by input feature, kernel output feature and
// output feature, major to the per-group factors.
func.func @convolution_feature_groups(%x: tensor<2x4x5x6xf32>, %k: tensor<6x2x2x2xf32>) -> tensor<2x6x5x6xf32> {
  // expected-remark @+1 {{sharding rule: ([i, no, jk, lm], [np, o, k, m])->([i, j, l, np]) {i=2, j=6, k=2, l=5, m=2, n=2, o=2, p=3} reduction={k, m, o} permutation={j, l}}}
  %r = hlo.convolution %x, %k, dims = [b, f, 0, 1]x[o, i, 0, 1]->[b, 0, 1, f], feature_group_count = 2, rhs_dilation = [2, 1], lhs_dilation = [2, 1], padding = [[-1, 0], [0, 0]], batch_group_count = 1 : (tensor<2x4x5x6xf32>, tensor<6x2x2x2xf32>) -> tensor<2x6x5x6xf32>
  return %r : tensor<2x6x5x6xf32>
}

// -----

// Two batch groups: a group factor shared by input batch, kernel output feature and output
// feature; the output batch is the per-group batch.
func.func @convolution_batch_groups(%x: tensor<4x8x3xf32>, %k: tensor<3x3x6xf32>) -> tensor<2x6x6xf32> {
  // expected-remark @+1 {{sharding rule: ([ij, kl, m], [l, m, in])->([j, k, in]) {i=2, j=2, k=6, l=3, m=3, n=3} reduction={l, m} permutation={k}}}
  %r = hlo.convolution %x, %k, dims = [b, 0, f]x[0, i, o]->[b, 0, f], batch_group_count = 2 : (tensor<4x8x3xf32>, tensor<3x3x6xf32>) -> tensor<2x6x6xf32>
  return %r : tensor<2x6x6xf32>
}
