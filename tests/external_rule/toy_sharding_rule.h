// How a compiler gives its own op a Tessel sharding rule: an external model of
// ShardingRuleOpInterface, attached when the op's dialect loads. Neither Tessel nor the toy
// dialect names the other; only this file knows both (docs/embedding.md).
#ifndef TESSEL_TESTS_EXTERNAL_RULE_TOY_SHARDING_RULE_H_
#define TESSEL_TESTS_EXTERNAL_RULE_TOY_SHARDING_RULE_H_

#include "mlir/IR/DialectRegistry.h"

namespace toy {

// Adds to `registry` the extension that attaches toy.matmul's rule once the toy dialect is
// loaded into a context.
void registerToyShardingRules(mlir::DialectRegistry& registry);

}  // namespace toy

#endif  // TESSEL_TESTS_EXTERNAL_RULE_TOY_SHARDING_RULE_H_
