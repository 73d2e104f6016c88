// Rules made once per kind of op. Most ops' rules follow from their name, their operand and
// result types and a few attributes (ShardingRuleOpInterface::appendRuleKey), and a program
// repeats a few such kinds of op many times: propagation and partitioning key those rules by
// what they read, and make each once, where building a rule costs thousands of instructions
// per op.
#ifndef TESSEL_PARTITIONER_RULES_RULE_KEY_H_
#define TESSEL_PARTITIONER_RULES_RULE_KEY_H_

#include "llvm/ADT/SmallVector.h"
#include "mlir/IR/Operation.h"
#include "support/keyed_table.h"

namespace tessel::rules {

// An op's name, the identities of the attributes its rule reads, its number of operands and
// the identities of its operand and result types.
using RuleKey = llvm::SmallVector<const void*, 8>;

// Fills `key` and returns true when the rule of `op` depends on what the key holds alone;
// returns false (and leaves `key` unspecified) for every other op.
bool ruleKeyOf(mlir::Operation* op, RuleKey& key);

// Values by RuleKey, at stable addresses.
template <typename T>
using RulesByKey = KeyedTable<const void*, T>;

}  // namespace tessel::rules

#endif  // TESSEL_PARTITIONER_RULES_RULE_KEY_H_
