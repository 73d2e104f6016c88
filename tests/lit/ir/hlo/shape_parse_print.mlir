// RUN: tessel-opt %s -split-input-file | tessel-opt -split-input-file | FileCheck %s
// RUN: tessel-opt %s -split-input-file -mlir-print-op-generic | tessel-opt -split-input-file | FileCheck %s

// CHECK-LABEL: func @broadcast_in_dim
func.func @broadcast_in_dim(%x: tensor<4xf32>) -> tensor<2x4xf32> {
  // CHECK: %[[R:.*]] = hlo.broadcast_in_dim %{{.*}}, dims = [1] : (tensor<4xf32>) -> tensor<2x4xf32>
  %0 = hlo.broadcast_in_dim %x, dims = [1] : (tensor<4xf32>) -> tensor<2x4xf32>
  // CHECK: return %[[R]]
  return %0 : tensor<2x4xf32>
}

// CHECK-LABEL: func @broadcast_in_dim_size_one
func.func @broadcast_in_dim_size_one(%x: tensor<1x3xi32>) -> tensor<3x5x2xi32> {
  // CHECK: hlo.broadcast_in_dim %{{.*}}, dims = [1, 0] : (tensor<1x3xi32>) -> tensor<3x5x2xi32>
  %0 = hlo.broadcast_in_dim %x, dims = [1, 0] : (tensor<1x3xi32>) -> tensor<3x5x2xi32>
  return %0 : tensor<3x5x2xi32>
}

// CHECK-LABEL: func @broadcast_in_dim_scalar
func.func @broadcast_in_dim_scalar(%x: tensor<i1>) -> tensor<2x4xi1> {
  // CHECK: hlo.broadcast_in_dim %{{.*}}, dims = [] : (tensor<i1>) -> tensor<2x4xi1>
  %0 = hlo.broadcast_in_dim %x, dims = [] : (tensor<i1>) -> tensor<2x4xi1>
  return %0 : tensor<2x4xi1>
}

// CHECK-LABEL: func @reshape
func.func @reshape(%x: tensor<2x3xf32>) -> tensor<6xf32> {
  // CHECK: %[[R:.*]] = hlo.reshape %{{.*}} : (tensor<2x3xf32>) -> tensor<6xf32>
  %0 = hlo.reshape %x : (tensor<2x3xf32>) -> tensor<6xf32>
  // CHECK: return %[[R]]
  return %0 : tensor<6xf32>
}

// CHECK-LABEL: func @reshape_to_scalar
func.func @reshape_to_scalar(%x: tensor<1x1xui8>) -> tensor<ui8> {
  // CHECK: hlo.reshape %{{.*}} : (tensor<1x1xui8>) -> tensor<ui8>
  %0 = hlo.reshape %x : (tensor<1x1xui8>) -> tensor<ui8>
  return %0 : tensor<ui8>
}

// CHECK-LABEL: func @transpose
func.func @transpose(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // CHECK: %[[R:.*]] = hlo.transpose %{{.*}}, permutation = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %0 = hlo.transpose %x, permutation = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  // CHECK: return %[[R]]
  return %0 : tensor<3x2xf32>
}

// CHECK-LABEL: func @transpose_rank3
func.func @transpose_rank3(%x: tensor<2x3x4xi64>) -> tensor<4x2x3xi64> {
  // CHECK: hlo.transpose %{{.*}}, permutation = [2, 0, 1] : (tensor<2x3x4xi64>) -> tensor<4x2x3xi64>
  %0 = hlo.transpose %x, permutation = [2, 0, 1] : (tensor<2x3x4xi64>) -> tensor<4x2x3xi64>
  return %0 : tensor<4x2x3xi64>
}

// CHECK-LABEL: func @slice
func.func @slice(%x: tensor<8x3xf32>) -> tensor<2x3xf32> {
  // CHECK: %[[R:.*]] = hlo.slice %{{.*}} [1:5:2, 0:3] : (tensor<8x3xf32>) -> tensor<2x3xf32>
  %0 = hlo.slice %x [1:5:2, 0:3] : (tensor<8x3xf32>) -> tensor<2x3xf32>
  // CHECK: return %[[R]]
  return %0 : tensor<2x3xf32>
}

