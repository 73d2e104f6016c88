// --tessel-propagate: the pass wrapper around propagateShardings.
#include "partitioner/propagation/passes.h"
#include "partitioner/propagation/propagate.h"

namespace tessel::propagation {

#define GEN_PASS_DEF_PROPAGATEPASS
#include "partitioner/propagation/passes.h.inc"

namespace {

struct PropagatePass : impl::PropagatePassBase<PropagatePass> {
  using PropagatePassBase::PropagatePassBase;

  void runOnOperation() override {
    PropagationOptions options;
    options.conservative = conservative;
    options.annotateOrigins = annotateOrigins;
    if (mlir::failed(propagateShardings(getOperation(), options, /*report=*/nullptr))) {
      signalPassFailure();
    }
  }
};

}  // namespace
}  // namespace tessel::propagation
