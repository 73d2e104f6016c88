// ShardingRuleOpInterface: generated definitions and the lookup that covers ops without it.
#include "partitioner/rules/sharding_rule_interface.h"

#include "partitioner/rules/sharding_rule_interface.cpp.inc"

namespace tessel::rules {

llvm::StringRef stringifyNoRuleTreatment(NoRuleTreatment treatment) {
  switch (treatment) {
    case NoRuleTreatment::kSourceOp:
      return "source op";
    case NoRuleTreatment::kDataFlowEdges:
      return "data-flow edges";
    case NoRuleTreatment::kOpaque:
      return "opaque";
  }
  return "unknown";
}

ShardingRuleOrNone getShardingRuleOf(mlir::Operation* op, const ShardingRuleOptions& options) {
  if (auto withRule = llvm::dyn_cast<ShardingRuleOpInterface>(op)) {
    return withRule.getShardingRule(options);
  }
  return NoShardingRule{NoRuleTreatment::kOpaque,
                        "'" + op->getName().getStringRef().str() + "' has no sharding rule model"};
}

}  // namespace tessel::rules
