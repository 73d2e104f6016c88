// OpShardingRuleBuilder: writes an OpShardingRule one factor at a time.
//
// The builder knows the shape of every operand and result. Each addFactor call names, per
// operand and per result, the dimension the new factor maps to (or kNoDim) and appends the
// factor to that dimension's list, so a dimension made of several factors gets them in the
// order they were added: add the major factor first.
//
//   // %r = hlo.add %a, %b : tensor<4x8xf32>
//   OpShardingRule rule = OpShardingRuleBuilder(op).addPointwise({4, 8}).build();
//   // ([i, j], [i, j])->([i, j]) {i=4, j=8}
//
//   // %r = hlo.reshape %x : (tensor<6xf32>) -> tensor<2x3xf32>
//   OpShardingRuleBuilder builder(op);
//   builder.addFactor({0}, {0}, 2).addFactor({0}, {1}, 3);
//   // ([ij])->([i, j]) {i=2, j=3}
#ifndef TESSEL_PARTITIONER_RULES_OP_SHARDING_RULE_BUILDER_H_
#define TESSEL_PARTITIONER_RULES_OP_SHARDING_RULE_BUILDER_H_

#include <cstdint>

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "mlir/IR/Operation.h"
#include "partitioner/rules/op_sharding_rule.h"

namespace tessel::rules {

// In a list of dimensions, one per operand or result: the factor does not map to that tensor.
inline constexpr int64_t kNoDim = -1;

class OpShardingRuleBuilder {
 public:
  using Shape = llvm::SmallVector<int64_t, 4>;

  // REQUIRES: every shape is static.
  OpShardingRuleBuilder(llvm::ArrayRef<Shape> operandShapes,
                        llvm::ArrayRef<Shape> resultShapes);
  // Takes the shapes of the op's operands and results; a value that is not a ranked shaped
  // type counts as rank 0. REQUIRES: every ranked shaped value is static.
  explicit OpShardingRuleBuilder(mlir::Operation* op);

  // Adds a factor of `size` mapped to dimension operandDims[i] of operand i and
  // resultDims[j] of result j (kNoDim: not mapped). Lists shorter than the number of operands
  // or results leave the rest unmapped. REQUIRES: every named dimension exists.
  OpShardingRuleBuilder& addFactor(llvm::ArrayRef<int64_t> operandDims,
                                   llvm::ArrayRef<int64_t> resultDims, int64_t size,
                                   FactorKind kind = FactorKind::kPassThrough,
                                   bool blocked = false);

  // Marks the factor added last as movable (Factor::movable).
  OpShardingRuleBuilder& markLastFactorMovable();

  // Adds a factor that maps to dimension `dim` of operand `operand` only.
  OpShardingRuleBuilder& addOperandFactor(int64_t operand, int64_t dim, int64_t size,
                                          FactorKind kind = FactorKind::kPassThrough,
                                          bool blocked = false);
  // Adds a factor that maps to dimension `dim` of result `result` only.
  OpShardingRuleBuilder& addResultFactor(int64_t result, int64_t dim, int64_t size,
                                         FactorKind kind = FactorKind::kPassThrough,
                                         bool blocked = false);

  // One pass-through factor per dimension of `shape`, mapped to that dimension of every
  // operand and result of the same rank. Values of another rank (rank-0 bounds of a clamp,
  // a rank-0 select predicate) get none.
  OpShardingRuleBuilder& addPointwise(llvm::ArrayRef<int64_t> shape);

  // The index the next added factor will get.
  int64_t getNextFactor() const { return factors_.size(); }
  llvm::ArrayRef<int64_t> getOperandShape(int64_t operand) const {
    return operandShapes_[operand];
  }
  llvm::ArrayRef<int64_t> getResultShape(int64_t result) const {
    return resultShapes_[result];
  }
  int64_t getNumOperands() const { return operandShapes_.size(); }
  int64_t getNumResults() const { return resultShapes_.size(); }

  // REQUIRES: every dimension of every operand and result got at least one factor.
  // Moves the lists into the rule (a rule is built for every op, twice in a run), so the
  // builder is spent afterwards.
  OpShardingRule build();

 private:
  // Sizes the per-tensor lists from the shapes.
  void addTensors();

  // Most ops have up to three operands and one result.
  llvm::SmallVector<Shape, 3> operandShapes_;
  llvm::SmallVector<Shape, 1> resultShapes_;
  // The rule's own list types, so that build() hands them over without copying.
  llvm::SmallVector<Factor, 0> factors_;
  llvm::SmallVector<TensorFactors, 0> tensors_;  // operands, then results
};

// True when every operand and result of `op` is either not a shaped type or a shaped type
// with a static shape, so that OpShardingRuleBuilder(op) may be used.
bool hasStaticShapes(mlir::Operation* op);

}  // namespace tessel::rules

#endif  // TESSEL_PARTITIONER_RULES_OP_SHARDING_RULE_BUILDER_H_
