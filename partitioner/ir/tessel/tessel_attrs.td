// Attributes of the `tessel` dialect: meshes and shardings.
#ifndef TESSEL_IR_TESSEL_ATTRS_TD
#define TESSEL_IR_TESSEL_ATTRS_TD

include "partitioner/ir/tessel/tessel_dialect.td"
include "mlir/IR/EnumAttr.td"

// How all_reduce and reduce_scatter combine the values of a group.
def Tessel_ReductionKind : I32EnumAttr<"ReductionKind",
    "how a collective combines the values of its group", [
      I32EnumAttrCase<"Sum", 0, "sum">, I32EnumAttrCase<"Prod", 1, "prod">,
      I32EnumAttrCase<"Max", 2, "max">, I32EnumAttrCase<"Min", 3, "min">]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::tessel::ir";
}

def Tessel_ReductionKindAttr
    : EnumAttr<Tessel_Dialect, Tessel_ReductionKind, "reduction"> {
  let assemblyFormat = "`<` $value `>`";
}

#endif  // TESSEL_IR_TESSEL_ATTRS_TD
