// Control flow and opaque ops: sort, while, case, custom_call, and the region terminator.
#ifndef TESSEL_IR_HLO_CONTROL_OPS_TD
#define TESSEL_IR_HLO_CONTROL_OPS_TD

include "partitioner/ir/hlo/hlo_base.td"

def Hlo_ReturnOp : Hlo_Op<"return", [Pure, Terminator]> {
  let summary = "Returns values from the region of an hlo op";
  let arguments = (ins Variadic<Hlo_Tensor>:$results);
  let assemblyFormat = "$results attr-dict (`:` type($results)^)?";
}

#endif  // TESSEL_IR_HLO_CONTROL_OPS_TD
