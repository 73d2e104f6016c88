// RUN: tessel-opt %s -split-input-file | tessel-opt -split-input-file | FileCheck %s
// RUN: tessel-opt %s -split-input-file -mlir-print-op-generic | tessel-opt -split-input-file | FileCheck %s

// CHECK-LABEL: func @constant
func.func @constant() -> tensor<2xf32> {
  // CHECK: hlo.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
  %0 = hlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  return %0 : tensor<2xf32>
}

// CHECK-LABEL: func @iota_int
func.func @iota_int() -> tensor<4x8xi32> {
  // CHECK: hlo.iota dim = 1 : tensor<4x8xi32>
  %0 = hlo.iota dim = 1 : tensor<4x8xi32>
  return %0 : tensor<4x8xi32>
}

// CHECK-LABEL: func @iota_unsigned
func.func @iota_unsigned() -> tensor<5xui8> {
  // CHECK: hlo.iota dim = 0 : tensor<5xui8>
  %0 = hlo.iota dim = 0 : tensor<5xui8>
  return %0 : tensor<5xui8>
}

// CHECK-LABEL: func @iota_float
func.func @iota_float() -> tensor<2x3x4xbf16> {
  // CHECK: hlo.iota dim = 2 : tensor<2x3x4xbf16>
  %0 = hlo.iota dim = 2 : tensor<2x3x4xbf16>
  return %0 : tensor<2x3x4xbf16>
}

// -----

// CHECK-LABEL: func @replica_id
func.func @replica_id() -> tensor<ui32> {
  // CHECK: %[[R:.*]] = hlo.replica_id : tensor<ui32>
  %0 = hlo.replica_id : tensor<ui32>
  // CHECK: return %[[R]]
  return %0 : tensor<ui32>
}
