// The pieces of --tessel-import-gspmd-manual-computations that read GSPMD's shard_map in
// imported HLO: which ops make up each shard_map, and the clean-up of a body once it sits in
// a tessel.manual_computation.
//
// GSPMD writes a shard_map as ops, not as one instruction: each operand goes through a
// `Sharding` custom call (its in sharding) into `SPMDFullToShardShape` (manual, local shape),
// per-device code follows (often one `call` of the body computation, or the body inlined),
// and each result goes through a `Sharding` custom call with a manual sharding into
// `SPMDShardToFullShape` (its out sharding, global shape).
#ifndef TESSEL_PARTITIONER_SHARDING_TRANSFORMS_GSPMD_SHARD_MAPS_H_
#define TESSEL_PARTITIONER_SHARDING_TRANSFORMS_GSPMD_SHARD_MAPS_H_

#include <set>
#include <string>
#include <vector>

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallVector.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/ir/tessel/tessel_ops.h"
#include "partitioner/sharding/mesh.h"

namespace tessel::sharding {

// One shard_map: the ops of one block that enter it, leave it, and run between.
struct GspmdShardMap {
  // SPMDFullToShardShape calls, in block order: the manual computation's operands.
  llvm::SmallVector<hlo::CustomCallOp> entries;
  // SPMDShardToFullShape calls, in block order: its results.
  llvm::SmallVector<hlo::CustomCallOp> exits;
  // The per-device code, in block order: every op that a local value reaches before an
  // exit (the Sharding custom calls in front of the exits included).
  llvm::SmallVector<mlir::Operation*> body;
  // Ops outside the body that compute, from constants alone, values the body uses (a
  // constant written once for global and per-device code): the body gets its own copies.
  llvm::SmallVector<mlir::Operation*> constants;
};

// The verbatim GSPMD sharding HLO import left on `op` (`tessel.hlo_sharding`), or "".
std::string hloShardingText(mlir::Operation* op);

// Whether `op` (possibly null) is GSPMD's annotation `custom-call(x),
// custom_call_target="Sharding"` of one value.
bool isShardingCustomCall(mlir::Operation* op);

// Every shard_map of the module, those in the most deeply nested blocks first, so that
// rewriting one never removes ops another still names. Fails with a diagnostic at the op
// where a local value leaves per-device code other than through SPMDShardToFullShape, or
// per-device code takes a global value other than through SPMDFullToShardShape.
mlir::FailureOr<std::vector<GspmdShardMap>> findGspmdShardMaps(mlir::ModuleOp module);

// Makes the body of `manual` (cloned from a shard_map) hold only per-device code: every
// `func.call` in it is inlined (the partitioner keeps calls out of manual code), and the
// manual shardings GSPMD wrote in it go: a Sharding custom call becomes its operand, or a
// tessel.sharding_constraint where it also splits the value over non-manual axes; other
// ops lose their sharding. The inlined functions are added to `inlined`.
// Fails with a diagnostic at the op: a sharding that is not manual, or manual over other
// axes than `manualAxes`; a call of a function without a body, or calls that recurse.
mlir::LogicalResult cleanUpBody(ir::ManualComputationOp manual, const std::string& meshName,
                                const Mesh& mesh, const std::set<std::string>& manualAxes,
                                mlir::SymbolTable& symbols,
                                llvm::SetVector<mlir::func::FuncOp>& inlined);

}  // namespace tessel::sharding

#endif  // TESSEL_PARTITIONER_SHARDING_TRANSFORMS_GSPMD_SHARD_MAPS_H_
