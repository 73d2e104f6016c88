// ShardingRuleOpInterface: how an op's operands and results share their dimensions, for
// propagation and partitioning. Ops get it through external models (sharding_rule_models.h), so
// ops of any dialect can have rules without Tessel's dialects knowing about them.
#ifndef TESSEL_PARTITIONER_RULES_SHARDING_RULE_INTERFACE_TD
#define TESSEL_PARTITIONER_RULES_SHARDING_RULE_INTERFACE_TD

include "mlir/IR/OpBase.td"

def ShardingRuleOpInterface : OpInterface<"ShardingRuleOpInterface"> {
  let description = [{
    An op's sharding rule: its iteration space as factors, and for every operand and result
    dimension the factors (major to minor) whose product is its size. Ops for which a factor
    rule does not fit (control flow, ops with no operands, opaque calls) answer with a
    `NoShardingRule` that says how propagation treats them instead.
  }];
  let cppNamespace = "::tessel::rules";
  let methods = [
    InterfaceMethod<[{
        Returns the op's OpShardingRule, or a NoShardingRule with the treatment propagation
        should give the op and a reason. REQUIRES: the op verified.
      }],
      "::tessel::rules::ShardingRuleOrNone", "getShardingRule",
      (ins "const ::tessel::rules::ShardingRuleOptions&":$options)>,
    InterfaceMethod<[{
        When the rule depends on nothing but the op's name, its operand and result types and
        the attributes it reads, appends the identities of those attributes to `key` and
        returns true: ops alike in all of them then share one rule, which propagation and
        partitioning make once (ruleKeyOf). Returns false for a rule that reads more (regions,
        the ops that produce the operands, discardable attributes), and by default.
      }],
      "bool", "appendRuleKey", (ins "::llvm::SmallVectorImpl<const void*>&":$key), [{}],
      [{ return false; }]>,
  ];
}

#endif  // TESSEL_PARTITIONER_RULES_SHARDING_RULE_INTERFACE_TD
