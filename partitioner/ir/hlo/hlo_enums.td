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

def Hlo_ComparisonDirectionAttr
    : EnumAttr<Hlo_Dialect, Hlo_ComparisonDirection, "comparison_direction">;

#endif  // TESSEL_IR_HLO_ENUMS_TD
