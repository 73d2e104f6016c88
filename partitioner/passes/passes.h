// Passes of partitioner/passes (generated from passes.td): --tessel-weight-update-sharding,
// created with createWeightUpdateShardingPass(), --tessel-combine-collectives, created
// with createCollectiveCombiningPass(), and --tessel-hierarchical-all-reduce, created with
// createHierarchicalAllReducePass().
#ifndef TESSEL_PARTITIONER_PASSES_PASSES_H_
#define TESSEL_PARTITIONER_PASSES_PASSES_H_

#include <memory>

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/ir/tessel/tessel_ops.h"

namespace tessel::passes {

#define GEN_PASS_DECL
#include "partitioner/passes/passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "partitioner/passes/passes.h.inc"

}  // namespace tessel::passes

#endif  // TESSEL_PARTITIONER_PASSES_PASSES_H_
