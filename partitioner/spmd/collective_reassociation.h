// Reassociating sums with their reductions in a partitioned function: the sum of two
// all_reduces (or reduce_scatters) of one kind over the same axes is the reduction of the
// sum of their operands, so `all_reduce(a) + all_reduce(b)` becomes `all_reduce(a + b)`:
// one collective where there were two, the same bytes as one of them. A parallel
// transformer block (attention and MLP both row-parallel, added to the residual) then pays
// one all_reduce per layer. Partial sums stay partial through the add: the values remain
// unreduced until something needs them whole.
//
//   spmd::reassociateReductions(func);   // after partitioning
//
// Only sums and differences of reductions with kind sum, each of which the add alone reads,
// in the same block, are rewritten; chains fold pairwise to one, and `(v + reduce(a)) +
// reduce(b)` becomes `v + reduce(a + b)` (a residual added first). A sum all_reduce seen
// through ops linear in it (neg, transpose, reshape, broadcast_in_dim, a mul or div by a
// constant: `0.5 * all_reduce(a) + all_reduce(b)`) first moves after them, so the partial
// sum stays partial through the scaling.
#ifndef TESSEL_PARTITIONER_SPMD_COLLECTIVE_REASSOCIATION_H_
#define TESSEL_PARTITIONER_SPMD_COLLECTIVE_REASSOCIATION_H_

#include <cstdint>

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace tessel::spmd {

// Returns the number of collectives removed.
int64_t reassociateReductions(mlir::func::FuncOp func);

}  // namespace tessel::spmd

#endif  // TESSEL_PARTITIONER_SPMD_COLLECTIVE_REASSOCIATION_H_
