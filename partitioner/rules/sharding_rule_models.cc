// registerShardingRuleModels: one dialect extension per dialect whose ops get rules.
#include "partitioner/rules/sharding_rule_models.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/ir/tessel/tessel_ops.h"
#include "partitioner/rules/rule_models.h"
#include "partitioner/rules/sharding_rule_interface.h"

namespace tessel::rules {

void registerShardingRuleModels(mlir::DialectRegistry& registry) {
  registry.addExtension(+[](mlir::MLIRContext* context, hlo::HloDialect*) {
    registerHloElementwiseRules(context);
    registerHloShapeRules(context);
    registerHloReshapeRules(context);
    registerHloReductionRules(context);
    registerHloLinalgRules(context);
    registerHloIndexingRules(context);
    registerHloControlRules(context);
  });
  registry.addExtension(+[](mlir::MLIRContext* context, ir::TesselDialect*) {
    registerTesselRules(context);
  });
  registry.addExtension(+[](mlir::MLIRContext* context, mlir::arith::ArithDialect* dialect) {
    registerElementwiseTraitRules(context, dialect);
  });
  registry.addExtension(+[](mlir::MLIRContext* context, mlir::math::MathDialect* dialect) {
    registerElementwiseTraitRules(context, dialect);
  });
  registry.addExtension(+[](mlir::MLIRContext* context, mlir::linalg::LinalgDialect*) {
    registerLinalgStructuredRules(context);
  });
}

void ensureShardingRuleModels(mlir::MLIRContext* context) {
  std::optional<mlir::RegisteredOperationName> add =
      mlir::RegisteredOperationName::lookup(hlo::AddOp::getOperationName(), context);
  if (add && add->hasInterface<ShardingRuleOpInterface>()) return;
  mlir::DialectRegistry registry;
  registerShardingRuleModels(registry);
  context->appendDialectRegistry(registry);
}

}  // namespace tessel::rules
