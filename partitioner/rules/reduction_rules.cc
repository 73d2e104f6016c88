// Rules of hlo's reductions: reduce, reduce_window and select_and_scatter.
#include <algorithm>
#include <optional>

#include "llvm/ADT/STLExtras.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/rules/rule_models.h"

namespace tessel::rules {
namespace {

// Dims of N leading operands (the inputs) all set to `dim`, the N init values unmapped.
llvm::SmallVector<int64_t> inputDims(int64_t numInputs, int64_t dim) {
  llvm::SmallVector<int64_t> dims(2 * numInputs, kNoDim);
  std::fill_n(dims.begin(), numInputs, dim);
  return dims;
}

// Kept dimensions are pass-through from inputs to results; reduced dimensions are reduction
// factors of the inputs only.
ShardingRuleOrNone reduceRule(hlo::ReduceOp op, const ShardingRuleOptions&) {
  OpShardingRuleBuilder builder(op);
  int64_t numInputs = op.getInputs().size();
  llvm::ArrayRef<int64_t> shape = builder.getOperandShape(0);
  llvm::ArrayRef<int64_t> reduced = op.getDimensions();
  int64_t resultDim = 0;
  for (int64_t dim = 0, rank = shape.size(); dim < rank; ++dim) {
    if (llvm::is_contained(reduced, dim)) {
      builder.addFactor(inputDims(numInputs, dim), {}, shape[dim], FactorKind::kReduction);
    } else {
      builder.addFactor(inputDims(numInputs, dim),
                        llvm::SmallVector<int64_t>(numInputs, resultDim++), shape[dim]);
    }
  }
  return builder.build();
}

// Whether dimension `dim` of a window walk is the identity: window 1, stride 1, no dilation,
// no padding. Absent attributes mean 1s (and 0s for padding).
bool isTrivialWindowDim(int64_t dim, llvm::ArrayRef<int64_t> windowDims,
                        std::optional<llvm::ArrayRef<int64_t>> strides,
                        std::optional<llvm::ArrayRef<int64_t>> baseDilations,
                        std::optional<llvm::ArrayRef<int64_t>> windowDilations,
                        std::optional<mlir::DenseIntElementsAttr> padding) {
  auto isOne = [&](std::optional<llvm::ArrayRef<int64_t>> list) {
    return !list || (*list)[dim] == 1;
  };
  if (windowDims[dim] != 1 || !isOne(strides) || !isOne(baseDilations) ||
      !isOne(windowDilations)) {
    return false;
  }
  if (!padding) return true;
  auto values = padding->getValues<int64_t>();
  return values[2 * dim] == 0 && values[2 * dim + 1] == 0;
}

// One factor per dimension from inputs to results: pass-through where the window is the
// identity, else a permutation factor (shards need their neighbours' halos).
ShardingRuleOrNone reduceWindowRule(hlo::ReduceWindowOp op, const ShardingRuleOptions&) {
  OpShardingRuleBuilder builder(op);
  int64_t numInputs = op.getInputs().size();
  llvm::ArrayRef<int64_t> inShape = builder.getOperandShape(0);
  llvm::ArrayRef<int64_t> outShape = builder.getResultShape(0);
  for (int64_t dim = 0, rank = inShape.size(); dim < rank; ++dim) {
    llvm::SmallVector<int64_t> results(numInputs, dim);
    if (isTrivialWindowDim(dim, op.getWindowDimensions(), op.getWindowStrides(),
                           op.getBaseDilations(), op.getWindowDilations(), op.getPadding())) {
      builder.addFactor(inputDims(numInputs, dim), results, outShape[dim]);
    } else {
      builder.addFactor(inputDims(numInputs, dim), results,
                        std::max(inShape[dim], outShape[dim]), FactorKind::kPermutation);
    }
  }
  return builder.build();
}

// Like reduce_window between operand and result; where the window is not the identity, the
// source (one element per window) gets a need-replication factor of its own.
ShardingRuleOrNone selectAndScatterRule(hlo::SelectAndScatterOp op, const ShardingRuleOptions&) {
  OpShardingRuleBuilder builder(op);
  llvm::ArrayRef<int64_t> shape = builder.getOperandShape(0);
  llvm::ArrayRef<int64_t> sourceShape = builder.getOperandShape(1);
  for (int64_t dim = 0, rank = shape.size(); dim < rank; ++dim) {
    if (isTrivialWindowDim(dim, op.getWindowDimensions(), op.getWindowStrides(), std::nullopt,
                           std::nullopt, op.getPadding())) {
      builder.addFactor({dim, dim}, {dim}, shape[dim]);
    } else {
      builder.addFactor({dim, kNoDim}, {dim}, shape[dim], FactorKind::kPermutation);
      builder.addOperandFactor(1, dim, sourceShape[dim], FactorKind::kNeedReplication);
    }
  }
  return builder.build();
}

}  // namespace

void registerHloReductionRules(mlir::MLIRContext* context) {
  attachRule<hlo::ReduceOp, reduceRule>(context);
  attachRule<hlo::ReduceWindowOp, reduceWindowRule>(context);
  attachRule<hlo::SelectAndScatterOp, selectAndScatterRule>(context);
}

}  // namespace tessel::rules
