// Type constraints and the op base class shared by every `hlo` op family.
#ifndef TESSEL_IR_HLO_BASE_TD
#define TESSEL_IR_HLO_BASE_TD

include "partitioner/ir/hlo/hlo_dialect.td"
include "mlir/IR/BuiltinTypes.td"
include "mlir/IR/CommonTypeConstraints.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"

// Element types (XLA name → MLIR type): pred → i1; s8..s64 → signless i8..i64;
// u8..u64 → ui8..ui64; f16, bf16, f32, f64. Each keeps ODS's summary (and so its
// diagnostics) and builder, with a test of its own from hlo_type_predicates.h: the verifier
// runs these on every operand and result.
def Hlo_Pred : TypeAlias<I1, "pred (i1)"> {
  let predicate = CPred<"::tessel::hlo::isHloPredType($_self)">;
}
def Hlo_SInt : SignlessIntOfWidths<[8, 16, 32, 64]> {
  let predicate = CPred<"::tessel::hlo::isHloSignedIntType($_self)">;
}
def Hlo_UInt : UnsignedIntOfWidths<[8, 16, 32, 64]> {
  let predicate = CPred<"::tessel::hlo::isHloUnsignedIntType($_self)">;
}
def Hlo_Int : AnyTypeOf<[Hlo_SInt, Hlo_UInt]>;
def Hlo_Float : AnyTypeOf<[F16, BF16, F32, F64]> {
  let predicate = CPred<"::tessel::hlo::isHloFloatType($_self)">;
}
def Hlo_Element : AnyTypeOf<[Hlo_Pred, Hlo_Int, Hlo_Float]>;
// c64 → complex<f32>, c128 → complex<f64>. Only the ops that move data, add, subtract,
// multiply and negate them, dot_general and complex/real/imag accept them (Hlo_AnyTensor and
// friends); ops that need an order (max, compare, sort, ...) keep to Hlo_Tensor.
def Hlo_Complex : AnyTypeOf<[Complex<F32>, Complex<F64>]> {
  let predicate = CPred<"::tessel::hlo::isHloComplexType($_self)">;
}

// Shapes are static: partitioning divides every dimension by known shard counts. The
// summary is StaticShapeTensorOf's; the test reads the shape and element type from the
// ranked tensor directly, where ODS's goes through ShapedType twice.
class Hlo_StaticTensorOf<list<Type> allowedTypes> : StaticShapeTensorOf<allowedTypes> {
  let predicate = And<[
      CPred<"::tessel::hlo::isStaticRankedTensor($_self)">,
      SubstLeaves<"$_self", "::tessel::hlo::staticTensorElementType($_self)",
                  AnyTypeOf<allowedTypes>.predicate>]>;
}
def Hlo_Tensor : Hlo_StaticTensorOf<[Hlo_Element]>;
def Hlo_FpTensor : Hlo_StaticTensorOf<[Hlo_Float]>;
def Hlo_IntTensor : Hlo_StaticTensorOf<[Hlo_Int]>;
def Hlo_SIntTensor : Hlo_StaticTensorOf<[Hlo_SInt]>;
def Hlo_PredTensor : Hlo_StaticTensorOf<[Hlo_Pred]>;
def Hlo_PredOrIntTensor : Hlo_StaticTensorOf<[Hlo_Pred, Hlo_Int]>;
def Hlo_IntOrFpTensor : Hlo_StaticTensorOf<[Hlo_Int, Hlo_Float]>;
def Hlo_SIntOrFpTensor : Hlo_StaticTensorOf<[Hlo_SInt, Hlo_Float]>;
def Hlo_AnyTensor : Hlo_StaticTensorOf<[Hlo_Pred, Hlo_Int, Hlo_Float, Hlo_Complex]>;
def Hlo_ComplexTensor : Hlo_StaticTensorOf<[Hlo_Complex]>;
def Hlo_F32OrF64Tensor : Hlo_StaticTensorOf<[F32, F64]>;
def Hlo_IntOrFpOrComplexTensor : Hlo_StaticTensorOf<[Hlo_Int, Hlo_Float, Hlo_Complex]>;
def Hlo_SIntOrFpOrComplexTensor : Hlo_StaticTensorOf<[Hlo_SInt, Hlo_Float, Hlo_Complex]>;

// A rank-0 integer tensor: indices of dynamic_slice and friends, case selectors.
def Hlo_ScalarIntTensor : 0DTensorOf<[Hlo_Int]>;

class Hlo_Op<string mnemonic, list<Trait> traits = []> :
    Op<Hlo_Dialect, mnemonic, traits>;

#endif  // TESSEL_IR_HLO_BASE_TD
