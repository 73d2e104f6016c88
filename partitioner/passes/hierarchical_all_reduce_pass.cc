// --tessel-hierarchical-all-reduce: the pass wrapper around splitAllReducesByAxis, on the
// built-in hardware spec.
#include "cost_model/hardware_spec.h"
#include "partitioner/passes/hierarchical_all_reduce.h"
#include "partitioner/passes/passes.h"

namespace tessel::passes {

#define GEN_PASS_DEF_HIERARCHICALALLREDUCEPASS
#include "partitioner/passes/passes.h.inc"

namespace {

struct HierarchicalAllReducePass
    : impl::HierarchicalAllReducePassBase<HierarchicalAllReducePass> {
  using HierarchicalAllReducePassBase::HierarchicalAllReducePassBase;

  void runOnOperation() override {
    splitAllReducesByAxis(getOperation(), cost_model::DefaultHardwareSpec());
  }
};

}  // namespace
}  // namespace tessel::passes
