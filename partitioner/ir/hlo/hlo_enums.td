// Enumerations used by `hlo` op attributes.
#ifndef TESSEL_IR_HLO_ENUMS_TD
#define TESSEL_IR_HLO_ENUMS_TD

include "partitioner/ir/hlo/hlo_dialect.td"
include "mlir/IR/EnumAttr.td"

// hlo.compare's direction.
def Hlo_ComparisonDirection : I32EnumAttr<"ComparisonDirection",
    "which comparison hlo.compare performs", [
      I32EnumAttrCase<"EQ", 0>, I32EnumAttrCase<"NE", 1>,
      I32EnumAttrCase<"GE", 2>, I32EnumAttrCase<"GT", 3>,
      I32EnumAttrCase<"LE", 4>, I32EnumAttrCase<"LT", 5>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::tessel::hlo";
}

// The bare keyword keeps op syntax short (`hlo.compare LT, ...`); on its own the attribute
// reads `#hlo<comparison_direction LT>`.
def Hlo_ComparisonDirectionAttr
    : EnumAttr<Hlo_Dialect, Hlo_ComparisonDirection, "comparison_direction"> {
  let assemblyFormat = "$value";
}

// How hlo.compare orders its operands. FLOAT is IEEE comparison (NaN is unordered);
// TOTALORDER is the IEEE totalOrder predicate (-NaN < -Inf < ... < -0 < +0 < ... < +NaN);
// SIGNED and UNSIGNED read integer bits as two's complement or as unsigned.
def Hlo_ComparisonType : I32EnumAttr<"ComparisonType",
    "how hlo.compare orders its operands", [
      I32EnumAttrCase<"FLOAT", 0>, I32EnumAttrCase<"TOTALORDER", 1>,
      I32EnumAttrCase<"SIGNED", 2>, I32EnumAttrCase<"UNSIGNED", 3>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::tessel::hlo";
}

def Hlo_ComparisonTypeAttr
    : EnumAttr<Hlo_Dialect, Hlo_ComparisonType, "comparison_type"> {
  let assemblyFormat = "$value";
}

// hlo.rng_bit_generator's algorithm. DEFAULT is what XLA's CPU and GPU backends pick for it:
// Philox.
def Hlo_RngAlgorithm : I32EnumAttr<"RngAlgorithm",
    "the counter-based generator hlo.rng_bit_generator runs", [
      I32EnumAttrCase<"DEFAULT", 0, "default">, I32EnumAttrCase<"THREE_FRY", 1, "three_fry">,
      I32EnumAttrCase<"PHILOX", 2, "philox">]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::tessel::hlo";
}

def Hlo_RngAlgorithmAttr : EnumAttr<Hlo_Dialect, Hlo_RngAlgorithm, "rng_algorithm"> {
  let assemblyFormat = "$value";
}

#endif  // TESSEL_IR_HLO_ENUMS_TD
