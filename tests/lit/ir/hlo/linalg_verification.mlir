// RUN: tessel-opt %s -split-input-file -verify-diagnostics

// Integer operands with a wider integer result; a rank-0 result of a full contraction.
func.func @dot_full_contraction_ok(%a: tensor<4xi8>, %b: tensor<4xi8>) -> tensor<i32> {
  %r = hlo.dot_general %a, %b, lhs_contract = [0], rhs_contract = [0] : (tensor<4xi8>, tensor<4xi8>) -> tensor<i32>
  return %r : tensor<i32>
}

// -----

func.func @dot_lhs_batch_range(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) {
  // expected-error @+1 {{'hlo.dot_general' op lhs_batch: dimension 2 is out of range [0, 2)}}
  %r = hlo.dot_general %a, %b, lhs_batch = [2], rhs_batch = [0] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3x3xf32>
  return
}

// -----

func.func @dot_rhs_contract_twice(%a: tensor<3x3xf32>, %b: tensor<3x3xf32>) {
  // expected-error @+1 {{rhs_contract: dimension 0 appears twice}}
  %r = hlo.dot_general %a, %b, lhs_contract = [0, 1], rhs_contract = [0, 0] : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<f32>
  return
}

// -----

func.func @dot_batch_and_contract(%a: tensor<3x4xf32>, %b: tensor<3x4xf32>) {
  // expected-error @+1 {{dimension 0 is in both lhs_batch and lhs_contract}}
  %r = hlo.dot_general %a, %b, lhs_batch = [0], rhs_batch = [0], lhs_contract = [0], rhs_contract = [1] : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3xf32>
  return
}

// -----

func.func @dot_batch_count(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) {
  // expected-error @+1 {{lhs_batch and rhs_batch must have the same size, got 1 and 0}}
  %r = hlo.dot_general %a, %b, lhs_batch = [0] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3x2x3xf32>
  return
}

// -----

func.func @dot_contract_count(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) {
  // expected-error @+1 {{lhs_contract and rhs_contract must have the same size, got 2 and 1}}
  %r = hlo.dot_general %a, %b, lhs_contract = [0, 1], rhs_contract = [0] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<3xf32>
  return
}

// -----

func.func @dot_batch_sizes(%a: tensor<2x3xf32>, %b: tensor<4x3xf32>) {
  // expected-error @+1 {{batch dimension sizes differ: lhs dimension 0 has size 2, rhs dimension 0 has size 4}}
  %r = hlo.dot_general %a, %b, lhs_batch = [0], rhs_batch = [0] : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<2x3x3xf32>
  return
}

// -----

func.func @dot_contract_sizes(%a: tensor<2x3xf32>, %b: tensor<4x5xf32>) {
  // expected-error @+1 {{contracting dimension sizes differ: lhs dimension 1 has size 3, rhs dimension 0 has size 4}}
  %r = hlo.dot_general %a, %b, lhs_contract = [1], rhs_contract = [0] : (tensor<2x3xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>
  return
}

// -----

func.func @dot_result_shape(%a: tensor<2x3xf32>, %b: tensor<3x5xf32>) {
  // expected-error @+1 {{result shape must be [2, 5], got [5, 2]}}
  %r = hlo.dot_general %a, %b, lhs_contract = [1], rhs_contract = [0] : (tensor<2x3xf32>, tensor<3x5xf32>) -> tensor<5x2xf32>
  return
}

// -----

// Negative padding that crops the input, and a stride larger than the output.
// (6 - 2 - 1 - 3) / 4 + 1 = 1.
func.func @conv_negative_padding_ok(%x: tensor<1x6x1xf32>, %k: tensor<3x1x1xf32>) -> tensor<1x1x1xf32> {
  %r = hlo.convolution %x, %k, dims = [b, 0, f]x[0, i, o]->[b, 0, f], window_strides = [4], padding = [[-2, -1]] : (tensor<1x6x1xf32>, tensor<3x1x1xf32>) -> tensor<1x1x1xf32>
  return %r : tensor<1x1x1xf32>
}

// -----

func.func @conv_lhs_rank(%x: tensor<1x8x3xf32>, %k: tensor<3x3x3x16xf32>) {
  // expected-error @+1 {{'hlo.convolution' op lhs must have rank 4 (2 + spatial dimensions), got 3}}
  %r = hlo.convolution %x, %k, dims = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f] : (tensor<1x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x6x6x16xf32>
  return
}

// -----

func.func @conv_rhs_rank(%x: tensor<1x8x8x3xf32>, %k: tensor<3x3x16xf32>) {
  // expected-error @+1 {{rhs must have rank 4 (2 + spatial dimensions), got 3}}
  %r = hlo.convolution %x, %k, dims = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f] : (tensor<1x8x8x3xf32>, tensor<3x3x16xf32>) -> tensor<1x6x6x16xf32>
  return
}

