// Where GSPMD sharding strings wait between reading a program and the sharding import: HLO
// text's `sharding={...}` and StableHLO's `mhlo.sharding` are kept verbatim, on ops and on
// function arguments and results, under one attribute name, until the import pass turns them
// into `tessel.sharding`. Readers decide from `HasGspmdShardingStrings` whether that pass has
// anything to do.
#ifndef TESSEL_PARTITIONER_IR_GSPMD_SHARDING_ATTR_H_
#define TESSEL_PARTITIONER_IR_GSPMD_SHARDING_ATTR_H_

#include "llvm/ADT/StringRef.h"
#include "mlir/IR/Operation.h"

namespace tessel::ir {

inline constexpr llvm::StringLiteral kGspmdShardingAttr = "tessel.hlo_sharding";

// Whether any op under `root` (itself included), or any argument or result of a function
// under it, still carries a GSPMD sharding string.
bool HasGspmdShardingStrings(mlir::Operation* root);

}  // namespace tessel::ir

#endif  // TESSEL_PARTITIONER_IR_GSPMD_SHARDING_ATTR_H_
