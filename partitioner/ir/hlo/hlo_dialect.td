// The `hlo` dialect: compute ops with XLA's operation semantics, on ranked tensors.
#ifndef TESSEL_IR_HLO_DIALECT_TD
#define TESSEL_IR_HLO_DIALECT_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def Hlo_Dialect : Dialect {
  let name = "hlo";
  let cppNamespace = "::tessel::hlo";
  let summary = "Tensor compute ops with XLA operation semantics";
  let description = [{
    The ops a single-device program is written in. Each op follows the semantics of the
    XLA operation of the same name; shapes are static and every value is a ranked tensor.
  }];
  let useDefaultAttributePrinterParser = 1;
  let hasConstantMaterializer = 0;
}

#endif  // TESSEL_IR_HLO_DIALECT_TD
