// RUN: tessel-opt %s -split-input-file -verify-diagnostics

// Positive edge cases: rank-0 and zero-sized tensors, rank-0 pred and bounds, and pred
// ordered as unsigned.
func.func @edge_cases(%s: tensor<f32>, %e: tensor<0x3xf32>, %p: tensor<i1>,
                      %q: tensor<0x3xi1>) -> tensor<0x3xf32> {
  %0 = hlo.exp %s : tensor<f32>
  %1 = hlo.add %e, %e : tensor<0x3xf32>
  %2 = hlo.is_finite %e : tensor<0x3xf32>
  %3 = hlo.compare LT, %p, %p, UNSIGNED : tensor<i1>
  %4 = hlo.select %p, %e, %e : tensor<i1>, tensor<0x3xf32>
  %5 = hlo.select %q, %e, %e : tensor<0x3xi1>, tensor<0x3xf32>
  %6 = hlo.clamp %s, %e, %s : tensor<f32>, tensor<0x3xf32>, tensor<f32>
  %7 = hlo.clamp %s, %s, %s : tensor<f32>, tensor<f32>, tensor<f32>
  %8 = hlo.convert %q : (tensor<0x3xi1>) -> tensor<0x3xf32>
  return %8 : tensor<0x3xf32>
}

// -----

func.func @abs_unsigned(%x: tensor<4xui32>) -> tensor<4xui32> {
  // expected-error @+1 {{'hlo.abs' op operand #0 must be statically shaped tensor of}}
  %0 = hlo.abs %x : tensor<4xui32>
  return %0 : tensor<4xui32>
}

// -----

