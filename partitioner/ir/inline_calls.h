// Inlining every call of a module before whole-function analyses and partitioning: both
// work on one function body at a time, and each call site may need its own reshards of the
// callee's values (propagation already gave the callee's ops the shardings all call sites
// agree on).
//
//   if (mlir::failed(ir::inlineCalls(module))) return mlir::failure();
#ifndef TESSEL_PARTITIONER_IR_INLINE_CALLS_H_
#define TESSEL_PARTITIONER_IR_INLINE_CALLS_H_

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LogicalResult.h"

namespace tessel::ir {

// Inlines every func.call to a function with a body, callees' own calls included, and erases
// private functions no call uses any more. A callee of one block is cloned in front of its
// call, which costs the callee's size and not the caller's; others go through MLIR's
// inliner. Fails, with an error on a call, where a function reaches itself through calls
// (recursion: inlining would never end) or MLIR's inliner cannot inline.
mlir::LogicalResult inlineCalls(mlir::ModuleOp module);

}  // namespace tessel::ir

#endif  // TESSEL_PARTITIONER_IR_INLINE_CALLS_H_
