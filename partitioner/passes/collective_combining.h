// Collective combining (docs/partitioning.md): independent collectives of one kind over the
// same mesh axes become one collective of their concatenated operands, so a partitioned
// program pays one collective latency where it paid one per op.
//
//   spmd::partitionModule(module);
//   passes::combineCollectives(module, passes::CollectiveCombiningOptions());
//
// Runs on a PARTITIONED program. Each operand is flattened (to 1-D for an all_reduce, to
// [1, size] for an all_gather along dim 0, to [n, size / n] for a reduce_scatter along
// dim 0 over groups of n), the pieces are concatenated along their last dimension, one
// collective runs, and an hlo.slice and hlo.reshape per original op give its result back.
#ifndef TESSEL_PARTITIONER_PASSES_COLLECTIVE_COMBINING_H_
#define TESSEL_PARTITIONER_PASSES_COLLECTIVE_COMBINING_H_

#include <cstdint>

#include "mlir/IR/BuiltinOps.h"

namespace tessel::passes {

struct CollectiveCombiningOptions {
  // The most bytes the result of one combined collective may hold. A collective whose
  // result alone is larger is left as it is.
  int64_t max_bytes = int64_t{32} << 20;
};

// Combines the collectives of every block of `module` (nested blocks included): ops of one
// block that are the same collective (all_reduce; all_gather or reduce_scatter along dim 0)
// with the same mesh, axes, reduction kind and element type, none of which depends on
// another's result. Returns how many collectives the module lost.
int64_t combineCollectives(mlir::ModuleOp module, const CollectiveCombiningOptions& options);

}  // namespace tessel::passes

#endif  // TESSEL_PARTITIONER_PASSES_COLLECTIVE_COMBINING_H_
