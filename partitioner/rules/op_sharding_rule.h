// OpShardingRule: an op's iteration space as factors, and how every tensor dimension of the op
// is made of those factors. Propagation projects dimension shardings onto factors and back;
// the partitioner reads the factor kinds to decide which collectives an op needs.
//
// A rule for `C[i, j] = sum_k A[i, k] * B[k, j]` with A: 8x8, B: 8x16:
//
//   OpShardingRule rule = OpShardingRuleBuilder({{8, 8}, {8, 16}}, {{8, 16}})
//       .addFactor({0, kNoDim}, {0}, 8)                                    // i
//       .addFactor({kNoDim, 1}, {1}, 16)                                   // j
//       .addFactor({1, 0}, {kNoDim}, 8, FactorKind::kReduction)            // k
//       .build();
//   rule.toString() == "([i, k], [k, j])->([i, j]) {i=8, j=16, k=8} reduction={k}"
//
// Factors are named i, j, ..., z, then z_1, z_2, ... in the order they were added. A dimension
// made of several factors lists them major to minor, written together (`[ij]`).
#ifndef TESSEL_PARTITIONER_RULES_OP_SHARDING_RULE_H_
#define TESSEL_PARTITIONER_RULES_OP_SHARDING_RULE_H_

#include <cstdint>
#include <optional>
#include <string>

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/TypeRange.h"
#include "mlir/Support/LogicalResult.h"

namespace tessel::rules {

// What sharding a factor over mesh axes costs.
enum class FactorKind : uint8_t {
  // Every tensor that has the factor may be split along it alike; no communication.
  kPassThrough,
  // The factor is summed over (a contracting or reduced dimension): it appears in operands
  // only, and splitting it leaves each result partial, to be all-reduced (or reduce-scattered,
  // or kept unreduced).
  kReduction,
  // Splitting the factor is not supported: the tensors must be replicated along it (the sorted
  // dimension, the index vector of a gather).
  kNeedReplication,
  // Splitting the factor moves data between shards: the partitioner exchanges halos or
  // permutes (windows of a convolution, padded or sliced dimensions, reversed dimensions).
  kPermutation,
};

// The name used in the textual form: "pass_through", "reduction", ...
llvm::StringRef stringifyFactorKind(FactorKind kind);

struct Factor {
  // Extent of the factor in the op's iteration space. Dimensions made only of pass-through
  // and reduction factors have exactly the product of their factor sizes; see
  // OpShardingRule::isExactDim for the others.
  int64_t size = 1;
  FactorKind kind = FactorKind::kPassThrough;
  // Propagation must not move shardings along this factor (it may still keep them); used
  // where splitting is possible but rarely profitable, e.g. dynamic_slice's sliced dims.
  bool blocked = false;
  // For a need-replication factor: the partitioner can keep a split of it by moving the
  // split to another factor and back (a sort's sorted dimension, with all_to_alls), so
  // propagation carries shardings along it as along a pass-through factor.
  bool movable = false;

  bool operator==(const Factor& other) const {
    return size == other.size && kind == other.kind && blocked == other.blocked &&
           movable == other.movable;
  }
};

// The factors of one tensor dimension, major to minor, as indices into the rule's factors.
using DimFactors = llvm::SmallVector<int64_t, 2>;
// The factors of each dimension of one tensor; empty for a rank-0 or non-tensor value.
using TensorFactors = llvm::SmallVector<DimFactors, 4>;

// One place where a factor appears.
struct FactorUse {
  bool isResult;      // result `tensor` when true, operand `tensor` otherwise
  int64_t tensor;
  int64_t dim;
  int64_t position;   // 0 = major-most factor of that dimension
};

class OpShardingRule {
 public:
  OpShardingRule() = default;
  OpShardingRule(llvm::SmallVector<Factor> factors, llvm::SmallVector<TensorFactors> operands,
                 llvm::SmallVector<TensorFactors> results)
      : factors_(std::move(factors)), numOperands_(operands.size()) {
    tensors_.reserve(operands.size() + results.size());
    for (TensorFactors& tensor : llvm::concat<TensorFactors>(operands, results)) {
      tensors_.push_back(std::move(tensor));
    }
  }

