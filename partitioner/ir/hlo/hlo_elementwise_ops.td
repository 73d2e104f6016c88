// Elementwise ops: unary and binary arithmetic, logic, comparisons, select, clamp, convert.
#ifndef TESSEL_IR_HLO_ELEMENTWISE_OPS_TD
#define TESSEL_IR_HLO_ELEMENTWISE_OPS_TD

include "partitioner/ir/hlo/hlo_base.td"
include "partitioner/ir/hlo/hlo_enums.td"

//===----------------------------------------------------------------------===//
// Unary ops
//===----------------------------------------------------------------------===//

// Unary ops whose operand and result share one type.
class Hlo_UnaryOp<string mnemonic, Type tensorType, list<Trait> traits = []>
    : Hlo_Op<mnemonic, !listconcat(traits,
          [Pure, Elementwise, SameOperandsAndResultType, InferTypeOpInterface])> {
  let arguments = (ins tensorType:$operand);
  let results = (outs tensorType:$result);
  let assemblyFormat = "$operand attr-dict `:` type($result)";
}

def Hlo_AbsOp : Hlo_UnaryOp<"abs", Hlo_SIntOrFpTensor> {
  let summary = "Elementwise absolute value";
  let description = [{
    `|x|`. For signed integers the most negative value maps to itself.

    ```mlir
    %r = hlo.abs %x : tensor<4xf32>
    ```
  }];
}

def Hlo_NegOp : Hlo_UnaryOp<"neg", Hlo_SIntOrFpOrComplexTensor> {
  let summary = "Elementwise negation";
  let description = [{
    `-x`; signed integers wrap around (the most negative value maps to itself).

    ```mlir
    %r = hlo.neg %x : tensor<4xi32>
    ```
  }];
}

def Hlo_ExpOp : Hlo_UnaryOp<"exp", Hlo_FpTensor> {
  let summary = "Elementwise natural exponential";
  let description = [{
    `e^x`.

    ```mlir
    %r = hlo.exp %x : tensor<4xf32>
    ```
  }];
}

def Hlo_LogOp : Hlo_UnaryOp<"log", Hlo_FpTensor> {
  let summary = "Elementwise natural logarithm";
  let description = [{
    `ln(x)`; negative inputs give NaN, zero gives -inf.

    ```mlir
    %r = hlo.log %x : tensor<4xf32>
    ```
  }];
}

def Hlo_Log1pOp : Hlo_UnaryOp<"log1p", Hlo_FpTensor> {
  let summary = "Elementwise ln(1 + x), accurate near zero";
  let description = [{
    ```mlir
    %r = hlo.log1p %x : tensor<4xf32>
    ```
  }];
}

def Hlo_Expm1Op : Hlo_UnaryOp<"expm1", Hlo_FpTensor> {
  let summary = "Elementwise e^x - 1, accurate near zero";
  let description = [{
    ```mlir
    %r = hlo.expm1 %x : tensor<4xf32>
    ```
  }];
}

def Hlo_TanhOp : Hlo_UnaryOp<"tanh", Hlo_FpTensor> {
  let summary = "Elementwise hyperbolic tangent";
  let description = [{
    ```mlir
    %r = hlo.tanh %x : tensor<4xf32>
    ```
  }];
}

def Hlo_LogisticOp : Hlo_UnaryOp<"logistic", Hlo_FpTensor> {
  let summary = "Elementwise logistic sigmoid 1 / (1 + e^-x)";
  let description = [{
    ```mlir
    %r = hlo.logistic %x : tensor<4xf32>
    ```
  }];
}

def Hlo_SqrtOp : Hlo_UnaryOp<"sqrt", Hlo_FpTensor> {
  let summary = "Elementwise square root";
  let description = [{
    Negative inputs give NaN; `sqrt(-0) = -0`.

    ```mlir
    %r = hlo.sqrt %x : tensor<4xf32>
    ```
  }];
}

