// Loop accumulators stay partial sums: a while loop that adds a partial sum (a dot_general
// or convolution with a split contraction, a zero-init sum over a split dimension) to a
// carried value on
// every trip, as gradient accumulation over microbatches does, would otherwise reduce the
// partial sum on every trip. Marking the carry, the add and the chain from the partial sum
// `unreduced` over the summed axes makes the partitioner keep the sum partial through the
// loop and reduce it once after the loop, where the carry is read (or reduce-scatter it,
// with weight-update sharding). Runs on shardings, before partitioning; idempotent.
//
//   int64_t kept = keepLoopAccumulatorsUnreduced(func);
#ifndef TESSEL_PARTITIONER_SPMD_LOOP_ACCUMULATORS_H_
#define TESSEL_PARTITIONER_SPMD_LOOP_ACCUMULATORS_H_

#include <cstdint>

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace tessel::spmd {

// Marks every accumulator of every while loop in `func` (nested loops included) whose
// carry is read by nothing in the loop but the add, and in the condition not at all; the
// added value may reach the add from its partial sum through ops linear in it (transpose,
// reshape, broadcast_in_dim, neg, convert between floats, mul or div by a scalar or a
// broadcast of one), each read only on that path. Returns how many carries were marked.
int64_t keepLoopAccumulatorsUnreduced(mlir::func::FuncOp func);

}  // namespace tessel::spmd

#endif  // TESSEL_PARTITIONER_SPMD_LOOP_ACCUMULATORS_H_
