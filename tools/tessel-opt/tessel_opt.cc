// tessel-opt: an mlir-opt style driver with Tessel's dialects and passes registered.
// Every stage of the pipeline can be run alone from here and tested with lit.

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/ir/tessel/tessel_ops.h"
#include "partitioner/passes/passes.h"
#include "partitioner/propagation/passes.h"
#include "partitioner/rules/passes.h"
#include "partitioner/rules/sharding_rule_models.h"
#include "partitioner/sharding/transforms/passes.h"
#include "partitioner/spmd/passes.h"
#include "support/guarded_main.h"

namespace {

int OptMain(int argc, char** argv) {
  mlir::registerTransformsPasses();
  tessel::rules::registerRulesPasses();
  tessel::propagation::registerPropagationPasses();
  tessel::spmd::registerSpmdPasses();
  tessel::passes::registerOptimizationPasses();
  mlir::DialectRegistry registry;
  registry.insert<mlir::func::FuncDialect, tessel::hlo::HloDialect, tessel::ir::TesselDialect>();
  // Upstream dialects whose ops have sharding rules through external models.
  registry.insert<mlir::arith::ArithDialect, mlir::math::MathDialect,
                  mlir::linalg::LinalgDialect>();
  tessel::rules::registerShardingRuleModels(registry);
  tessel::sharding::registerShardingPassesAndDialects(registry);
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "Tessel optimizer driver\n", registry));
}

}  // namespace

int main(int argc, char** argv) {
  return tessel::RunGuarded("tessel-opt", [&] { return OptMain(argc, argv); });
}