def Hlo_RsqrtOp : Hlo_UnaryOp<"rsqrt", Hlo_FpTensor> {
  let summary = "Elementwise reciprocal square root 1 / sqrt(x)";
  let description = [{
    ```mlir
    %r = hlo.rsqrt %x : tensor<4xf32>
    ```
  }];
}

def Hlo_SinOp : Hlo_UnaryOp<"sin", Hlo_FpTensor> {
  let summary = "Elementwise sine (radians)";
  let description = [{
    ```mlir
    %r = hlo.sin %x : tensor<4xf32>
    ```
  }];
}

def Hlo_CosOp : Hlo_UnaryOp<"cos", Hlo_FpTensor> {
  let summary = "Elementwise cosine (radians)";
  let description = [{
    ```mlir
    %r = hlo.cos %x : tensor<4xf32>
    ```
  }];
}

def Hlo_FloorOp : Hlo_UnaryOp<"floor", Hlo_FpTensor> {
  let summary = "Elementwise rounding toward negative infinity";
  let description = [{
    ```mlir
    %r = hlo.floor %x : tensor<4xf32>
    ```
  }];
}

def Hlo_CeilOp : Hlo_UnaryOp<"ceil", Hlo_FpTensor> {
  let summary = "Elementwise rounding toward positive infinity";
  let description = [{
    ```mlir
    %r = hlo.ceil %x : tensor<4xf32>
    ```
  }];
}

def Hlo_RoundOp : Hlo_UnaryOp<"round", Hlo_FpTensor> {
  let summary = "Elementwise rounding to nearest, ties away from zero";
  let description = [{
    Rounds to the nearest integer; a value exactly halfway goes away from zero
    (`2.5 -> 3`, `-2.5 -> -3`).

    ```mlir
    %r = hlo.round %x : tensor<4xf32>
    ```
  }];
}

def Hlo_SignOp : Hlo_UnaryOp<"sign", Hlo_SIntOrFpTensor> {
  let summary = "Elementwise sign: -1, 0 or 1";
  let description = [{
    -1 for negative, 0 for zero, 1 for positive; floats keep the sign of zero
    (`sign(-0.0) = -0.0`) and map NaN to NaN.

    ```mlir
    %r = hlo.sign %x : tensor<4xf32>
    ```
  }];
}

def Hlo_NotOp : Hlo_UnaryOp<"not", Hlo_PredOrIntTensor> {
  let summary = "Elementwise logical not (pred) or bitwise not (integers)";
  let description = [{
    ```mlir
    %r = hlo.not %x : tensor<4xi1>
    ```
  }];
}

def Hlo_IsFiniteOp : Hlo_Op<"is_finite", [Pure, Elementwise, SameOperandsAndResultShape,
    DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "Elementwise test for a value that is neither infinite nor NaN";
  let description = [{
    The result is a pred tensor of the operand's shape; its type is not written.

    ```mlir
    %r = hlo.is_finite %x : tensor<4xf32>   // %r : tensor<4xi1>
    ```
  }];
  let arguments = (ins Hlo_FpTensor:$operand);
  let results = (outs Hlo_PredTensor:$result);
  let assemblyFormat = "$operand attr-dict `:` type($operand)";
}

def Hlo_RoundNearestEvenOp : Hlo_UnaryOp<"round_nearest_even", Hlo_FpTensor> {
  let summary = "Elementwise rounding to nearest, ties to even";
  let description = [{
    Rounds to the nearest integer; a value exactly halfway goes to the even neighbour
    (`2.5 -> 2`, `3.5 -> 4`, `-2.5 -> -2`).

    ```mlir
    %r = hlo.round_nearest_even %x : tensor<4xf32>
    ```
  }];
}

def Hlo_ErfOp : Hlo_UnaryOp<"erf", Hlo_FpTensor> {
  let summary = "Elementwise error function";
  let description = [{
    `erf(x) = 2/sqrt(pi) * integral from 0 to x of e^(-t^2) dt`.

    ```mlir
    %r = hlo.erf %x : tensor<4xf32>
    ```
  }];
}

