// Hoisting out of control flow in a partitioned function: code that computes the same value
// on every trip of an hlo.while (a reshard of a weight the loop never changes, an offset
// table) runs once before the loop; code that every branch of an hlo.case computes alike
// (the same reshard of the same value) runs once before the case.
//
//   spmd::hoistInvariantCode(func);   // after partitioning, inner loops first
//
// Only ops without regions whose effects are none and that are always speculatable move
// (collectives are: every device runs the same program, so a hoisted collective still
// meets). A loop that runs zero times then still computes the hoisted values once, as XLA's
// hoisting does.
#ifndef TESSEL_PARTITIONER_SPMD_LOOP_INVARIANT_HOISTING_H_
#define TESSEL_PARTITIONER_SPMD_LOOP_INVARIANT_HOISTING_H_

#include "llvm/ADT/SmallVector.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "partitioner/ir/hlo/hlo_ops.h"

namespace tessel::spmd {

// Returns the number of ops moved.
int hoistInvariantCode(mlir::func::FuncOp func);

// The ops of `loop`'s body that hoistInvariantCode moves before it, in body order: those
// that can move and read only values from outside the loop, state the body returns
// unchanged, or results of ops listed before them. The loop is not changed.
llvm::SmallVector<mlir::Operation*> loopInvariantOps(hlo::WhileOp loop);

}  // namespace tessel::spmd

#endif  // TESSEL_PARTITIONER_SPMD_LOOP_INVARIANT_HOISTING_H_