// -----

func.func @conv_result_rank(%x: tensor<1x8x8x3xf32>, %k: tensor<3x3x3x16xf32>) {
  // expected-error @+1 {{result must have rank 4 (2 + spatial dimensions), got 2}}
  %r = hlo.convolution %x, %k, dims = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f] : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x16xf32>
  return
}

// -----

func.func @conv_empty_kernel(%x: tensor<1x8x3xf32>, %k: tensor<0x3x4xf32>) {
  // expected-error @+1 {{kernel spatial size must be at least 1, got 0}}
  %r = hlo.convolution %x, %k, dims = [b, 0, f]x[0, i, o]->[b, 0, f] : (tensor<1x8x3xf32>, tensor<0x3x4xf32>) -> tensor<1x9x4xf32>
  return
}

// -----

func.func @conv_strides_size(%x: tensor<1x8x3xf32>, %k: tensor<3x3x4xf32>) {
  // expected-error @+1 {{window_strides must have 1 entries, has 2}}
  %r = hlo.convolution %x, %k, dims = [b, 0, f]x[0, i, o]->[b, 0, f], window_strides = [1, 1] : (tensor<1x8x3xf32>, tensor<3x3x4xf32>) -> tensor<1x6x4xf32>
  return
}

// -----

func.func @conv_lhs_dilation_zero(%x: tensor<1x8x3xf32>, %k: tensor<3x3x4xf32>) {
  // expected-error @+1 {{lhs_dilation must be at least 1, got 0}}
  %r = hlo.convolution %x, %k, dims = [b, 0, f]x[0, i, o]->[b, 0, f], lhs_dilation = [0] : (tensor<1x8x3xf32>, tensor<3x3x4xf32>) -> tensor<1x6x4xf32>
  return
}

// -----

func.func @conv_rhs_dilation_size(%x: tensor<1x8x3xf32>, %k: tensor<3x3x4xf32>) {
  // expected-error @+1 {{rhs_dilation must have 1 entries, has 0}}
  %r = hlo.convolution %x, %k, dims = [b, 0, f]x[0, i, o]->[b, 0, f], rhs_dilation = [] : (tensor<1x8x3xf32>, tensor<3x3x4xf32>) -> tensor<1x6x4xf32>
  return
}

// -----