def Hlo_CbrtOp : Hlo_UnaryOp<"cbrt", Hlo_FpTensor> {
  let summary = "Elementwise cube root";
  let description = [{
    Defined for negative inputs too: `cbrt(-8) = -2`.

    ```mlir
    %r = hlo.cbrt %x : tensor<4xf32>
    ```
  }];
}

def Hlo_TanOp : Hlo_UnaryOp<"tan", Hlo_FpTensor> {
  let summary = "Elementwise tangent (radians)";
  let description = [{
    ```mlir
    %r = hlo.tan %x : tensor<4xf32>
    ```
  }];
}

def Hlo_PopcntOp : Hlo_UnaryOp<"popcnt", Hlo_IntTensor> {
  let summary = "Elementwise count of set bits";
  let description = [{
    The number of one bits in the two's complement representation (`popcnt(-1) = 32` for
    i32).

    ```mlir
    %r = hlo.popcnt %x : tensor<4xi32>
    ```
  }];
}

def Hlo_CountLeadingZerosOp : Hlo_UnaryOp<"count_leading_zeros", Hlo_IntTensor> {
  let summary = "Elementwise count of leading zero bits";
  let description = [{
    Zero bits above the highest set bit; the bit width for zero (`clz(0) = 32` for i32).

    ```mlir
    %r = hlo.count_leading_zeros %x : tensor<4xi32>
    ```
  }];
}

def Hlo_ReducePrecisionOp : Hlo_Op<"reduce_precision",
    [Pure, Elementwise, SameOperandsAndResultType, InferTypeOpInterface]> {
  let summary = "Elementwise rounding to a float format with fewer exponent and mantissa bits";
  let description = [{
    Each value is rounded (to nearest, ties to even) to the float format with
    `exponent_bits` exponent bits and `mantissa_bits` mantissa bits, and kept in the
    operand's type: values beyond that format's range become infinities, values below its
    smallest normal flush to zero (of the same sign), NaNs stay NaN.

    ```mlir
    %r = hlo.reduce_precision %x {exponent_bits = 5 : i32, mantissa_bits = 10 : i32} : tensor<4xf32>
    ```
  }];
  let arguments = (ins Hlo_FpTensor:$operand, I32Attr:$exponent_bits, I32Attr:$mantissa_bits);
  let results = (outs Hlo_FpTensor:$result);
  let assemblyFormat = "$operand attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Hlo_BitcastConvertOp : Hlo_Op<"bitcast_convert", [Pure]> {
  let summary = "Reinterprets the bits of each element as another element type";
  let description = [{
    With element types of one bit width the shape is kept. From a wider type to a narrower
    one, each element becomes `in_bits / out_bits` elements along a new minor dimension
    (least significant part first, as on a little-endian machine); from narrower to wider,
    the operand's minor dimension, of size `out_bits / in_bits`, is folded away. pred is
    not allowed on either side.

    ```mlir
    %r = hlo.bitcast_convert %x : (tensor<4xf32>) -> tensor<4xui32>
    %b = hlo.bitcast_convert %x : (tensor<4xf32>) -> tensor<4x4xui8>
    ```
  }];
  let arguments = (ins Hlo_Tensor:$operand);
  let results = (outs Hlo_Tensor:$result);
  let assemblyFormat = "$operand attr-dict `:` functional-type($operand, $result)";
  let hasVerifier = 1;
}

def Hlo_ConvertOp : Hlo_Op<"convert", [Pure, Elementwise, SameOperandsAndResultShape]> {
  let summary = "Elementwise conversion to another element type";
  let description = [{
    Converts each element like a C++ `static_cast`: floats to integers round toward zero,
    anything to pred compares with zero, pred to a number gives 0 or 1, and integers
    change width by sign or zero extension or truncation. Out-of-range float to integer
    conversions are implementation-defined.

    ```mlir
    %r = hlo.convert %x : (tensor<4xf32>) -> tensor<4xi32>
    ```
  }];
  let arguments = (ins Hlo_Tensor:$operand);
  let results = (outs Hlo_Tensor:$result);
  let assemblyFormat = "$operand attr-dict `:` functional-type($operand, $result)";
}

