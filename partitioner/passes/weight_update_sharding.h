// Cross-replica weight-update sharding (docs/partitioning.md): in a data-parallel step, the
// optimizer update that a gradient feeds runs on a 1/n shard of the weight instead of being
// repeated whole on every device, and the optimizer state stays sharded from step to step.
//
//   propagation::propagateShardings(module, {}, nullptr);
//   passes::shardWeightUpdates(module, passes::WeightUpdateShardingOptions());
//   spmd::partitionModule(module);
//   // The gradient is reduce-scattered (not all-reduced), the update computes on the
//   // shard, and the new weight is all-gathered at the function result.
//
// Only shardings change (and one tessel.reshard per gradient marks where it is split):
// partitioning then emits the reduce_scatter, the sharded update and the all_gather.
//
// The contract with the caller: the optimizer-state arguments and results of a sharded
// update are split over the gradient's axes along one dimension (their attributes say how);
// the caller passes in each step the state the previous step returned, still sharded, so
// the state takes 1/n of the memory per device and is never gathered. Weights are taken and
// returned as before (replicated over those axes).
#ifndef TESSEL_PARTITIONER_PASSES_WEIGHT_UPDATE_SHARDING_H_
#define TESSEL_PARTITIONER_PASSES_WEIGHT_UPDATE_SHARDING_H_

#include <cstdint>

#include "mlir/IR/BuiltinOps.h"

namespace tessel::passes {

struct WeightUpdateShardingOptions {
  // Also remark on every update that is sharded (always: on every one left alone, and why).
  bool verbose = false;
};

// Shards the updates of every function of `module`, which propagation has annotated.
// Returns the number of updates sharded. An update that does not fit the rule
// (weight_update_analysis.h) is left alone with a remark on its gradient saying why.
int64_t shardWeightUpdates(mlir::ModuleOp module, const WeightUpdateShardingOptions& options);

}  // namespace tessel::passes

#endif  // TESSEL_PARTITIONER_PASSES_WEIGHT_UPDATE_SHARDING_H_
