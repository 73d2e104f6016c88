// --tessel-combine-collectives: the pass wrapper around combineCollectives.
#include "partitioner/passes/collective_combining.h"
#include "partitioner/passes/passes.h"

namespace tessel::passes {

#define GEN_PASS_DEF_COLLECTIVECOMBININGPASS
#include "partitioner/passes/passes.h.inc"

namespace {

struct CollectiveCombiningPass : impl::CollectiveCombiningPassBase<CollectiveCombiningPass> {
  using CollectiveCombiningPassBase::CollectiveCombiningPassBase;

  void runOnOperation() override {
    CollectiveCombiningOptions options;
    options.max_bytes = max_bytes;
    combineCollectives(getOperation(), options);
  }
};

}  // namespace
}  // namespace tessel::passes
