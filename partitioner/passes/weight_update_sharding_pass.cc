// --tessel-weight-update-sharding: the pass wrapper around shardWeightUpdates.
#include "partitioner/passes/passes.h"
#include "partitioner/passes/weight_update_sharding.h"

namespace tessel::passes {

#define GEN_PASS_DEF_WEIGHTUPDATESHARDINGPASS
#include "partitioner/passes/passes.h.inc"

namespace {

struct WeightUpdateShardingPass : impl::WeightUpdateShardingPassBase<WeightUpdateShardingPass> {
  using WeightUpdateShardingPassBase::WeightUpdateShardingPassBase;

  void runOnOperation() override {
    WeightUpdateShardingOptions options;
    options.verbose = verbose;
    shardWeightUpdates(getOperation(), options);
  }
};

}  // namespace
}  // namespace tessel::passes
