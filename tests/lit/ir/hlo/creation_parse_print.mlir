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

// -----

// CHECK-LABEL: func @rng_bit_generator
func.func @rng_bit_generator(%s: tensor<2xui64>, %t: tensor<3xui64>) -> (tensor<2xui64>, tensor<4x6xui32>, tensor<3xui64>, tensor<ui8>, tensor<2xui64>, tensor<5xi64>) {
  // CHECK: %{{.*}}, %{{.*}} = hlo.rng_bit_generator %arg0, algorithm = three_fry : tensor<2xui64> -> tensor<4x6xui32>
  %s1, %b1 = hlo.rng_bit_generator %s, algorithm = three_fry : tensor<2xui64> -> tensor<4x6xui32>
  // CHECK: hlo.rng_bit_generator %arg1, algorithm = philox : tensor<3xui64> -> tensor<ui8>
  %s2, %b2 = hlo.rng_bit_generator %t, algorithm = philox : tensor<3xui64> -> tensor<ui8>
  // CHECK: hlo.rng_bit_generator %arg0, algorithm = default window of [9] at [%{{.*}}] : tensor<2xui64>, tensor<i32> -> tensor<5xi64>
  %c = hlo.constant dense<4> : tensor<i32>
  %s3, %b3 = hlo.rng_bit_generator %s, algorithm = default window of [9] at [%c] : tensor<2xui64>, tensor<i32> -> tensor<5xi64>
  return %s1, %b1, %s2, %b2, %s3, %b3 : tensor<2xui64>, tensor<4x6xui32>, tensor<3xui64>, tensor<ui8>, tensor<2xui64>, tensor<5xi64>
}
