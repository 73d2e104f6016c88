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

// -----

func.func @rng_three_fry_state(%s: tensor<3xui64>) -> tensor<4xui32> {
  // expected-error @+1 {{'hlo.rng_bit_generator' op needs a state of 2 ui64 elements for three_fry, got 3}}
  %n, %b = hlo.rng_bit_generator %s, algorithm = three_fry : tensor<3xui64> -> tensor<4xui32>
  return %b : tensor<4xui32>
}

// -----

func.func @rng_philox_state(%s: tensor<4xui64>) -> tensor<4xui32> {
  // expected-error @+1 {{'hlo.rng_bit_generator' op needs a state of 2 or 3 ui64 elements for philox, got 4}}
  %n, %b = hlo.rng_bit_generator %s, algorithm = philox : tensor<4xui64> -> tensor<4xui32>
  return %b : tensor<4xui32>
}

// -----

func.func @rng_state_type(%s: tensor<2xui32>) -> tensor<4xui32> {
  // expected-error @+1 {{'hlo.rng_bit_generator' op operand #0 must be 1D tensor of 64-bit unsigned integer values}}
  %n, %b = hlo.rng_bit_generator %s, algorithm = philox : tensor<2xui32> -> tensor<4xui32>
  return %b : tensor<4xui32>
}

// -----

func.func @rng_float_output(%s: tensor<2xui64>) -> tensor<4xf32> {
  // expected-error @+1 {{'hlo.rng_bit_generator' op result #1 must be statically shaped tensor of}}
  %n, %b = hlo.rng_bit_generator %s, algorithm = philox : tensor<2xui64> -> tensor<4xf32>
  return %b : tensor<4xf32>
}

// -----

func.func @rng_window_rank(%s: tensor<2xui64>, %i: tensor<i32>) -> tensor<4xui32> {
  // expected-error @+1 {{'hlo.rng_bit_generator' op window has rank 2 but the output has rank 1}}
  %n, %b = hlo.rng_bit_generator %s, algorithm = philox window of [8, 2] at [%i] : tensor<2xui64>, tensor<i32> -> tensor<4xui32>
  return %b : tensor<4xui32>
}

// -----

func.func @rng_window_starts(%s: tensor<2xui64>, %i: tensor<i32>) -> tensor<4x2xui32> {
  // expected-error @+1 {{'hlo.rng_bit_generator' op needs 2 start indices for its window, got 1}}
  %n, %b = hlo.rng_bit_generator %s, algorithm = philox window of [8, 2] at [%i] : tensor<2xui64>, tensor<i32> -> tensor<4x2xui32>
  return %b : tensor<4x2xui32>
}

// -----

func.func @rng_window_negative(%s: tensor<2xui64>, %i: tensor<i32>) -> tensor<4xui32> {
  // expected-error @+1 {{'hlo.rng_bit_generator' op window dimensions must not be negative}}
  %n, %b = hlo.rng_bit_generator %s, algorithm = philox window of [-8] at [%i] : tensor<2xui64>, tensor<i32> -> tensor<4xui32>
  return %b : tensor<4xui32>
}

// -----

func.func @rng_starts_without_window(%s: tensor<2xui64>, %i: tensor<i32>) -> tensor<4xui32> {
  // expected-error @+1 {{'hlo.rng_bit_generator' op has start indices but no window}}
  %n, %b = "hlo.rng_bit_generator"(%s, %i) <{algorithm = #hlo<rng_algorithm philox>}> : (tensor<2xui64>, tensor<i32>) -> (tensor<2xui64>, tensor<4xui32>)
  return %b : tensor<4xui32>
}
