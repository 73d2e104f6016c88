// Passes of the sharding layer (declarations generated from passes.td).
//
//   mlir::PassManager pm(&context);
//   pm.addPass(tessel::sharding::createImportMeshPass());
#ifndef TESSEL_PARTITIONER_SHARDING_TRANSFORMS_PASSES_H_
#define TESSEL_PARTITIONER_SHARDING_TRANSFORMS_PASSES_H_

#include <memory>

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/Pass.h"
#include "partitioner/ir/tessel/tessel_ops.h"

namespace tessel::sharding {

#define GEN_PASS_DECL
#include "partitioner/sharding/transforms/passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "partitioner/sharding/transforms/passes.h.inc"

// Registers the passes above and the dialects their input uses (upstream `mesh`), so that a
// driver such as tessel-opt can parse that input: the one call a driver needs.
void registerShardingPassesAndDialects(mlir::DialectRegistry& registry);

}  // namespace tessel::sharding

#endif  // TESSEL_PARTITIONER_SHARDING_TRANSFORMS_PASSES_H_