  int64_t getNumFactors() const { return factors_.size(); }
  llvm::ArrayRef<Factor> getFactors() const { return factors_; }
  const Factor& getFactor(int64_t factor) const { return factors_[factor]; }
  int64_t getNumOperands() const { return numOperands_; }
  int64_t getNumResults() const { return tensors_.size() - numOperands_; }
  llvm::ArrayRef<TensorFactors> getOperands() const {
    return llvm::ArrayRef(tensors_).take_front(numOperands_);
  }
  llvm::ArrayRef<TensorFactors> getResults() const {
    return llvm::ArrayRef(tensors_).drop_front(numOperands_);
  }
  const TensorFactors& getOperand(int64_t i) const { return tensors_[i]; }
  const TensorFactors& getResult(int64_t i) const { return tensors_[numOperands_ + i]; }

  // Every place `factor` appears, operands first, in tensor and dimension order.
  llvm::SmallVector<FactorUse> getUses(int64_t factor) const;

  // True when the factor appears in some result. A reduction factor never does.
  bool isInResults(int64_t factor) const;
  // True when the factor appears in some operand.
  bool isInOperands(int64_t factor) const;
  // The factors that appear in some operand (result): one pass over the rule, for loops
  // over the factors that would otherwise call isInOperands (isInResults) for each.
  llvm::SmallBitVector operandFactors() const;
  llvm::SmallBitVector resultFactors() const;

  // Whether a dimension of size `dimSize` made of `dimFactors` must have exactly the product
  // of their sizes. It need not when one of its factors is a permutation factor (a windowed
  // dimension: a convolution's input is covered by windows that may overlap or leave gaps)
  // or when its only factor is a need-replication factor (a dimension that is never split,
  // shared with a dimension of another size, e.g. a sliced dimension and its slice).
  bool isExactDim(const DimFactors& dimFactors) const;

  // Checks the rule against the op's operand and result types: one tensor mapping per
  // value, one factor list per dimension of a ranked shaped value (none for other values),
  // at least one factor per dimension, valid factor indices, no factor twice in one tensor,
  // no negative factor size, exact dimensions (isExactDim) whose size is the product of their
  // factors, and no reduction factor in a result. Returns the first problem, or nullopt.
  std::optional<std::string> findMismatch(mlir::TypeRange operandTypes,
                                          mlir::TypeRange resultTypes) const;
  // findMismatch, reported through `emitError` as
  // "sharding rule does not fit the op: <problem>".
  mlir::LogicalResult verify(mlir::TypeRange operandTypes, mlir::TypeRange resultTypes,
                             llvm::function_ref<mlir::InFlightDiagnostic()> emitError) const;

  // The textual form, e.g. `([i, k], [k, j])->([i, j]) {i=8, j=16, k=8} reduction={k}`.
  // Kind lists (`reduction`, `need_replication`, `permutation`, `blocked`) appear only when
  // not empty.
  std::string toString() const;

  // Parses the textual form written by toString; spaces between tokens do not matter. On
  // malformed text, fails and stores what is wrong in `*error` (when not null).
  static mlir::FailureOr<OpShardingRule> parse(llvm::StringRef text, std::string* error);

  // The name of factor `index` in the textual form: i, j, ..., z, z_1, z_2, ...
  static std::string factorName(int64_t index);

  bool operator==(const OpShardingRule& other) const {
    return factors_ == other.factors_ && numOperands_ == other.numOperands_ &&
           tensors_ == other.tensors_;
  }
  bool operator!=(const OpShardingRule& other) const { return !(*this == other); }

 private:
  // The builder's lists have the rule's types and move in without a copy.
  friend class OpShardingRuleBuilder;
  struct TakeLists {};
  OpShardingRule(TakeLists, llvm::SmallVector<Factor, 0>&& factors,
                 llvm::SmallVector<TensorFactors, 0>&& tensors, int64_t numOperands)
      : factors_(std::move(factors)), tensors_(std::move(tensors)), numOperands_(numOperands) {}

  // No inline storage: an op's tensors nearly always outnumber what would fit inline, and
  // inline storage made a rule about 380 bytes, moved element by element. A propagation
  // graph holds one rule per op, so this is memory per instruction; on the heap, a rule
  // is 40 bytes and moves in constant time. Operands and results share one list (operands
  // first), so a rule costs two allocations rather than three; a rule is built for every
  // op, twice in a run.
  llvm::SmallVector<Factor, 0> factors_;
  llvm::SmallVector<TensorFactors, 0> tensors_;
  int64_t numOperands_ = 0;
};

// A hash of the whole rule, the same for rules that compare equal: lets a propagation graph
// keep one copy of each distinct rule for the many ops that share it.
llvm::hash_code hash_value(const OpShardingRule& rule);

}  // namespace tessel::rules

#endif  // TESSEL_PARTITIONER_RULES_OP_SHARDING_RULE_H_