//===----------------------------------------------------------------------===//
// Binary ops
//===----------------------------------------------------------------------===//

// Binary ops whose operands and result share one type.
class Hlo_BinaryOp<string mnemonic, Type tensorType, list<Trait> traits = []>
    : Hlo_Op<mnemonic, !listconcat(traits,
          [Pure, Elementwise, SameOperandsAndResultType, InferTypeOpInterface])> {
  let arguments = (ins tensorType:$lhs, tensorType:$rhs);
  let results = (outs tensorType:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($result)";
}

def Hlo_AddOp : Hlo_BinaryOp<"add", Hlo_AnyTensor, [Commutative]> {
  let summary = "Elementwise addition (logical or for pred)";
  let description = [{
    Integers wrap around.

    ```mlir
    %r = hlo.add %a, %b : tensor<4xf32>
    ```
  }];
}

def Hlo_SubOp : Hlo_BinaryOp<"sub", Hlo_IntOrFpOrComplexTensor> {
  let summary = "Elementwise subtraction";
  let description = [{
    Integers wrap around.

    ```mlir
    %r = hlo.sub %a, %b : tensor<4xi32>
    ```
  }];
}

def Hlo_MulOp : Hlo_BinaryOp<"mul", Hlo_AnyTensor, [Commutative]> {
  let summary = "Elementwise multiplication (logical and for pred)";
  let description = [{
    Integers wrap around.

    ```mlir
    %r = hlo.mul %a, %b : tensor<4xf32>
    ```
  }];
}

def Hlo_DivOp : Hlo_BinaryOp<"div", Hlo_IntOrFpTensor> {
  let summary = "Elementwise division";
  let description = [{
    Integer division rounds toward zero. Integer division by zero and the signed
    overflow case `INT_MIN / -1` give implementation-defined values.

    ```mlir
    %r = hlo.div %a, %b : tensor<4xf32>
    ```
  }];
}

def Hlo_RemOp : Hlo_BinaryOp<"rem", Hlo_IntOrFpTensor> {
  let summary = "Elementwise remainder with the sign of the dividend";
  let description = [{
    `a - b * trunc(a / b)` (C's `%` and `fmod`). An integer remainder by zero gives an
    implementation-defined value.

    ```mlir
    %r = hlo.rem %a, %b : tensor<4xi32>
    ```
  }];
}

def Hlo_MaxOp : Hlo_BinaryOp<"max", Hlo_Tensor, [Commutative]> {
  let summary = "Elementwise maximum (NaN if either float is NaN)";
  let description = [{
    ```mlir
    %r = hlo.max %a, %b : tensor<4xf32>
    ```
  }];
}

def Hlo_MinOp : Hlo_BinaryOp<"min", Hlo_Tensor, [Commutative]> {
  let summary = "Elementwise minimum (NaN if either float is NaN)";
  let description = [{
    ```mlir
    %r = hlo.min %a, %b : tensor<4xf32>
    ```
  }];
}

def Hlo_PowOp : Hlo_BinaryOp<"pow", Hlo_IntOrFpTensor> {
  let summary = "Elementwise power lhs^rhs";
  let description = [{
    For integers, repeated multiplication that wraps around; the result of a negative
    integer exponent is implementation-defined.

    ```mlir
    %r = hlo.pow %a, %b : tensor<4xf32>
    ```
  }];
}

def Hlo_Atan2Op : Hlo_BinaryOp<"atan2", Hlo_FpTensor> {
  let summary = "Elementwise angle of the point (rhs, lhs), i.e. atan(lhs / rhs) by quadrant";
  let description = [{
    ```mlir
    %r = hlo.atan2 %y, %x : tensor<4xf32>
    ```
  }];
}

def Hlo_AndOp : Hlo_BinaryOp<"and", Hlo_PredOrIntTensor, [Commutative]> {
  let summary = "Elementwise logical (pred) or bitwise (integers) and";
  let description = [{
    ```mlir
    %r = hlo.and %a, %b : tensor<4xi1>
    ```
  }];
}

def Hlo_OrOp : Hlo_BinaryOp<"or", Hlo_PredOrIntTensor, [Commutative]> {
  let summary = "Elementwise logical (pred) or bitwise (integers) or";
  let description = [{
    ```mlir
    %r = hlo.or %a, %b : tensor<4xi1>
    ```
  }];
}

def Hlo_XorOp : Hlo_BinaryOp<"xor", Hlo_PredOrIntTensor, [Commutative]> {
  let summary = "Elementwise logical (pred) or bitwise (integers) exclusive or";
  let description = [{
    ```mlir
    %r = hlo.xor %a, %b : tensor<4xi32>
    ```
  }];
}

def Hlo_ShiftLeftOp : Hlo_BinaryOp<"shift_left", Hlo_IntTensor> {
  let summary = "Elementwise left shift of lhs by rhs bits";
  let description = [{
    The shift amount is read as unsigned; one at least the bit width gives 0.

    ```mlir
    %r = hlo.shift_left %a, %b : tensor<4xi32>
    ```
  }];
}

def Hlo_ShiftRightArithmeticOp : Hlo_BinaryOp<"shift_right_arithmetic", Hlo_IntTensor> {
  let summary = "Elementwise right shift that fills with the sign bit";
  let description = [{
    The shift amount is read as unsigned; one at least the bit width fills every bit with
    the sign bit.

    ```mlir
    %r = hlo.shift_right_arithmetic %a, %b : tensor<4xi32>
    ```
  }];
}

def Hlo_ShiftRightLogicalOp : Hlo_BinaryOp<"shift_right_logical", Hlo_IntTensor> {
  let summary = "Elementwise right shift that fills with zeros";
  let description = [{
    The shift amount is read as unsigned; one at least the bit width gives 0.

    ```mlir
    %r = hlo.shift_right_logical %a, %b : tensor<4xui32>
    ```
  }];
}

//===----------------------------------------------------------------------===//
// complex, real, imag: building complex numbers and taking them apart
//===----------------------------------------------------------------------===//

def Hlo_ComplexOp : Hlo_Op<"complex", [Pure, Elementwise, SameOperandsAndResultShape]> {
  let summary = "Elementwise complex number from a real and an imaginary part";
  let description = [{
    `lhs + i * rhs`. The parts are f32 (giving complex<f32>, XLA's c64) or f64 (giving
    complex<f64>, XLA's c128); both have one type.

    ```mlir
    %z = hlo.complex %re, %im : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xcomplex<f32>>
    ```
  }];
  let arguments = (ins Hlo_F32OrF64Tensor:$lhs, Hlo_F32OrF64Tensor:$rhs);
  let results = (outs Hlo_ComplexTensor:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def Hlo_RealOp : Hlo_Op<"real", [Pure, Elementwise, SameOperandsAndResultShape]> {
  let summary = "Elementwise real part of a complex number";
  let description = [{
    ```mlir
    %re = hlo.real %z : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
    ```
  }];
  let arguments = (ins Hlo_ComplexTensor:$operand);
  let results = (outs Hlo_F32OrF64Tensor:$result);
  let assemblyFormat = "$operand attr-dict `:` functional-type($operand, $result)";
  let hasVerifier = 1;
}

def Hlo_ImagOp : Hlo_Op<"imag", [Pure, Elementwise, SameOperandsAndResultShape]> {
  let summary = "Elementwise imaginary part of a complex number";
  let description = [{
    ```mlir
    %im = hlo.imag %z : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
    ```
  }];
  let arguments = (ins Hlo_ComplexTensor:$operand);
  let results = (outs Hlo_F32OrF64Tensor:$result);
  let assemblyFormat = "$operand attr-dict `:` functional-type($operand, $result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// compare, select, clamp
//===----------------------------------------------------------------------===//

def Hlo_CompareOp : Hlo_Op<"compare", [Pure, Elementwise, SameOperandsAndResultShape,
    AllTypesMatch<["lhs", "rhs"]>, DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "Elementwise comparison giving a pred tensor";
  let description = [{
    Compares `lhs` with `rhs` element by element in the given direction (`EQ`, `NE`, `GE`,
    `GT`, `LE`, `LT`). The optional comparison type says how elements are ordered and must
    fit the element type: `FLOAT` (IEEE; NaN compares unequal to everything) or
    `TOTALORDER` (IEEE totalOrder) for floats, `SIGNED` for signed integers, `UNSIGNED`
    for unsigned integers and pred. Without it the element type decides. The result is a
    pred tensor of the operands' shape; its type is not written.

    ```mlir
    %r = hlo.compare LT, %a, %b : tensor<4xf32>
    %s = hlo.compare GE, %a, %b, TOTALORDER : tensor<4xf32>
    ```
  }];
  let arguments = (ins Hlo_Tensor:$lhs, Hlo_Tensor:$rhs,
                       Hlo_ComparisonDirectionAttr:$comparison_direction,
                       OptionalAttr<Hlo_ComparisonTypeAttr>:$compare_type);
  let results = (outs Hlo_PredTensor:$result);
  // The enum attributes print their own leading space; the empty literals drop ODS's.
  let assemblyFormat = [{
    `` $comparison_direction `,` $lhs `,` $rhs (`,` `` $compare_type^)? attr-dict `:`
    type($lhs)
  }];
  let hasVerifier = 1;
}

def Hlo_SelectOp : Hlo_Op<"select", [Pure,
    AllTypesMatch<["on_true", "on_false", "result"]>,
    DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "Elementwise choice between two tensors by a pred";
  let description = [{
    `result[i] = pred[i] ? on_true[i] : on_false[i]`. A rank-0 `pred` chooses one of the
    two tensors as a whole; otherwise it has the shape of `on_true`. The types after `:`
    are those of `pred` and of the two choices (= the result).

    ```mlir
    %r = hlo.select %p, %t, %f : tensor<4xi1>, tensor<4xf32>
    ```
  }];
  let arguments = (ins Hlo_PredTensor:$pred, Hlo_AnyTensor:$on_true, Hlo_AnyTensor:$on_false);
  let results = (outs Hlo_AnyTensor:$result);
  let assemblyFormat = [{
    $pred `,` $on_true `,` $on_false attr-dict `:` type($pred) `,` type($result)
  }];
  let hasVerifier = 1;
}

def Hlo_ClampOp : Hlo_Op<"clamp", [Pure, AllTypesMatch<["operand", "result"]>,
    DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "Elementwise min(max(operand, min), max)";
  let description = [{
    Bounds each element of `operand` below by `min` and above by `max`. Each bound is
    either rank-0 (one bound for every element) or has the operand's shape; both have the
    operand's element type. The types after `:` are those of `min`, `operand`, `max`.

    ```mlir
    %r = hlo.clamp %lo, %x, %hi : tensor<f32>, tensor<4xf32>, tensor<f32>
    ```
  }];
  let arguments = (ins Hlo_Tensor:$min, Hlo_Tensor:$operand, Hlo_Tensor:$max);
  let results = (outs Hlo_Tensor:$result);
  let assemblyFormat = [{
    $min `,` $operand `,` $max attr-dict `:` type($min) `,` type($operand) `,` type($max)
  }];
  let hasVerifier = 1;
}

#endif  // TESSEL_IR_HLO_ELEMENTWISE_OPS_TD
