// Structured attributes of `hlo` ops (dimension numbers and the like).
#ifndef TESSEL_IR_HLO_ATTRS_TD
#define TESSEL_IR_HLO_ATTRS_TD

include "partitioner/ir/hlo/hlo_base.td"
include "partitioner/ir/hlo/hlo_enums.td"

class Hlo_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Hlo_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

#endif  // TESSEL_IR_HLO_ATTRS_TD
