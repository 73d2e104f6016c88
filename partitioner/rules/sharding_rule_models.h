// Registers the sharding rules of every op Tessel knows: all `hlo` and `tessel` ops, the
// elementwise ops of `arith` and `math`, and `linalg.generic` / `linalg.matmul`.
//
//   mlir::DialectRegistry registry;
//   registry.insert<tessel::hlo::HloDialect, mlir::arith::ArithDialect>();
//   tessel::rules::registerShardingRuleModels(registry);
//   mlir::MLIRContext context(registry);
//
// The models are attached through dialect extensions, so they take effect when (and only if)
// their dialect is loaded; registering the rules does not load any dialect.
#ifndef TESSEL_PARTITIONER_RULES_SHARDING_RULE_MODELS_H_
#define TESSEL_PARTITIONER_RULES_SHARDING_RULE_MODELS_H_

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"

namespace tessel::rules {

void registerShardingRuleModels(mlir::DialectRegistry& registry);

// Makes sure `context` has the models, registering them if it does not. Propagation and
// partitioning call it, so that a context set up without them (any tool or test that only
// loaded the dialects) does not silently see every op as opaque.
void ensureShardingRuleModels(mlir::MLIRContext* context);

}  // namespace tessel::rules

#endif  // TESSEL_PARTITIONER_RULES_SHARDING_RULE_MODELS_H_
