// registerAllDialects and registerAllPasses: the registration calls of every layer, in one
// place so that a new pass or dialect reaches every driver and embedder at once.
#include "partitioner/registration.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Mesh/IR/MeshDialect.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/ir/tessel/tessel_ops.h"
#include "partitioner/passes/passes.h"
#include "partitioner/passes/spmd_pipeline.h"
#include "partitioner/propagation/passes.h"
#include "partitioner/rules/passes.h"
#include "partitioner/rules/sharding_rule_models.h"
#include "partitioner/sharding/transforms/passes.h"
#include "partitioner/spmd/passes.h"
#include "partitioner/stablehlo/dialects.h"
#include "partitioner/stablehlo/import.h"

namespace tessel {

void registerAllDialects(mlir::DialectRegistry& registry) {
  registry.insert<mlir::func::FuncDialect, hlo::HloDialect, ir::TesselDialect>();
  registry
      .insert<mlir::arith::ArithDialect, mlir::math::MathDialect, mlir::linalg::LinalgDialect>();
  rules::registerShardingRuleModels(registry);
  stablehlo::registerStablehloDialects(registry);
  // Upstream `mesh`, which --tessel-import-mesh reads.
  registry.insert<mlir::mesh::MeshDialect>();
}

void registerAllPasses() {
  static const bool registered = [] {
    rules::registerRulesPasses();
    sharding::registerTesselShardingPasses();
    propagation::registerPropagationPasses();
    spmd::registerSpmdPasses();
    passes::registerOptimizationPasses();
    stablehlo::registerImportStablehloPass();
    passes::registerSpmdPipeline();
    return true;
  }();
  (void)registered;
}

}  // namespace tessel
