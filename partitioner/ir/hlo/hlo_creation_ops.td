// Ops that create tensors from attributes: constant, iota.
#ifndef TESSEL_IR_HLO_CREATION_OPS_TD
#define TESSEL_IR_HLO_CREATION_OPS_TD

include "partitioner/ir/hlo/hlo_base.td"

def Hlo_ConstantOp : Hlo_Op<"constant",
    [ConstantLike, Pure, DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "A tensor whose value is given by an attribute";
  let description = [{
    Produces `value`; the result type is the attribute's type.

    ```mlir
    %c = hlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
    ```
  }];
  let arguments = (ins ElementsAttr:$value);
  let results = (outs Hlo_Tensor:$output);
  let assemblyFormat = "attr-dict $value";
  let hasFolder = 1;
}

#endif  // TESSEL_IR_HLO_CREATION_OPS_TD
