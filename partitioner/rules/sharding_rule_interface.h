// ShardingRuleOpInterface and what it answers: an OpShardingRule, or a NoShardingRule that
// says how propagation should treat an op that has no factor rule.
//
//   ShardingRuleOrNone answer = getShardingRuleOf(op, ShardingRuleOptions());
//   if (const auto* rule = std::get_if<OpShardingRule>(&answer)) {
//     ... project shardings onto rule->getFactors() ...
//   } else if (std::get<NoShardingRule>(answer).treatment ==
//              NoRuleTreatment::kDataFlowEdges) {
//     ... follow the op's data-flow edges ...
//   }
#ifndef TESSEL_PARTITIONER_RULES_SHARDING_RULE_INTERFACE_H_
#define TESSEL_PARTITIONER_RULES_SHARDING_RULE_INTERFACE_H_

#include <string>
#include <variant>

#include "llvm/ADT/StringRef.h"
#include "mlir/IR/OpDefinition.h"
#include "partitioner/rules/op_sharding_rule.h"

namespace tessel::rules {

// Choices that change the rules some ops get.
struct ShardingRuleOptions {
  // Conservative propagation: block the permutation factors of pad and slice, so that a
  // sharding does not travel through an op whose partitioning needs halo exchanges.
  bool conservative = false;
};

// How propagation treats an op that has no factor rule.
enum class NoRuleTreatment {
  // The op has no tensor operands to propagate from or to (constant, iota): its results take
  // the shardings their users ask for.
  kSourceOp,
  // Shardings flow along the op's data-flow edges instead (while: operand k, body argument
  // and return value k, condition argument k and result k are one value; case: result k and
  // each branch's returned value k; region terminators feed those edges; manual_computation:
  // its free axes cross through operands and results while its manual axes stop there).
  kDataFlowEdges,
  // Nothing is known about the op (custom_call without a rule, an op with dynamic shapes, an
  // op of another dialect without a model): propagation neither reads nor writes shardings
  // through it, so its operands and results keep what the user or their other users give
  // them, and the partitioner reshards at its boundary.
  kOpaque,
};

llvm::StringRef stringifyNoRuleTreatment(NoRuleTreatment treatment);

struct NoShardingRule {
  NoRuleTreatment treatment;
  // Why there is no rule, for remarks and `tessel explain`.
  std::string reason;
};

using ShardingRuleOrNone = std::variant<OpShardingRule, NoShardingRule>;

}  // namespace tessel::rules

#include "partitioner/rules/sharding_rule_interface.h.inc"

namespace tessel::rules {

// The op's answer, or an opaque NoShardingRule when the op does not implement
// ShardingRuleOpInterface.
ShardingRuleOrNone getShardingRuleOf(mlir::Operation* op, const ShardingRuleOptions& options);

}  // namespace tessel::rules

#endif  // TESSEL_PARTITIONER_RULES_SHARDING_RULE_INTERFACE_H_
