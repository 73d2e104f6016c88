// tessel-spmd-pipeline: the order in which the partitioner's passes must run.
#include "partitioner/passes/spmd_pipeline.h"

#include "mlir/Pass/PassRegistry.h"
#include "partitioner/passes/passes.h"
#include "partitioner/propagation/passes.h"
#include "partitioner/spmd/passes.h"

namespace tessel::passes {

void buildSpmdPipeline(mlir::OpPassManager& pm, const SpmdPipelineOptions& options) {
  // Every later pass reads the sharding of every value, which only propagation writes.
  propagation::PropagatePassOptions propagate;
  propagate.conservative = options.conservative;
  pm.addPass(propagation::createPropagatePass(propagate));
  // Weight-update sharding rewrites shardings, not ops: it must see the propagated
  // shardings and run before partitioning turns them into local types and collectives.
  if (options.shardWeightUpdate) pm.addPass(createWeightUpdateShardingPass());
  spmd::PartitionPassOptions partition;
  partition.replicationIsError = options.replicationIsError;
  partition.strategyRemarks = options.strategyRemarks;
  pm.addPass(spmd::createPartitionPass(partition));
  // Both work on the collectives partitioning emitted. Combining goes first so that the
  // split by axis prices the combined all_reduces, as the `tessel` command does.
  if (options.combineCollectives) pm.addPass(createCollectiveCombiningPass());
  if (options.hierarchicalAllReduce) pm.addPass(createHierarchicalAllReducePass());
}

void registerSpmdPipeline() {
  // MLIR's registry refuses a second registration of one name.
  static const bool registered = [] {
    mlir::PassPipelineRegistration<SpmdPipelineOptions>(
        kSpmdPipelineName,
        "Propagates shardings and partitions every function into the program each device "
        "runs",
        buildSpmdPipeline);
    return true;
  }();
  (void)registered;
}

}  // namespace tessel::passes