func.func @exp_int(%x: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'hlo.exp' op operand #0 must be statically shaped tensor of}}
  %0 = hlo.exp %x : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @not_float(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'hlo.not' op operand #0 must be statically shaped tensor of}}
  %0 = hlo.not %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @unsupported_element_type(%x: tensor<4xi7>) -> tensor<4xi7> {
  // expected-error @+1 {{'hlo.neg' op operand #0 must be statically shaped tensor of}}
  %0 = hlo.neg %x : tensor<4xi7>
  return %0 : tensor<4xi7>
}

// -----

func.func @unranked(%x: tensor<*xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{'hlo.tanh' op operand #0 must be statically shaped tensor of}}
  %0 = "hlo.tanh"(%x) : (tensor<*xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @unary_result_type_differs(%x: tensor<4xf32>) -> tensor<4xf64> {
  // expected-error @+1 {{'hlo.sqrt' op requires the same type for all operands and results}}
  %0 = "hlo.sqrt"(%x) : (tensor<4xf32>) -> tensor<4xf64>
  return %0 : tensor<4xf64>
}

// -----

func.func @is_finite_int(%x: tensor<4xi32>) -> tensor<4xi1> {
  // expected-error @+1 {{'hlo.is_finite' op operand #0 must be statically shaped tensor of}}
  %0 = hlo.is_finite %x : tensor<4xi32>
  return %0 : tensor<4xi1>
}

// -----

func.func @is_finite_result_not_pred(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'hlo.is_finite' op result #0 must be statically shaped tensor of pred (i1) values}}
  %0 = "hlo.is_finite"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @is_finite_result_shape(%x: tensor<4xf32>) -> tensor<5xi1> {
  // expected-error @+1 {{'hlo.is_finite' op all non-scalar operands/results must have the same shape and base type}}
  %0 = "hlo.is_finite"(%x) : (tensor<4xf32>) -> tensor<5xi1>
  return %0 : tensor<5xi1>
}

// -----

func.func @convert_shape(%x: tensor<4xf32>) -> tensor<2x2xi32> {
  // expected-error @+1 {{'hlo.convert' op all non-scalar operands/results must have the same shape and base type}}
  %0 = hlo.convert %x : (tensor<4xf32>) -> tensor<2x2xi32>
  return %0 : tensor<2x2xi32>
}

// -----

func.func @sub_pred(%a: tensor<4xi1>, %b: tensor<4xi1>) -> tensor<4xi1> {
  // expected-error @+1 {{'hlo.sub' op operand #0 must be statically shaped tensor of}}
  %0 = hlo.sub %a, %b : tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

func.func @atan2_int(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'hlo.atan2' op operand #0 must be statically shaped tensor of}}
  %0 = hlo.atan2 %a, %b : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @and_float(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'hlo.and' op operand #0 must be statically shaped tensor of}}
  %0 = hlo.and %a, %b : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @shift_pred(%a: tensor<4xi1>, %b: tensor<4xi1>) -> tensor<4xi1> {
  // expected-error @+1 {{'hlo.shift_left' op operand #0 must be statically shaped tensor of}}
  %0 = hlo.shift_left %a, %b : tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

func.func @binary_operand_types_differ(%a: tensor<4xf32>, %b: tensor<4xf16>) -> tensor<4xf32> {
  // expected-error @+1 {{'hlo.mul' op requires the same type for all operands and results}}
  %0 = "hlo.mul"(%a, %b) : (tensor<4xf32>, tensor<4xf16>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @compare_float_type_on_int(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi1> {
  // expected-error @+1 {{'hlo.compare' op comparison type FLOAT does not fit element type 'i32'}}
  %0 = hlo.compare LT, %a, %b, FLOAT : tensor<4xi32>
  return %0 : tensor<4xi1>
}

// -----

func.func @compare_totalorder_on_int(%a: tensor<4xui8>, %b: tensor<4xui8>) -> tensor<4xi1> {
  // expected-error @+1 {{'hlo.compare' op comparison type TOTALORDER does not fit element type 'ui8'}}
  %0 = hlo.compare LT, %a, %b, TOTALORDER : tensor<4xui8>
  return %0 : tensor<4xi1>
}

// -----

func.func @compare_signed_on_float(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xi1> {
  // expected-error @+1 {{'hlo.compare' op comparison type SIGNED does not fit element type 'f32'}}
  %0 = hlo.compare GE, %a, %b, SIGNED : tensor<4xf32>
  return %0 : tensor<4xi1>
}

// -----

func.func @compare_signed_on_unsigned(%a: tensor<4xui32>, %b: tensor<4xui32>) -> tensor<4xi1> {
  // expected-error @+1 {{'hlo.compare' op comparison type SIGNED does not fit element type 'ui32'}}
  %0 = hlo.compare GE, %a, %b, SIGNED : tensor<4xui32>
  return %0 : tensor<4xi1>
}

// -----

func.func @compare_signed_on_pred(%a: tensor<4xi1>, %b: tensor<4xi1>) -> tensor<4xi1> {
  // expected-error @+1 {{'hlo.compare' op comparison type SIGNED does not fit element type 'i1'}}
  %0 = hlo.compare GE, %a, %b, SIGNED : tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

func.func @compare_unsigned_on_signed(%a: tensor<4xi64>, %b: tensor<4xi64>) -> tensor<4xi1> {
  // expected-error @+1 {{'hlo.compare' op comparison type UNSIGNED does not fit element type 'i64'}}
  %0 = hlo.compare NE, %a, %b, UNSIGNED : tensor<4xi64>
  return %0 : tensor<4xi1>
}

// -----

func.func @compare_unsigned_on_float(%a: tensor<4xbf16>, %b: tensor<4xbf16>) -> tensor<4xi1> {
  // expected-error @+1 {{'hlo.compare' op comparison type UNSIGNED does not fit element type 'bf16'}}
  %0 = hlo.compare NE, %a, %b, UNSIGNED : tensor<4xbf16>
  return %0 : tensor<4xi1>
}

// -----

func.func @compare_operand_types_differ(%a: tensor<4xf32>, %b: tensor<4xf64>) -> tensor<4xi1> {
  // expected-error @+1 {{'hlo.compare' op failed to verify that all of {lhs, rhs} have same type}}
  %0 = "hlo.compare"(%a, %b) {comparison_direction = #hlo<comparison_direction EQ>}
      : (tensor<4xf32>, tensor<4xf64>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

func.func @compare_result_shape(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<2xi1> {
  // expected-error @+1 {{'hlo.compare' op all non-scalar operands/results must have the same shape and base type}}
  %0 = "hlo.compare"(%a, %b) {comparison_direction = #hlo<comparison_direction EQ>}
      : (tensor<4xf32>, tensor<4xf32>) -> tensor<2xi1>
  return %0 : tensor<2xi1>
}

// -----

func.func @compare_unknown_direction(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xi1> {
  // expected-error @+2 {{expected ::tessel::hlo::ComparisonDirection to be one of: EQ, NE, GE, GT, LE, LT}}
  // expected-error @+1 {{failed to parse Hlo_ComparisonDirectionAttr parameter 'value'}}
  %0 = hlo.compare LTE, %a, %b : tensor<4xf32>
  return %0 : tensor<4xi1>
}

// -----

func.func @select_pred_shape(%p: tensor<3xi1>, %t: tensor<4xf32>, %f: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'hlo.select' op pred must be rank-0 or have the shape of on_true 'tensor<4xf32>', got 'tensor<3xi1>'}}
  %0 = hlo.select %p, %t, %f : tensor<3xi1>, tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @select_pred_rank(%p: tensor<4xi1>, %t: tensor<1x4xf32>, %f: tensor<1x4xf32>) -> tensor<1x4xf32> {
  // expected-error @+1 {{'hlo.select' op pred must be rank-0 or have the shape of on_true 'tensor<1x4xf32>', got 'tensor<4xi1>'}}
  %0 = hlo.select %p, %t, %f : tensor<4xi1>, tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}

// -----

func.func @select_pred_not_pred(%p: tensor<4xi32>, %t: tensor<4xf32>, %f: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'hlo.select' op operand #0 must be statically shaped tensor of pred (i1) values}}
  %0 = hlo.select %p, %t, %f : tensor<4xi32>, tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @select_branch_types_differ(%p: tensor<i1>, %t: tensor<4xf32>, %f: tensor<4xi32>) -> tensor<4xf32> {
  // expected-error @+1 {{'hlo.select' op failed to verify that all of {on_true, on_false, result} have same type}}
  %0 = "hlo.select"(%p, %t, %f) : (tensor<i1>, tensor<4xf32>, tensor<4xi32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @clamp_min_shape(%lo: tensor<3xf32>, %x: tensor<4xf32>, %hi: tensor<f32>) -> tensor<4xf32> {
  // expected-error @+1 {{'hlo.clamp' op min must be rank-0 or have the shape of operand 'tensor<4xf32>', got 'tensor<3xf32>'}}
  %0 = hlo.clamp %lo, %x, %hi : tensor<3xf32>, tensor<4xf32>, tensor<f32>
  return %0 : tensor<4xf32>
}

// -----

func.func @clamp_max_shape(%lo: tensor<f32>, %x: tensor<4xf32>, %hi: tensor<1xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'hlo.clamp' op max must be rank-0 or have the shape of operand 'tensor<4xf32>', got 'tensor<1xf32>'}}
  %0 = hlo.clamp %lo, %x, %hi : tensor<f32>, tensor<4xf32>, tensor<1xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @clamp_min_element_type(%lo: tensor<f64>, %x: tensor<4xf32>, %hi: tensor<f32>) -> tensor<4xf32> {
  // expected-error @+1 {{'hlo.clamp' op min element type 'f64' differs from operand element type 'f32'}}
  %0 = hlo.clamp %lo, %x, %hi : tensor<f64>, tensor<4xf32>, tensor<f32>
  return %0 : tensor<4xf32>
}

// -----

func.func @clamp_max_element_type(%lo: tensor<4xi32>, %x: tensor<4xi32>, %hi: tensor<4xui32>) -> tensor<4xi32> {
  // expected-error @+1 {{'hlo.clamp' op max element type 'ui32' differs from operand element type 'i32'}}
  %0 = hlo.clamp %lo, %x, %hi : tensor<4xi32>, tensor<4xi32>, tensor<4xui32>
  return %0 : tensor<4xi32>
}

// -----

func.func @clamp_result_type(%lo: tensor<f32>, %x: tensor<4xf32>, %hi: tensor<f32>) -> tensor<4xf16> {
  // expected-error @+1 {{'hlo.clamp' op failed to verify that all of {operand, result} have same type}}
  %0 = "hlo.clamp"(%lo, %x, %hi) : (tensor<f32>, tensor<4xf32>, tensor<f32>) -> tensor<4xf16>
  return %0 : tensor<4xf16>
}

// -----

// Shapes are static: a dynamic dimension is rejected.
func.func @dynamic_dimension(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  // expected-error @+1 {{'hlo.add' op operand #0 must be statically shaped tensor of}}
  %0 = hlo.add %x, %x : tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

func.func @reduce_precision_no_exponent(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{exponent_bits must be at least 1, got 0}}
  %0 = hlo.reduce_precision %x {exponent_bits = 0 : i32, mantissa_bits = 10 : i32} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @reduce_precision_negative_mantissa(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{mantissa_bits must not be negative, got -1}}
  %0 = hlo.reduce_precision %x {exponent_bits = 5 : i32, mantissa_bits = -1 : i32} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @popcnt_of_float(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{must be statically shaped tensor of}}
  %0 = hlo.popcnt %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @erf_of_int(%x: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{must be statically shaped tensor of}}
  %0 = hlo.erf %x : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @bitcast_same_width_new_shape(%x: tensor<4xf32>) -> tensor<2xui32> {
  // expected-error @+1 {{result shape must be 4 for 'tensor<4xf32>' to 'ui32', got 'tensor<2xui32>'}}
  %0 = hlo.bitcast_convert %x : (tensor<4xf32>) -> tensor<2xui32>
  return %0 : tensor<2xui32>
}

// -----

func.func @bitcast_narrow_without_parts(%x: tensor<4xf32>) -> tensor<4xui8> {
  // expected-error @+1 {{result shape must be 4x4}}
  %0 = hlo.bitcast_convert %x : (tensor<4xf32>) -> tensor<4xui8>
  return %0 : tensor<4xui8>
}

// -----

func.func @bitcast_widen_wrong_minor(%x: tensor<4x3xbf16>) -> tensor<4xf32> {
  // expected-error @+1 {{from 16-bit to 32-bit elements needs an operand whose minor dimension is 2}}
  %0 = hlo.bitcast_convert %x : (tensor<4x3xbf16>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @bitcast_pred(%x: tensor<4xi1>) -> tensor<4xi8> {
  // expected-error @+1 {{does not take pred (i1) elements}}
  %0 = hlo.bitcast_convert %x : (tensor<4xi1>) -> tensor<4xi8>
  return %0 : tensor<4xi8>
}

// -----

func.func @complex_parts_differ(%re: tensor<4xf32>, %im: tensor<4xf64>) -> tensor<4xcomplex<f32>> {
  // expected-error @+1 {{real and imaginary parts differ in type}}
  %0 = hlo.complex %re, %im : (tensor<4xf32>, tensor<4xf64>) -> tensor<4xcomplex<f32>>
  return %0 : tensor<4xcomplex<f32>>
}

// -----

func.func @complex_wrong_result(%re: tensor<4xf32>, %im: tensor<4xf32>) -> tensor<4xcomplex<f64>> {
  // expected-error @+1 {{result elements must be 'complex<f32>'}}
  %0 = hlo.complex %re, %im : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xcomplex<f64>>
  return %0 : tensor<4xcomplex<f64>>
}

// -----

func.func @real_wrong_result(%z: tensor<4xcomplex<f64>>) -> tensor<4xf32> {
  // expected-error @+1 {{result elements must be 'f64'}}
  %0 = hlo.real %z : (tensor<4xcomplex<f64>>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @max_of_complex(%z: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  // expected-error @+1 {{'hlo.max' op operand #0 must be}}
  %0 = hlo.max %z, %z : tensor<4xcomplex<f32>>
  return %0 : tensor<4xcomplex<f32>>
}
