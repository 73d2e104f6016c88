// Rules of hlo's shape ops: broadcast_in_dim, transpose, slice, pad, concatenate, reverse,
// dynamic_slice and dynamic_update_slice. (reshape has its own file.)
//
// Ops that cut or extend a dimension (slice, pad) keep one factor across it, of the larger
// extent, as a permutation factor: splitting it is possible, but shards must trade halos.
#include <algorithm>

#include "llvm/ADT/STLExtras.h"
#include "mlir/IR/Matchers.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/rules/rule_models.h"

namespace tessel::rules {
namespace {

ShardingRuleOrNone broadcastInDimRule(hlo::BroadcastInDimOp op, const ShardingRuleOptions&) {
  OpShardingRuleBuilder builder(op);
  llvm::ArrayRef<int64_t> operandShape = builder.getOperandShape(0);
  llvm::ArrayRef<int64_t> resultShape = builder.getResultShape(0);
  llvm::ArrayRef<int64_t> dims = op.getBroadcastDimensions();
  llvm::SmallVector<int64_t> expanded;  // operand dims of size 1 that are repeated
  for (auto [resultDim, size] : llvm::enumerate(resultShape)) {
    const int64_t* operandDim = llvm::find(dims, static_cast<int64_t>(resultDim));
    int64_t mapped = kNoDim;
    if (operandDim != dims.end()) {
      int64_t dim = operandDim - dims.begin();
      if (operandShape[dim] == size) {
        mapped = dim;
      } else {
        expanded.push_back(dim);
      }
    }
    builder.addFactor({mapped}, {static_cast<int64_t>(resultDim)}, size);
  }
  // A size-1 operand dim that is broadcast has no counterpart in the result.
  for (int64_t dim : expanded) builder.addOperandFactor(0, dim, 1);
  return builder.build();
}

// What broadcastInDimRule reads besides the types.
void keyBroadcastInDim(hlo::BroadcastInDimOp op, llvm::SmallVectorImpl<const void*>& key) {
  key.push_back(op.getBroadcastDimensionsAttr().getAsOpaquePointer());
}

ShardingRuleOrNone transposeRule(hlo::TransposeOp op, const ShardingRuleOptions&) {
  OpShardingRuleBuilder builder(op);
  for (auto [resultDim, operandDim] : llvm::enumerate(op.getPermutation())) {
    builder.addFactor({operandDim}, {static_cast<int64_t>(resultDim)},
                      builder.getResultShape(0)[resultDim]);
  }
  return builder.build();
}

// What transposeRule reads besides the types.
void keyTranspose(hlo::TransposeOp op, llvm::SmallVectorImpl<const void*>& key) {
  key.push_back(op.getPermutationAttr().getAsOpaquePointer());
}

// One factor per dimension shared by operand 0 and the result: pass-through where `changed`
// is false for the dimension, else a permutation factor of the larger extent, blocked in
// conservative mode.
OpShardingRule windowedPerDimRule(mlir::Operation* op, llvm::function_ref<bool(int64_t)> changed,
                                  const ShardingRuleOptions& options) {
  OpShardingRuleBuilder builder(op);
  llvm::ArrayRef<int64_t> operandShape = builder.getOperandShape(0);
  llvm::ArrayRef<int64_t> resultShape = builder.getResultShape(0);
  for (int64_t dim = 0, rank = resultShape.size(); dim < rank; ++dim) {
    if (!changed(dim)) {
      builder.addFactor({dim}, {dim}, resultShape[dim]);
    } else {
      builder.addFactor({dim}, {dim}, std::max(operandShape[dim], resultShape[dim]),
                        FactorKind::kPermutation, /*blocked=*/options.conservative);
    }
  }
  return builder.build();
}

ShardingRuleOrNone sliceRule(hlo::SliceOp op, const ShardingRuleOptions& options) {
  llvm::ArrayRef<int64_t> shape = op.getOperand().getType().getShape();
  return windowedPerDimRule(
      op,
      [&](int64_t dim) {
        return op.getStartIndices()[dim] != 0 || op.getLimitIndices()[dim] != shape[dim] ||
               op.getStrides()[dim] != 1;
      },
      options);
}

ShardingRuleOrNone padRule(hlo::PadOp op, const ShardingRuleOptions& options) {
  return windowedPerDimRule(
      op,
      [&](int64_t dim) {
        return op.getEdgePaddingLow()[dim] != 0 || op.getEdgePaddingHigh()[dim] != 0 ||
               op.getInteriorPadding()[dim] != 0;
      },
      options);
}

ShardingRuleOrNone reverseRule(hlo::ReverseOp op, const ShardingRuleOptions& options) {
  llvm::ArrayRef<int64_t> reversed = op.getDimensions();
  // Reversing is a permutation in every mode: the shards only trade places.
  return windowedPerDimRule(
      op, [&](int64_t dim) { return llvm::is_contained(reversed, dim); },
      ShardingRuleOptions{/*conservative=*/false});
}

// True when the concatenated operands are pieces of one tensor that a sharding can be moved
// across with collective permutes: every operand is a slice, or every operand is one value x
// or a slice of x (a rotation or wrap-around of x).
bool concatenatesSlices(hlo::ConcatenateOp op) {
  auto sliceSource = [](mlir::Value value) -> mlir::Value {
    auto slice = value.getDefiningOp<hlo::SliceOp>();
    return slice ? slice.getOperand() : mlir::Value();
  };
  mlir::OperandRange inputs = op.getInputs();
  if (llvm::all_of(inputs, [&](mlir::Value v) { return static_cast<bool>(sliceSource(v)); })) {
    return true;
  }
  auto allFrom = [&](mlir::Value x) {
    return x && llvm::all_of(inputs, [&](mlir::Value v) { return v == x || sliceSource(v) == x; });
  };
  return allFrom(inputs.front()) || allFrom(sliceSource(inputs.front()));
}

ShardingRuleOrNone concatenateRule(hlo::ConcatenateOp op, const ShardingRuleOptions& options) {
  int64_t numInputs = op.getInputs().size();
  if (numInputs == 1) return pointwiseRule(op, options);
  OpShardingRuleBuilder builder(op);
  llvm::ArrayRef<int64_t> resultShape = builder.getResultShape(0);
  int64_t concatDim = op.getDimension();
  bool permutation = concatenatesSlices(op);
  for (int64_t dim = 0, rank = resultShape.size(); dim < rank; ++dim) {
    if (dim != concatDim) {
      builder.addFactor(llvm::SmallVector<int64_t>(numInputs, dim), {dim}, resultShape[dim]);
    } else if (permutation) {
      builder.addFactor(llvm::SmallVector<int64_t>(numInputs, dim), {dim}, resultShape[dim],
                        FactorKind::kPermutation);
    } else {
      // Each piece lands at a different offset: keep the dimension whole everywhere.
      for (int64_t input = 0; input < numInputs; ++input) {
        builder.addOperandFactor(input, dim, builder.getOperandShape(input)[dim],
                                 FactorKind::kNeedReplication);
      }
      builder.addResultFactor(0, dim, resultShape[dim], FactorKind::kNeedReplication);
    }
  }
  return builder.build();
}

ShardingRuleOrNone dynamicSliceRule(hlo::DynamicSliceOp op, const ShardingRuleOptions&) {
  OpShardingRuleBuilder builder(op);
  llvm::ArrayRef<int64_t> operandShape = builder.getOperandShape(0);
  for (auto [dim, size] : llvm::enumerate(op.getSliceSizes())) {
    int64_t d = dim;
    if (size == operandShape[d]) {
      builder.addFactor({d}, {d}, size);
    } else {
      // Where the slice starts is known only at run time.
      builder.addFactor({d}, {d}, operandShape[d], FactorKind::kNeedReplication,
                        /*blocked=*/true);
    }
  }
  return builder.build();
}

ShardingRuleOrNone dynamicUpdateSliceRule(hlo::DynamicUpdateSliceOp op,
                                          const ShardingRuleOptions&) {
  OpShardingRuleBuilder builder(op);
  llvm::ArrayRef<int64_t> operandShape = builder.getOperandShape(0);
  llvm::ArrayRef<int64_t> updateShape = builder.getOperandShape(1);
  // With constant start indices every shard knows which part of the update it receives.
  bool constantStarts = llvm::all_of(op.getStartIndices(), [](mlir::Value index) {
    return mlir::matchPattern(index, mlir::m_Constant());
  });
  for (int64_t dim = 0, rank = operandShape.size(); dim < rank; ++dim) {
    if (updateShape[dim] == operandShape[dim]) {
      builder.addFactor({dim, dim}, {dim}, operandShape[dim]);
      continue;
    }
    builder.addFactor({dim}, {dim}, operandShape[dim]);
    builder.addOperandFactor(1, dim, updateShape[dim],
                             constantStarts ? FactorKind::kPassThrough
                                            : FactorKind::kNeedReplication);
  }
  return builder.build();
}

}  // namespace

void registerHloShapeRules(mlir::MLIRContext* context) {
  attachRule<hlo::BroadcastInDimOp, broadcastInDimRule, keyBroadcastInDim>(context);
  attachRule<hlo::TransposeOp, transposeRule, keyTranspose>(context);
  attachRule<hlo::SliceOp, sliceRule>(context);
  attachRule<hlo::PadOp, padRule>(context);
  attachRule<hlo::ConcatenateOp, concatenateRule>(context);
  attachRule<hlo::ReverseOp, reverseRule>(context);
  attachRule<hlo::DynamicSliceOp, dynamicSliceRule>(context);
  attachRule<hlo::DynamicUpdateSliceOp, dynamicUpdateSliceRule>(context);
}

}  // namespace tessel::rules
