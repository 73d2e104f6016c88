// The `tessel` dialect: what partitioning adds to a program — meshes, shardings,
// constraints, manual computations, collectives and partition_id.
#ifndef TESSEL_IR_TESSEL_DIALECT_TD
#define TESSEL_IR_TESSEL_DIALECT_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def Tessel_Dialect : Dialect {
  let name = "tessel";
  let cppNamespace = "::tessel::ir";
  let summary = "Meshes, shardings and collectives for SPMD partitioning";
  let description = [{
    A device mesh is a symbol with named axes. A sharding says, per tensor dimension, which
    mesh axes split it. Collectives name their device groups by mesh axes, so the IR has the
    same size for any number of devices.
  }];
  let useDefaultAttributePrinterParser = 1;
  // Shardings on function arguments and results, and on any op's results.
  let hasOperationAttrVerify = 1;
  let hasRegionArgAttrVerify = 1;
  let hasRegionResultAttrVerify = 1;
  let extraClassDeclaration = [{
    // Where shardings are attached: a plain #tessel.sharding on function arguments and
    // results, a #tessel.sharding_per_value (one per result) on ops.
    static constexpr llvm::StringLiteral kShardingAttrName = "tessel.sharding";
    // On a module: its function is per-device code as written (every value manual in HLO),
    // not a global program.
    static constexpr llvm::StringLiteral kPerDeviceAttrName = "tessel.per_device";
  }];
}

class Tessel_Op<string mnemonic, list<Trait> traits = []> :
    Op<Tessel_Dialect, mnemonic, traits>;

class Tessel_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Tessel_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

#endif  // TESSEL_IR_TESSEL_DIALECT_TD
