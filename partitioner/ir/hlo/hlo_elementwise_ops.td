// Elementwise ops: unary and binary arithmetic, logic, comparisons, select, clamp, convert.
#ifndef TESSEL_IR_HLO_ELEMENTWISE_OPS_TD
#define TESSEL_IR_HLO_ELEMENTWISE_OPS_TD

include "partitioner/ir/hlo/hlo_base.td"

// Binary ops whose operands and result share one type.
class Hlo_BinaryOp<string mnemonic, Type tensorType, list<Trait> traits = []>
    : Hlo_Op<mnemonic, !listconcat(traits,
          [Pure, Elementwise, SameOperandsAndResultType])> {
  let arguments = (ins tensorType:$lhs, tensorType:$rhs);
  let results = (outs tensorType:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($result)";
}

def Hlo_AddOp : Hlo_BinaryOp<"add", Hlo_Tensor, [Commutative]> {
  let summary = "Elementwise addition (logical or for pred)";
}

#endif  // TESSEL_IR_HLO_ELEMENTWISE_OPS_TD
