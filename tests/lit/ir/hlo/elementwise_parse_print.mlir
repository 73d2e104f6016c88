// RUN: tessel-opt %s -split-input-file | tessel-opt -split-input-file | FileCheck %s
// RUN: tessel-opt %s -split-input-file -mlir-print-op-generic | tessel-opt -split-input-file | FileCheck %s

// CHECK-LABEL: func @abs
func.func @abs(%x: tensor<4xi32>) -> tensor<4xi32> {
  // CHECK: %[[R:.*]] = hlo.abs %{{.*}} : tensor<4xi32>
  %0 = hlo.abs %x : tensor<4xi32>
  // CHECK: return %[[R]]
  return %0 : tensor<4xi32>
}

// CHECK-LABEL: func @neg
func.func @neg(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // CHECK: %[[R:.*]] = hlo.neg %{{.*}} : tensor<2x3xf32>
  %0 = hlo.neg %x : tensor<2x3xf32>
  // CHECK: return %[[R]]
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func @exp
func.func @exp(%x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: %[[R:.*]] = hlo.exp %{{.*}} : tensor<4xf32>
  %0 = hlo.exp %x : tensor<4xf32>
  // CHECK: return %[[R]]
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func @log
func.func @log(%x: tensor<4xf64>) -> tensor<4xf64> {
  // CHECK: %[[R:.*]] = hlo.log %{{.*}} : tensor<4xf64>
  %0 = hlo.log %x : tensor<4xf64>
  // CHECK: return %[[R]]
  return %0 : tensor<4xf64>
}

// CHECK-LABEL: func @log1p
func.func @log1p(%x: tensor<4xf16>) -> tensor<4xf16> {
  // CHECK: %[[R:.*]] = hlo.log1p %{{.*}} : tensor<4xf16>
  %0 = hlo.log1p %x : tensor<4xf16>
  // CHECK: return %[[R]]
  return %0 : tensor<4xf16>
}

// CHECK-LABEL: func @expm1
func.func @expm1(%x: tensor<4xbf16>) -> tensor<4xbf16> {
  // CHECK: %[[R:.*]] = hlo.expm1 %{{.*}} : tensor<4xbf16>
  %0 = hlo.expm1 %x : tensor<4xbf16>
  // CHECK: return %[[R]]
  return %0 : tensor<4xbf16>
}

// CHECK-LABEL: func @tanh
func.func @tanh(%x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: %[[R:.*]] = hlo.tanh %{{.*}} : tensor<4xf32>
  %0 = hlo.tanh %x : tensor<4xf32>
  // CHECK: return %[[R]]
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func @logistic
func.func @logistic(%x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: %[[R:.*]] = hlo.logistic %{{.*}} : tensor<4xf32>
  %0 = hlo.logistic %x : tensor<4xf32>
  // CHECK: return %[[R]]
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func @sqrt
func.func @sqrt(%x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: %[[R:.*]] = hlo.sqrt %{{.*}} : tensor<4xf32>
  %0 = hlo.sqrt %x : tensor<4xf32>
  // CHECK: return %[[R]]
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func @rsqrt
func.func @rsqrt(%x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: %[[R:.*]] = hlo.rsqrt %{{.*}} : tensor<4xf32>
  %0 = hlo.rsqrt %x : tensor<4xf32>
  // CHECK: return %[[R]]
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func @sin
func.func @sin(%x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: %[[R:.*]] = hlo.sin %{{.*}} : tensor<4xf32>
  %0 = hlo.sin %x : tensor<4xf32>
  // CHECK: return %[[R]]
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func @cos
func.func @cos(%x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: %[[R:.*]] = hlo.cos %{{.*}} : tensor<4xf32>
  %0 = hlo.cos %x : tensor<4xf32>
  // CHECK: return %[[R]]
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func @floor
func.func @floor(%x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: %[[R:.*]] = hlo.floor %{{.*}} : tensor<4xf32>
  %0 = hlo.floor %x : tensor<4xf32>
  // CHECK: return %[[R]]
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func @ceil
func.func @ceil(%x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: %[[R:.*]] = hlo.ceil %{{.*}} : tensor<4xf32>
  %0 = hlo.ceil %x : tensor<4xf32>
  // CHECK: return %[[R]]
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func @round
func.func @round(%x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: %[[R:.*]] = hlo.round %{{.*}} : tensor<4xf32>
  %0 = hlo.round %x : tensor<4xf32>
  // CHECK: return %[[R]]
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func @sign
func.func @sign(%x: tensor<i8>) -> tensor<i8> {
  // CHECK: %[[R:.*]] = hlo.sign %{{.*}} : tensor<i8>
  %0 = hlo.sign %x : tensor<i8>
  // CHECK: return %[[R]]
  return %0 : tensor<i8>
}

// CHECK-LABEL: func @not
func.func @not(%x: tensor<4xi1>) -> tensor<4xi1> {
  // CHECK: %[[R:.*]] = hlo.not %{{.*}} : tensor<4xi1>
  %0 = hlo.not %x : tensor<4xi1>
  // CHECK: return %[[R]]
  return %0 : tensor<4xi1>
}

// CHECK-LABEL: func @abs_float
func.func @abs_float(%x: tensor<3xf32>) -> tensor<3xf32> {
  // CHECK: hlo.abs %{{.*}} : tensor<3xf32>
  %0 = hlo.abs %x : tensor<3xf32>
  return %0 : tensor<3xf32>
}

// CHECK-LABEL: func @sign_float
func.func @sign_float(%x: tensor<3xf64>) -> tensor<3xf64> {
  // CHECK: hlo.sign %{{.*}} : tensor<3xf64>
  %0 = hlo.sign %x : tensor<3xf64>
  return %0 : tensor<3xf64>
}

// CHECK-LABEL: func @not_unsigned
func.func @not_unsigned(%x: tensor<3xui16>) -> tensor<3xui16> {
  // CHECK: hlo.not %{{.*}} : tensor<3xui16>
  %0 = hlo.not %x : tensor<3xui16>
  return %0 : tensor<3xui16>
}

// CHECK-LABEL: func @is_finite
func.func @is_finite(%x: tensor<2x4xf32>) -> tensor<2x4xi1> {
  // CHECK: %[[R:.*]] = hlo.is_finite %{{.*}} : tensor<2x4xf32>
  %0 = hlo.is_finite %x : tensor<2x4xf32>
  // CHECK: return %[[R]] : tensor<2x4xi1>
  return %0 : tensor<2x4xi1>
}

// CHECK-LABEL: func @convert_float_to_int
func.func @convert_float_to_int(%x: tensor<4xf32>) -> tensor<4xi32> {
  // CHECK: hlo.convert %{{.*}} : (tensor<4xf32>) -> tensor<4xi32>
  %0 = hlo.convert %x : (tensor<4xf32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// CHECK-LABEL: func @convert_pred_to_unsigned
func.func @convert_pred_to_unsigned(%x: tensor<2x2xi1>) -> tensor<2x2xui64> {
  // CHECK: hlo.convert %{{.*}} : (tensor<2x2xi1>) -> tensor<2x2xui64>
  %0 = hlo.convert %x : (tensor<2x2xi1>) -> tensor<2x2xui64>
  return %0 : tensor<2x2xui64>
}

// CHECK-LABEL: func @add
func.func @add(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: %[[R:.*]] = hlo.add %{{.*}}, %{{.*}} : tensor<4xf32>
  %0 = hlo.add %a, %b : tensor<4xf32>
  // CHECK: return %[[R]]
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func @sub
func.func @sub(%a: tensor<4xi64>, %b: tensor<4xi64>) -> tensor<4xi64> {
  // CHECK: %[[R:.*]] = hlo.sub %{{.*}}, %{{.*}} : tensor<4xi64>
  %0 = hlo.sub %a, %b : tensor<4xi64>
  // CHECK: return %[[R]]
  return %0 : tensor<4xi64>
}

// CHECK-LABEL: func @mul
func.func @mul(%a: tensor<4xui32>, %b: tensor<4xui32>) -> tensor<4xui32> {
  // CHECK: %[[R:.*]] = hlo.mul %{{.*}}, %{{.*}} : tensor<4xui32>
  %0 = hlo.mul %a, %b : tensor<4xui32>
  // CHECK: return %[[R]]
  return %0 : tensor<4xui32>
}

// CHECK-LABEL: func @div
func.func @div(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: %[[R:.*]] = hlo.div %{{.*}}, %{{.*}} : tensor<4xf32>
  %0 = hlo.div %a, %b : tensor<4xf32>
  // CHECK: return %[[R]]
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func @rem
func.func @rem(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  // CHECK: %[[R:.*]] = hlo.rem %{{.*}}, %{{.*}} : tensor<4xi32>
  %0 = hlo.rem %a, %b : tensor<4xi32>
  // CHECK: return %[[R]]
  return %0 : tensor<4xi32>
}

// CHECK-LABEL: func @max
func.func @max(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: %[[R:.*]] = hlo.max %{{.*}}, %{{.*}} : tensor<4xf32>
  %0 = hlo.max %a, %b : tensor<4xf32>
  // CHECK: return %[[R]]
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func @min
func.func @min(%a: tensor<4xi16>, %b: tensor<4xi16>) -> tensor<4xi16> {
  // CHECK: %[[R:.*]] = hlo.min %{{.*}}, %{{.*}} : tensor<4xi16>
  %0 = hlo.min %a, %b : tensor<4xi16>
  // CHECK: return %[[R]]
  return %0 : tensor<4xi16>
}

// CHECK-LABEL: func @pow
func.func @pow(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: %[[R:.*]] = hlo.pow %{{.*}}, %{{.*}} : tensor<4xf32>
  %0 = hlo.pow %a, %b : tensor<4xf32>
  // CHECK: return %[[R]]
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func @atan2
func.func @atan2(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: %[[R:.*]] = hlo.atan2 %{{.*}}, %{{.*}} : tensor<4xf32>
  %0 = hlo.atan2 %a, %b : tensor<4xf32>
  // CHECK: return %[[R]]
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func @and
func.func @and(%a: tensor<4xi1>, %b: tensor<4xi1>) -> tensor<4xi1> {
  // CHECK: %[[R:.*]] = hlo.and %{{.*}}, %{{.*}} : tensor<4xi1>
  %0 = hlo.and %a, %b : tensor<4xi1>
  // CHECK: return %[[R]]
  return %0 : tensor<4xi1>
}

// CHECK-LABEL: func @or
func.func @or(%a: tensor<4xi8>, %b: tensor<4xi8>) -> tensor<4xi8> {
  // CHECK: %[[R:.*]] = hlo.or %{{.*}}, %{{.*}} : tensor<4xi8>
  %0 = hlo.or %a, %b : tensor<4xi8>
  // CHECK: return %[[R]]
  return %0 : tensor<4xi8>
}

// CHECK-LABEL: func @xor
func.func @xor(%a: tensor<4xui8>, %b: tensor<4xui8>) -> tensor<4xui8> {
  // CHECK: %[[R:.*]] = hlo.xor %{{.*}}, %{{.*}} : tensor<4xui8>
  %0 = hlo.xor %a, %b : tensor<4xui8>
  // CHECK: return %[[R]]
  return %0 : tensor<4xui8>
}

// CHECK-LABEL: func @shift_left
func.func @shift_left(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  // CHECK: %[[R:.*]] = hlo.shift_left %{{.*}}, %{{.*}} : tensor<4xi32>
  %0 = hlo.shift_left %a, %b : tensor<4xi32>
  // CHECK: return %[[R]]
  return %0 : tensor<4xi32>
}

// CHECK-LABEL: func @shift_right_arithmetic
func.func @shift_right_arithmetic(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  // CHECK: %[[R:.*]] = hlo.shift_right_arithmetic %{{.*}}, %{{.*}} : tensor<4xi32>
  %0 = hlo.shift_right_arithmetic %a, %b : tensor<4xi32>
  // CHECK: return %[[R]]
  return %0 : tensor<4xi32>
}

// CHECK-LABEL: func @shift_right_logical
func.func @shift_right_logical(%a: tensor<4xui32>, %b: tensor<4xui32>) -> tensor<4xui32> {
  // CHECK: %[[R:.*]] = hlo.shift_right_logical %{{.*}}, %{{.*}} : tensor<4xui32>
  %0 = hlo.shift_right_logical %a, %b : tensor<4xui32>
  // CHECK: return %[[R]]
  return %0 : tensor<4xui32>
}

// CHECK-LABEL: func @add_pred
func.func @add_pred(%a: tensor<i1>, %b: tensor<i1>) -> tensor<i1> {
  // CHECK: hlo.add %{{.*}}, %{{.*}} : tensor<i1>
  %0 = hlo.add %a, %b : tensor<i1>
  return %0 : tensor<i1>
}

// CHECK-LABEL: func @mul_pred
func.func @mul_pred(%a: tensor<2xi1>, %b: tensor<2xi1>) -> tensor<2xi1> {
  // CHECK: hlo.mul %{{.*}}, %{{.*}} : tensor<2xi1>
  %0 = hlo.mul %a, %b : tensor<2xi1>
  return %0 : tensor<2xi1>
}

// CHECK-LABEL: func @max_pred
func.func @max_pred(%a: tensor<2xi1>, %b: tensor<2xi1>) -> tensor<2xi1> {
  // CHECK: hlo.max %{{.*}}, %{{.*}} : tensor<2xi1>
  %0 = hlo.max %a, %b : tensor<2xi1>
  return %0 : tensor<2xi1>
}

// CHECK-LABEL: func @pow_int
func.func @pow_int(%a: tensor<2xi32>, %b: tensor<2xi32>) -> tensor<2xi32> {
  // CHECK: hlo.pow %{{.*}}, %{{.*}} : tensor<2xi32>
  %0 = hlo.pow %a, %b : tensor<2xi32>
  return %0 : tensor<2xi32>
}

// CHECK-LABEL: func @compare_eq_default_type
func.func @compare_eq_default_type(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi1> {
  // CHECK: %[[R:.*]] = hlo.compare EQ, %{{.*}}, %{{.*}} : tensor<4xi32>{{$}}
  %0 = hlo.compare EQ, %a, %b : tensor<4xi32>
  // CHECK: return %[[R]] : tensor<4xi1>
  return %0 : tensor<4xi1>
}

// CHECK-LABEL: func @compare_ne_default_type
func.func @compare_ne_default_type(%a: tensor<4xi1>, %b: tensor<4xi1>) -> tensor<4xi1> {
  // CHECK: %[[R:.*]] = hlo.compare NE, %{{.*}}, %{{.*}} : tensor<4xi1>{{$}}
  %0 = hlo.compare NE, %a, %b : tensor<4xi1>
  // CHECK: return %[[R]] : tensor<4xi1>
  return %0 : tensor<4xi1>
}

// CHECK-LABEL: func @compare_ge_float
func.func @compare_ge_float(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xi1> {
  // CHECK: %[[R:.*]] = hlo.compare GE, %{{.*}}, %{{.*}}, FLOAT : tensor<4xf32>
  %0 = hlo.compare GE, %a, %b, FLOAT : tensor<4xf32>
  // CHECK: return %[[R]] : tensor<4xi1>
  return %0 : tensor<4xi1>
}

// CHECK-LABEL: func @compare_gt_totalorder
func.func @compare_gt_totalorder(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xi1> {
  // CHECK: %[[R:.*]] = hlo.compare GT, %{{.*}}, %{{.*}}, TOTALORDER : tensor<4xf32>
  %0 = hlo.compare GT, %a, %b, TOTALORDER : tensor<4xf32>
  // CHECK: return %[[R]] : tensor<4xi1>
  return %0 : tensor<4xi1>
}

// CHECK-LABEL: func @compare_le_signed
func.func @compare_le_signed(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi1> {
  // CHECK: %[[R:.*]] = hlo.compare LE, %{{.*}}, %{{.*}}, SIGNED : tensor<4xi32>
  %0 = hlo.compare LE, %a, %b, SIGNED : tensor<4xi32>
  // CHECK: return %[[R]] : tensor<4xi1>
  return %0 : tensor<4xi1>
}

// CHECK-LABEL: func @compare_lt_unsigned
func.func @compare_lt_unsigned(%a: tensor<4xui32>, %b: tensor<4xui32>) -> tensor<4xi1> {
  // CHECK: %[[R:.*]] = hlo.compare LT, %{{.*}}, %{{.*}}, UNSIGNED : tensor<4xui32>
  %0 = hlo.compare LT, %a, %b, UNSIGNED : tensor<4xui32>
  // CHECK: return %[[R]] : tensor<4xi1>
  return %0 : tensor<4xi1>
}

// CHECK-LABEL: func @compare_unsigned_pred
func.func @compare_unsigned_pred(%a: tensor<i1>, %b: tensor<i1>) -> tensor<i1> {
  // CHECK: hlo.compare LT, %{{.*}}, %{{.*}}, UNSIGNED : tensor<i1>
  %0 = hlo.compare LT, %a, %b, UNSIGNED : tensor<i1>
  return %0 : tensor<i1>
}

// CHECK-LABEL: func @select_elementwise_pred
func.func @select_elementwise_pred(%p: tensor<2x3xi1>, %t: tensor<2x3xf32>, %f: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // CHECK: %[[R:.*]] = hlo.select %{{.*}}, %{{.*}}, %{{.*}} : tensor<2x3xi1>, tensor<2x3xf32>
  %0 = hlo.select %p, %t, %f : tensor<2x3xi1>, tensor<2x3xf32>
  // CHECK: return %[[R]] : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func @select_scalar_pred
func.func @select_scalar_pred(%p: tensor<i1>, %t: tensor<2x3xi32>, %f: tensor<2x3xi32>) -> tensor<2x3xi32> {
  // CHECK: hlo.select %{{.*}}, %{{.*}}, %{{.*}} : tensor<i1>, tensor<2x3xi32>
  %0 = hlo.select %p, %t, %f : tensor<i1>, tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}

// CHECK-LABEL: func @clamp_scalar_bounds
func.func @clamp_scalar_bounds(%lo: tensor<f32>, %x: tensor<4xf32>, %hi: tensor<f32>) -> tensor<4xf32> {
  // CHECK: %[[R:.*]] = hlo.clamp %{{.*}}, %{{.*}}, %{{.*}} : tensor<f32>, tensor<4xf32>, tensor<f32>
  %0 = hlo.clamp %lo, %x, %hi : tensor<f32>, tensor<4xf32>, tensor<f32>
  // CHECK: return %[[R]] : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func @clamp_mixed_bounds
func.func @clamp_mixed_bounds(%lo: tensor<4xi32>, %x: tensor<4xi32>, %hi: tensor<i32>) -> tensor<4xi32> {
  // CHECK: hlo.clamp %{{.*}}, %{{.*}}, %{{.*}} : tensor<4xi32>, tensor<4xi32>, tensor<i32>
  %0 = hlo.clamp %lo, %x, %hi : tensor<4xi32>, tensor<4xi32>, tensor<i32>
  return %0 : tensor<4xi32>
}

// -----

// CHECK-LABEL: func @float_functions
func.func @float_functions(%x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: %[[A:.*]] = hlo.round_nearest_even %{{.*}} : tensor<4xf32>
  %0 = hlo.round_nearest_even %x : tensor<4xf32>
  // CHECK: %[[B:.*]] = hlo.erf %[[A]] : tensor<4xf32>
  %1 = hlo.erf %0 : tensor<4xf32>
  // CHECK: %[[C:.*]] = hlo.cbrt %[[B]] : tensor<4xf32>
  %2 = hlo.cbrt %1 : tensor<4xf32>
  // CHECK: %[[D:.*]] = hlo.tan %[[C]] : tensor<4xf32>
  %3 = hlo.tan %2 : tensor<4xf32>
  // CHECK: %[[E:.*]] = hlo.reduce_precision %[[D]] {exponent_bits = 5 : i32, mantissa_bits = 10 : i32} : tensor<4xf32>
  %4 = hlo.reduce_precision %3 {exponent_bits = 5 : i32, mantissa_bits = 10 : i32} : tensor<4xf32>
  // CHECK: return %[[E]]
  return %4 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func @bit_functions
func.func @bit_functions(%x: tensor<4xi32>, %f: tensor<4xf32>, %h: tensor<4x2xbf16>)
    -> (tensor<4xi32>, tensor<4xui32>, tensor<4x4xui8>, tensor<4xf32>) {
  // CHECK: %[[A:.*]] = hlo.popcnt %{{.*}} : tensor<4xi32>
  %0 = hlo.popcnt %x : tensor<4xi32>
  // CHECK: %[[B:.*]] = hlo.count_leading_zeros %[[A]] : tensor<4xi32>
  %1 = hlo.count_leading_zeros %0 : tensor<4xi32>
  // CHECK: hlo.bitcast_convert %{{.*}} : (tensor<4xf32>) -> tensor<4xui32>
  %2 = hlo.bitcast_convert %f : (tensor<4xf32>) -> tensor<4xui32>
  // CHECK: hlo.bitcast_convert %{{.*}} : (tensor<4xf32>) -> tensor<4x4xui8>
  %3 = hlo.bitcast_convert %f : (tensor<4xf32>) -> tensor<4x4xui8>
  // CHECK: hlo.bitcast_convert %{{.*}} : (tensor<4x2xbf16>) -> tensor<4xf32>
  %4 = hlo.bitcast_convert %h : (tensor<4x2xbf16>) -> tensor<4xf32>
  return %1, %2, %3, %4 : tensor<4xi32>, tensor<4xui32>, tensor<4x4xui8>, tensor<4xf32>
}

// -----

// CHECK-LABEL: func @complex_parts
func.func @complex_parts(%re: tensor<4xf64>, %im: tensor<4xf64>) -> (tensor<4xf64>, tensor<4xf64>) {
  // CHECK: %[[Z:.*]] = hlo.complex %{{.*}}, %{{.*}} : (tensor<4xf64>, tensor<4xf64>) -> tensor<4xcomplex<f64>>
  %z = hlo.complex %re, %im : (tensor<4xf64>, tensor<4xf64>) -> tensor<4xcomplex<f64>>
  // CHECK: hlo.real %[[Z]] : (tensor<4xcomplex<f64>>) -> tensor<4xf64>
  %r = hlo.real %z : (tensor<4xcomplex<f64>>) -> tensor<4xf64>
  // CHECK: hlo.imag %[[Z]] : (tensor<4xcomplex<f64>>) -> tensor<4xf64>
  %i = hlo.imag %z : (tensor<4xcomplex<f64>>) -> tensor<4xf64>
  return %r, %i : tensor<4xf64>, tensor<4xf64>
}
