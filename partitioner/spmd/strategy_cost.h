// The price of code the partitioner has emitted for one op, by the cost model: each
// collective's alpha-beta time on the hardware spec's links for its axes, and each local
// op's roofline time. Handlers with several ways to partition an op emit each way into a
// trial block (SpmdBuilder::TrialScope), price it here, and keep the cheapest.
//
//   SpmdBuilder::TrialScope trial(state.spmd());
//   ... emit one strategy ...
//   EmittedCost cost = costOfEmitted(trial.block(), mesh, spec);
#ifndef TESSEL_PARTITIONER_SPMD_STRATEGY_COST_H_
#define TESSEL_PARTITIONER_SPMD_STRATEGY_COST_H_

#include <string>

#include "cost_model/hardware_spec.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "mlir/IR/Block.h"
#include "partitioner/ir/tessel/tessel_ops.h"

namespace tessel::spmd {

struct EmittedCost {
  double seconds = 0;             // collectives plus local compute
  double communicationSeconds = 0;
  double sentBytes = 0;           // what one device sends
  double hoistedSeconds = 0;      // code that runs once, before the enclosing loop
  double hoistedSentBytes = 0;    // what its collectives send
  std::string collectives;        // "reduce_scatter over axis_1, ...", or "no collectives"
};

// The cost of the ops of `block` (not nested regions), whose collectives are over `mesh`.
// The block need not belong to a module: group sizes come from `mesh`, not from a symbol
// lookup. Inside a loop body, `isLoopInvariant` says which values outside the block are the
// same on every trip; pure ops computed from those alone run once, before the loop, after
// hoisting: their time goes to hoistedSeconds, not to the per-trip seconds and bytes, and
// their collectives are described as "before the loop".
EmittedCost costOfEmitted(mlir::Block& block, ir::MeshAttr mesh,
                          const cost_model::HardwareSpec& spec,
                          llvm::function_ref<bool(mlir::Value)> isLoopInvariant = nullptr);

}  // namespace tessel::spmd

#endif  // TESSEL_PARTITIONER_SPMD_STRATEGY_COST_H_