func.func @conv_padding_shape(%x: tensor<1x8x3xf32>, %k: tensor<3x3x4xf32>) {
  // expected-error @+1 {{padding must have shape [1, 2], got [2]}}
  %r = "hlo.convolution"(%x, %k) <{dimension_numbers = #hlo.conv<[b, 0, f]x[0, i, o]->[b, 0, f]>, padding = dense<[1, 1]> : tensor<2xi64>}> : (tensor<1x8x3xf32>, tensor<3x3x4xf32>) -> tensor<1x8x4xf32>
  return
}

// -----

func.func @conv_negative_padded_size(%x: tensor<1x2x3xf32>, %k: tensor<1x3x4xf32>) {
  // expected-error @+1 {{dimension 0 has negative padded size -1}}
  %r = hlo.convolution %x, %k, dims = [b, 0, f]x[0, i, o]->[b, 0, f], padding = [[-2, -1]] : (tensor<1x2x3xf32>, tensor<1x3x4xf32>) -> tensor<1x0x4xf32>
  return
}

// -----

// Padding near 2^63: the padded size is checked for overflow, not wrapped.
func.func @conv_padded_size_overflows(%x: tensor<1x2x3xf32>, %k: tensor<1x3x4xf32>) {
  // expected-error @+1 {{dimension 0: its padded, dilated size or window passes 2^63 - 1}}
  %r = hlo.convolution %x, %k, dims = [b, 0, f]x[0, i, o]->[b, 0, f], padding = [[9223372036854775807, 8]] : (tensor<1x2x3xf32>, tensor<1x3x4xf32>) -> tensor<1x2x4xf32>
  return
}

// -----

func.func @conv_group_count_zero(%x: tensor<1x8x3xf32>, %k: tensor<3x3x4xf32>) {
  // expected-error @+1 {{feature_group_count and batch_group_count must be at least 1, got 0 and 1}}
  %r = hlo.convolution %x, %k, dims = [b, 0, f]x[0, i, o]->[b, 0, f], feature_group_count = 0 : (tensor<1x8x3xf32>, tensor<3x3x4xf32>) -> tensor<1x6x4xf32>
  return
}

// -----

func.func @conv_both_group_counts(%x: tensor<2x8x4xf32>, %k: tensor<3x2x4xf32>) {
  // expected-error @+1 {{feature_group_count and batch_group_count cannot both be larger than 1, got 2 and 2}}
  %r = hlo.convolution %x, %k, dims = [b, 0, f]x[0, i, o]->[b, 0, f], feature_group_count = 2, batch_group_count = 2 : (tensor<2x8x4xf32>, tensor<3x2x4xf32>) -> tensor<1x6x4xf32>
  return
}

// -----

func.func @conv_input_features_not_divisible(%x: tensor<1x8x6xf32>, %k: tensor<3x1x8xf32>) {
  // expected-error @+1 {{input feature size 6 is not divisible by feature_group_count 4}}
  %r = hlo.convolution %x, %k, dims = [b, 0, f]x[0, i, o]->[b, 0, f], feature_group_count = 4 : (tensor<1x8x6xf32>, tensor<3x1x8xf32>) -> tensor<1x6x8xf32>
  return
}

// -----

func.func @conv_kernel_input_features(%x: tensor<1x8x4xf32>, %k: tensor<3x3x4xf32>) {
  // expected-error @+1 {{kernel input feature size 3 times feature_group_count 2 must equal the input feature size 4}}
  %r = hlo.convolution %x, %k, dims = [b, 0, f]x[0, i, o]->[b, 0, f], feature_group_count = 2 : (tensor<1x8x4xf32>, tensor<3x3x4xf32>) -> tensor<1x6x4xf32>
  return
}

// -----

func.func @conv_output_features_feature_groups(%x: tensor<1x8x4xf32>, %k: tensor<3x2x3xf32>) {
  // expected-error @+1 {{kernel output feature size 3 must be divisible by feature_group_count 2 and batch_group_count 1}}
  %r = hlo.convolution %x, %k, dims = [b, 0, f]x[0, i, o]->[b, 0, f], feature_group_count = 2 : (tensor<1x8x4xf32>, tensor<3x2x3xf32>) -> tensor<1x6x3xf32>
  return
}

// -----

func.func @conv_output_features_batch_groups(%x: tensor<2x8x4xf32>, %k: tensor<3x4x3xf32>) {
  // expected-error @+1 {{kernel output feature size 3 must be divisible by feature_group_count 1 and batch_group_count 2}}
  %r = hlo.convolution %x, %k, dims = [b, 0, f]x[0, i, o]->[b, 0, f], batch_group_count = 2 : (tensor<2x8x4xf32>, tensor<3x4x3xf32>) -> tensor<1x6x3xf32>
  return
}

// -----

func.func @conv_batch_not_divisible(%x: tensor<3x8x4xf32>, %k: tensor<3x4x4xf32>) {
  // expected-error @+1 {{input batch size 3 is not divisible by batch_group_count 2}}
  %r = hlo.convolution %x, %k, dims = [b, 0, f]x[0, i, o]->[b, 0, f], batch_group_count = 2 : (tensor<3x8x4xf32>, tensor<3x4x4xf32>) -> tensor<1x6x4xf32>
  return
}

// -----

func.func @conv_result_shape(%x: tensor<1x8x3xf32>, %k: tensor<3x3x4xf32>) {
  // expected-error @+1 {{result shape must be [1, 6, 4], got [1, 8, 4]}}
  %r = hlo.convolution %x, %k, dims = [b, 0, f]x[0, i, o]->[b, 0, f] : (tensor<1x8x3xf32>, tensor<3x3x4xf32>) -> tensor<1x8x4xf32>
  return
}
