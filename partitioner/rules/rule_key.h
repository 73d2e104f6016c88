// Rules made once per kind of op. Most ops' rules follow from their name, their operand and
// result types and a few attributes (ShardingRuleOpInterface::appendRuleKey), and a program
// repeats a few such kinds of op many times: propagation and partitioning key those rules by
// what they read, and make each once, where building a rule costs thousands of instructions
// per op.
#ifndef TESSEL_PARTITIONER_RULES_RULE_KEY_H_
#define TESSEL_PARTITIONER_RULES_RULE_KEY_H_

#include <cstdint>
#include <deque>
#include <utility>

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/SmallVector.h"
#include "mlir/IR/Operation.h"

namespace tessel::rules {

// An op's name, its number of operands, the identities of its operand and result types and
// of the attributes its rule reads.
using RuleKey = llvm::SmallVector<const void*, 8>;

// Fills `key` and returns true when the rule of `op` depends on what the key holds alone;
// returns false (and leaves `key` unspecified) for every other op.
bool ruleKeyOf(mlir::Operation* op, RuleKey& key);

// Values by RuleKey, at stable addresses.
template <typename T>
class RulesByKey {
 public:
  const T* find(const RuleKey& key) const {
    auto it = byHash_.find(hashOf(key));
    if (it == byHash_.end()) return nullptr;
    for (uint32_t index : it->second) {
      if (entries_[index].key == key) return &entries_[index].value;
    }
    return nullptr;
  }
  // REQUIRES: find(key) is null.
  const T& insert(const RuleKey& key, T value) {
    byHash_[hashOf(key)].push_back(entries_.size());
    entries_.push_back({key, std::move(value)});
    return entries_.back().value;
  }

 private:
  static unsigned hashOf(const RuleKey& key) {
    return static_cast<unsigned>(llvm::hash_combine_range(key.begin(), key.end()));
  }
  struct Entry {
    RuleKey key;
    T value;
  };
  std::deque<Entry> entries_;
  llvm::DenseMap<unsigned, llvm::SmallVector<uint32_t, 1>> byHash_;
};

}  // namespace tessel::rules

#endif  // TESSEL_PARTITIONER_RULES_RULE_KEY_H_
