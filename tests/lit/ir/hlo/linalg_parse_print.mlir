// RUN: tessel-opt %s -split-input-file | tessel-opt -split-input-file | FileCheck %s
// RUN: tessel-opt %s -split-input-file -mlir-print-op-generic | tessel-opt -split-input-file | FileCheck %s

// CHECK-LABEL: func @dot_batch_matmul
func.func @dot_batch_matmul(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>) -> tensor<2x3x5xf32> {
  // CHECK: hlo.dot_general %{{.*}}, %{{.*}}, lhs_batch = [0], rhs_batch = [0], lhs_contract = [2], rhs_contract = [1] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  %r = hlo.dot_general %a, %b, lhs_batch = [0], rhs_batch = [0], lhs_contract = [2], rhs_contract = [1] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  return %r : tensor<2x3x5xf32>
}

// -----

// Fields in another order; bf16 operands accumulate into f32.
// CHECK-LABEL: func @dot_matmul_mixed_precision
func.func @dot_matmul_mixed_precision(%a: tensor<3x4xbf16>, %b: tensor<4x5xbf16>) -> tensor<3x5xf32> {
  // CHECK: hlo.dot_general %{{.*}}, %{{.*}}, lhs_contract = [1], rhs_contract = [0] : (tensor<3x4xbf16>, tensor<4x5xbf16>) -> tensor<3x5xf32>
  %r = hlo.dot_general %a, %b, rhs_contract = [0], lhs_contract = [1] : (tensor<3x4xbf16>, tensor<4x5xbf16>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}

// -----

// No dimension numbers at all: an outer product.
// CHECK-LABEL: func @dot_outer_product
func.func @dot_outer_product(%a: tensor<3xf32>, %b: tensor<5xf32>) -> tensor<3x5xf32> {
  // CHECK: hlo.dot_general %{{.*}}, %{{.*}} : (tensor<3xf32>, tensor<5xf32>) -> tensor<3x5xf32>
  %r = hlo.dot_general %a, %b : (tensor<3xf32>, tensor<5xf32>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}

// -----

// Contracting over the leading lhs dimension; free dims keep their order.
// CHECK-LABEL: func @dot_free_dims_order
func.func @dot_free_dims_order(%a: tensor<4x3x2xf32>, %b: tensor<6x4xf32>) -> tensor<3x2x6xf32> {
  // CHECK: lhs_contract = [0], rhs_contract = [1] : (tensor<4x3x2xf32>, tensor<6x4xf32>) -> tensor<3x2x6xf32>
  %r = hlo.dot_general %a, %b, lhs_contract = [0], rhs_contract = [1] : (tensor<4x3x2xf32>, tensor<6x4xf32>) -> tensor<3x2x6xf32>
  return %r : tensor<3x2x6xf32>
}

// -----

// Only dimension numbers: stride 1, no padding, no dilation, one group. 8 - 3 + 1 = 6.
// CHECK-LABEL: func @conv_minimal
func.func @conv_minimal(%x: tensor<1x8x8x3xf32>, %k: tensor<3x3x3x16xf32>) -> tensor<1x6x6x16xf32> {
  // CHECK: hlo.convolution %{{.*}}, %{{.*}}, dims = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f] : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x6x6x16xf32>
  %r = hlo.convolution %x, %k, dims = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f] : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x6x6x16xf32>
  return %r : tensor<1x6x6x16xf32>
}

// -----

// Strides and padding: (1 + 8 + 1 - 3) / 2 + 1 = 4.
// CHECK-LABEL: func @conv_strided_padded
func.func @conv_strided_padded(%x: tensor<1x8x8x3xf32>, %k: tensor<3x3x3x16xf32>) -> tensor<1x4x4x16xf32> {
  // CHECK: dims = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window_strides = [2, 2], padding = {{\[}}[1, 1], [1, 1]] : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x4x4x16xf32>
  %r = hlo.convolution %x, %k, dims = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window_strides = [2, 2], padding = [[1, 1], [1, 1]] : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x4x4x16xf32>
  return %r : tensor<1x4x4x16xf32>
}

// -----

// NCHW input, OIHW kernel, NHWC output; dilations, negative padding, feature groups.
// Spatial dim 0: input 5 dilated by 2 -> 9, padded -1 + 9 + 0 = 8, kernel 2 dilated by 2
// -> 3, (8 - 3) / 1 + 1 = 6. Spatial dim 1: 6, padded 6, kernel 2 -> 2, 5.
// Input features 4 in 2 groups of 2 = kernel input features; output features 6.
// CHECK-LABEL: func @conv_all_attrs
func.func @conv_all_attrs(%x: tensor<2x4x5x6xf32>, %k: tensor<6x2x2x2xf32>) -> tensor<2x6x5x6xf32> {
  // CHECK: dims = [b, f, 0, 1]x[o, i, 0, 1]->[b, 0, 1, f], padding = {{\[}}[-1, 0], [0, 0]], lhs_dilation = [2, 1], rhs_dilation = [2, 1], feature_group_count = 2 : (tensor<2x4x5x6xf32>, tensor<6x2x2x2xf32>) -> tensor<2x6x5x6xf32>
  %r = hlo.convolution %x, %k, dims = [b, f, 0, 1]x[o, i, 0, 1]->[b, 0, 1, f], feature_group_count = 2, rhs_dilation = [2, 1], lhs_dilation = [2, 1], padding = [[-1, 0], [0, 0]], batch_group_count = 1 : (tensor<2x4x5x6xf32>, tensor<6x2x2x2xf32>) -> tensor<2x6x5x6xf32>
  return %r : tensor<2x6x5x6xf32>
}

// -----

// Batch groups: input batch 4 in 2 groups -> output batch 2; output features 4 divisible
// by 2. One spatial dimension with the spatial index before the named ones.
// CHECK-LABEL: func @conv_batch_groups_1d
func.func @conv_batch_groups_1d(%x: tensor<7x4x3xf32>, %k: tensor<2x3x4xf32>) -> tensor<6x2x4xf32> {
  // CHECK: dims = [0, b, f]x[0, i, o]->[0, b, f], batch_group_count = 2 : (tensor<7x4x3xf32>, tensor<2x3x4xf32>) -> tensor<6x2x4xf32>
  %r = hlo.convolution %x, %k, dims = [0, b, f]x[0, i, o]->[0, b, f], batch_group_count = 2 : (tensor<7x4x3xf32>, tensor<2x3x4xf32>) -> tensor<6x2x4xf32>
  return %r : tensor<6x2x4xf32>
}

// -----

// No spatial dimensions: a convolution that is a matmul over features.
// CHECK-LABEL: func @conv_no_spatial
func.func @conv_no_spatial(%x: tensor<8x3xf32>, %k: tensor<3x5xf32>) -> tensor<8x5xf32> {
  // CHECK: dims = [b, f]x[i, o]->[b, f] : (tensor<8x3xf32>, tensor<3x5xf32>) -> tensor<8x5xf32>
  %r = hlo.convolution %x, %k, dims = [b, f]x[i, o]->[b, f] : (tensor<8x3xf32>, tensor<3x5xf32>) -> tensor<8x5xf32>
  return %r : tensor<8x5xf32>
}
