// The key of a rule that depends on an op's name, types and a few attributes alone (see
// rule_key.h).
#include "partitioner/rules/rule_key.h"

#include "partitioner/rules/sharding_rule_interface.h"

namespace tessel::rules {

bool ruleKeyOf(mlir::Operation* op, RuleKey& key) {
  auto withRule = llvm::dyn_cast<ShardingRuleOpInterface>(op);
  if (!withRule) return false;
  key.clear();
  key.push_back(op->getName().getAsOpaquePointer());
  key.push_back(reinterpret_cast<const void*>(static_cast<uintptr_t>(op->getNumOperands())));
  for (mlir::Type type : op->getOperandTypes()) key.push_back(type.getAsOpaquePointer());
  for (mlir::Type type : op->getResultTypes()) key.push_back(type.getAsOpaquePointer());
  // The model's part follows the types, whose number the op's name and operand count fix.
  return withRule.appendRuleKey(key);
}

}  // namespace tessel::rules
