// Hierarchical all-reduce (docs/partitioning.md): an all_reduce over several mesh axes is one
// ring over all their devices, 2(N-1) latency steps over the slowest of their links. Split by
// axis, as a reduce_scatter over one axis, the rest all-reduced on the 1/n piece and an
// all_gather back, it sends the same bytes in 2(n_1-1) + 2(n_2-1) + ... steps, each over its
// own axis's link. A scalar cannot be scattered; it may be all-reduced over one axis after
// the other instead. Each all_reduce takes whichever form the cost model finds fastest on
// the hardware spec.
//
//   spmd::partitionModule(module);
//   passes::combineCollectives(module, {});     // combine first: one ring per kind and axes
//   passes::splitAllReducesByAxis(module, spec);
//
// Runs on a PARTITIONED program, after collective combining (combining sees the one
// all_reduce per gradient it can merge; the split forms of several gradients would not be
// independent of each other).
#ifndef TESSEL_PARTITIONER_PASSES_HIERARCHICAL_ALL_REDUCE_H_
#define TESSEL_PARTITIONER_PASSES_HIERARCHICAL_ALL_REDUCE_H_

#include <cstdint>

#include "cost_model/hardware_spec.h"
#include "mlir/IR/BuiltinOps.h"

namespace tessel::passes {

// Rewrites every all_reduce of `module` over two or more axes whose split form is faster on
// `spec`. Returns how many all_reduces were rewritten.
int64_t splitAllReducesByAxis(mlir::ModuleOp module, const cost_model::HardwareSpec& spec);

}  // namespace tessel::passes

#endif  // TESSEL_PARTITIONER_PASSES_HIERARCHICAL_ALL_REDUCE_H_
