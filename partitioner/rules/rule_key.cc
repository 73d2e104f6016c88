// The key of a rule that depends on an op's name, types and a few attributes alone (see
// rule_key.h).
#include "partitioner/rules/rule_key.h"

#include <cstdint>

#include "partitioner/rules/sharding_rule_interface.h"

namespace tessel::rules {

bool ruleKeyOf(mlir::Operation* op, RuleKey& key) {
  auto withRule = llvm::dyn_cast<ShardingRuleOpInterface>(op);
  if (!withRule) return false;
  key.clear();
  key.push_back(op->getName().getAsOpaquePointer());
  // The model first, so that ops it does not key cost no more. Its part has the same
  // length for every op of one name, so the types that follow cannot be mistaken for it.
  if (!withRule.appendRuleKey(key)) return false;
  key.push_back(reinterpret_cast<const void*>(static_cast<uintptr_t>(op->getNumOperands())));
  for (mlir::Type type : op->getOperandTypes()) key.push_back(type.getAsOpaquePointer());
  for (mlir::Type type : op->getResultTypes()) key.push_back(type.getAsOpaquePointer());
  return true;
}

}  // namespace tessel::rules
