// RUN: tessel-opt %s -split-input-file -verify-diagnostics

// A zero-sized dimension still has an index range to count along.
func.func @iota_empty_dimension() -> tensor<0x3xf32> {
  %0 = hlo.iota dim = 0 : tensor<0x3xf32>
  return %0 : tensor<0x3xf32>
}

// -----

func.func @iota_dimension_too_large() -> tensor<4x8xi32> {
  // expected-error @+1 {{'hlo.iota' op iota_dimension: dimension 2 is out of range [0, 2)}}
  %0 = hlo.iota dim = 2 : tensor<4x8xi32>
  return %0 : tensor<4x8xi32>
}

// -----

func.func @iota_dimension_negative() -> tensor<4xi32> {
  // expected-error @+1 {{'hlo.iota' op iota_dimension: dimension -1 is out of range [0, 1)}}
  %0 = hlo.iota dim = -1 : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @iota_rank_zero() -> tensor<i32> {
  // expected-error @+1 {{'hlo.iota' op iota_dimension: dimension 0 is out of range [0, 0)}}
  %0 = hlo.iota dim = 0 : tensor<i32>
  return %0 : tensor<i32>
}

// -----

func.func @iota_pred() -> tensor<4xi1> {
  // expected-error @+1 {{'hlo.iota' op result #0 must be statically shaped tensor of}}
  %0 = hlo.iota dim = 0 : tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

func.func @constant_unsupported_element_type() -> tensor<2xi7> {
  // expected-error @+1 {{'hlo.constant' op result #0 must be statically shaped tensor of}}
  %0 = hlo.constant dense<1> : tensor<2xi7>
  return %0 : tensor<2xi7>
}