// A stride of 1 written out is printed without it.
// CHECK-LABEL: func @slice_unit_stride_written
func.func @slice_unit_stride_written(%x: tensor<8x3xf32>) -> tensor<3x1xf32> {
  // CHECK: hlo.slice %{{.*}} [0:3, 2:3] : (tensor<8x3xf32>) -> tensor<3x1xf32>
  %0 = hlo.slice %x [0:3:1, 2:3:1] : (tensor<8x3xf32>) -> tensor<3x1xf32>
  return %0 : tensor<3x1xf32>
}

// CHECK-LABEL: func @slice_empty_and_strided
func.func @slice_empty_and_strided(%x: tensor<8x10xf32>) -> tensor<0x4xf32> {
  // CHECK: hlo.slice %{{.*}} [4:4, 0:10:3] : (tensor<8x10xf32>) -> tensor<0x4xf32>
  %0 = hlo.slice %x [4:4, 0:10:3] : (tensor<8x10xf32>) -> tensor<0x4xf32>
  return %0 : tensor<0x4xf32>
}

// CHECK-LABEL: func @slice_scalar
func.func @slice_scalar(%x: tensor<f32>) -> tensor<f32> {
  // CHECK: hlo.slice %{{.*}} [] : (tensor<f32>) -> tensor<f32>
  %0 = hlo.slice %x [] : (tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// CHECK-LABEL: func @dynamic_slice
func.func @dynamic_slice(%x: tensor<8x8xf32>, %i: tensor<i32>, %j: tensor<i32>) -> tensor<2x3xf32> {
  // CHECK: %[[R:.*]] = hlo.dynamic_slice %{{.*}}, %{{.*}}, %{{.*}}, sizes = [2, 3] : (tensor<8x8xf32>, tensor<i32>, tensor<i32>) -> tensor<2x3xf32>
  %0 = hlo.dynamic_slice %x, %i, %j, sizes = [2, 3]
      : (tensor<8x8xf32>, tensor<i32>, tensor<i32>) -> tensor<2x3xf32>
  // CHECK: return %[[R]]
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func @dynamic_slice_scalar
func.func @dynamic_slice_scalar(%x: tensor<i8>) -> tensor<i8> {
  // CHECK: hlo.dynamic_slice %{{.*}}, sizes = [] : (tensor<i8>) -> tensor<i8>
  %0 = hlo.dynamic_slice %x, sizes = [] : (tensor<i8>) -> tensor<i8>
  return %0 : tensor<i8>
}

// CHECK-LABEL: func @dynamic_update_slice
func.func @dynamic_update_slice(%x: tensor<8x8xf32>, %u: tensor<2x3xf32>, %i: tensor<ui64>,
                                %j: tensor<ui64>) -> tensor<8x8xf32> {
  // CHECK: %[[R:.*]] = hlo.dynamic_update_slice %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : (tensor<8x8xf32>, tensor<2x3xf32>, tensor<ui64>, tensor<ui64>) -> tensor<8x8xf32>
  %0 = hlo.dynamic_update_slice %x, %u, %i, %j
      : (tensor<8x8xf32>, tensor<2x3xf32>, tensor<ui64>, tensor<ui64>) -> tensor<8x8xf32>
  // CHECK: return %[[R]]
  return %0 : tensor<8x8xf32>
}

// CHECK-LABEL: func @dynamic_update_slice_scalar
func.func @dynamic_update_slice_scalar(%x: tensor<f32>, %u: tensor<f32>) -> tensor<f32> {
  // CHECK: hlo.dynamic_update_slice %{{.*}}, %{{.*}} : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %0 = hlo.dynamic_update_slice %x, %u : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// CHECK-LABEL: func @pad
func.func @pad(%x: tensor<2x3xf32>, %pv: tensor<f32>) -> tensor<5x4xf32> {
  // CHECK: %[[R:.*]] = hlo.pad %{{.*}}, %{{.*}}, low = [1, 0], high = [2, -1], interior = [0, 1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<5x4xf32>
  %0 = hlo.pad %x, %pv, low = [1, 0], high = [2, -1], interior = [0, 1]
      : (tensor<2x3xf32>, tensor<f32>) -> tensor<5x4xf32>
  // CHECK: return %[[R]]
  return %0 : tensor<5x4xf32>
}

// Negative edge padding may remove every element.
// CHECK-LABEL: func @pad_to_empty
func.func @pad_to_empty(%x: tensor<3xi32>, %pv: tensor<i32>) -> tensor<0xi32> {
  // CHECK: hlo.pad %{{.*}}, %{{.*}}, low = [-1], high = [-2], interior = [0] : (tensor<3xi32>, tensor<i32>) -> tensor<0xi32>
  %0 = hlo.pad %x, %pv, low = [-1], high = [-2], interior = [0]
      : (tensor<3xi32>, tensor<i32>) -> tensor<0xi32>
  return %0 : tensor<0xi32>
}

// Interior padding of an empty dimension adds nothing.
// CHECK-LABEL: func @pad_empty_interior
func.func @pad_empty_interior(%x: tensor<0xi1>, %pv: tensor<i1>) -> tensor<1xi1> {
  // CHECK: hlo.pad %{{.*}}, %{{.*}}, low = [1], high = [0], interior = [5] : (tensor<0xi1>, tensor<i1>) -> tensor<1xi1>
  %0 = hlo.pad %x, %pv, low = [1], high = [0], interior = [5]
      : (tensor<0xi1>, tensor<i1>) -> tensor<1xi1>
  return %0 : tensor<1xi1>
}

// CHECK-LABEL: func @pad_scalar
func.func @pad_scalar(%x: tensor<f32>, %pv: tensor<f32>) -> tensor<f32> {
  // CHECK: hlo.pad %{{.*}}, %{{.*}}, low = [], high = [], interior = [] : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %0 = hlo.pad %x, %pv, low = [], high = [], interior = [] : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// CHECK-LABEL: func @concatenate
func.func @concatenate(%a: tensor<2x3xf32>, %b: tensor<4x3xf32>) -> tensor<6x3xf32> {
  // CHECK: %[[R:.*]] = hlo.concatenate %{{.*}}, %{{.*}}, dim = 0 : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<6x3xf32>
  %0 = hlo.concatenate %a, %b, dim = 0 : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<6x3xf32>
  // CHECK: return %[[R]]
  return %0 : tensor<6x3xf32>
}

// CHECK-LABEL: func @concatenate_one_input
func.func @concatenate_one_input(%a: tensor<2x3xi16>) -> tensor<2x3xi16> {
  // CHECK: hlo.concatenate %{{.*}}, dim = 1 : (tensor<2x3xi16>) -> tensor<2x3xi16>
  %0 = hlo.concatenate %a, dim = 1 : (tensor<2x3xi16>) -> tensor<2x3xi16>
  return %0 : tensor<2x3xi16>
}

// CHECK-LABEL: func @concatenate_three_inputs
func.func @concatenate_three_inputs(%a: tensor<2x1xf32>, %b: tensor<2x0xf32>,
                                    %c: tensor<2x5xf32>) -> tensor<2x6xf32> {
  // CHECK: hlo.concatenate %{{.*}}, %{{.*}}, %{{.*}}, dim = 1 : (tensor<2x1xf32>, tensor<2x0xf32>, tensor<2x5xf32>) -> tensor<2x6xf32>
  %0 = hlo.concatenate %a, %b, %c, dim = 1
      : (tensor<2x1xf32>, tensor<2x0xf32>, tensor<2x5xf32>) -> tensor<2x6xf32>
  return %0 : tensor<2x6xf32>
}

// CHECK-LABEL: func @reverse
func.func @reverse(%x: tensor<4x3xf32>) -> tensor<4x3xf32> {
  // CHECK: %[[R:.*]] = hlo.reverse %{{.*}}, dims = [0] : tensor<4x3xf32>
  %0 = hlo.reverse %x, dims = [0] : tensor<4x3xf32>
  // CHECK: return %[[R]]
  return %0 : tensor<4x3xf32>
}

// CHECK-LABEL: func @reverse_none_and_all
func.func @reverse_none_and_all(%x: tensor<4x3xi32>) -> tensor<4x3xi32> {
  // CHECK: hlo.reverse %{{.*}}, dims = [] : tensor<4x3xi32>
  %0 = hlo.reverse %x, dims = [] : tensor<4x3xi32>
  // CHECK: hlo.reverse %{{.*}}, dims = [1, 0] : tensor<4x3xi32>
  %1 = hlo.reverse %0, dims = [1, 0] : tensor<4x3xi32>
  return %1 : tensor<4x3xi32>
}
