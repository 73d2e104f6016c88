// Rules of hlo.gather and hlo.scatter.
//
// Gather, per operand dimension: an explicit batching dimension is one pass-through factor
// with its indices batch dimension and result batch dimension; a collapsed dimension is a
// reduction factor of the operand alone (each shard gathers what it holds, zeros elsewhere,
// and the partial results are summed); an offset dimension taken whole is pass-through to its
// result dimension; a size-1 offset dimension is like a collapsed one (the result dimension
// gets its own size-1 factor); any other offset dimension needs replication and is blocked.
// Each other indices batch dimension is pass-through to its result batch dimension, and the
// index vector dimension needs replication. Scatter mirrors this from the inputs' side.
#include "llvm/ADT/STLExtras.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/ir/hlo/reducer_region.h"
#include "partitioner/rules/rule_models.h"

namespace tessel::rules {
namespace {

// The dimensions of a tensor of `rank` that are not in `excluded`, in order.
llvm::SmallVector<int64_t> dimsExcept(int64_t rank, llvm::ArrayRef<int64_t> excluded) {
  llvm::SmallVector<int64_t> dims;
  for (int64_t dim = 0; dim < rank; ++dim) {
    if (!llvm::is_contained(excluded, dim)) dims.push_back(dim);
  }
  return dims;
}

// Position of `value` in `list`. REQUIRES: it is there.
int64_t indexIn(llvm::ArrayRef<int64_t> list, int64_t value) {
  return llvm::find(list, value) - list.begin();
}

ShardingRuleOrNone gatherRule(hlo::GatherOp op, const ShardingRuleOptions&) {
  OpShardingRuleBuilder builder(op);
  hlo::GatherDimensionNumbersAttr dims = op.getDimensionNumbers();
  llvm::ArrayRef<int64_t> operandShape = builder.getOperandShape(0);
  llvm::ArrayRef<int64_t> indicesShape = builder.getOperandShape(1);
  int64_t indicesRank = indicesShape.size();
  int64_t resultRank = builder.getResultShape(0).size();
  int64_t indexVectorDim = dims.getIndexVectorDim();
  // The k-th indices batch dimension fills the k-th result dimension that is not an offset
  // dimension.
  llvm::SmallVector<int64_t> indicesBatchDims = dimsExcept(indicesRank, {indexVectorDim});
  llvm::SmallVector<int64_t> resultBatchDims = dimsExcept(resultRank, dims.getOffsetDims());
  auto resultDimOfIndicesDim = [&](int64_t indicesDim) {
    return resultBatchDims[indexIn(indicesBatchDims, indicesDim)];
  };
  llvm::SmallVector<int64_t> droppedDims(dims.getCollapsedSliceDims());
  llvm::append_range(droppedDims, dims.getOperandBatchingDims());
  llvm::SmallVector<int64_t> offsetOperandDims = dimsExcept(operandShape.size(), droppedDims);

  for (int64_t dim = 0, rank = operandShape.size(); dim < rank; ++dim) {
    int64_t size = operandShape[dim];
    if (llvm::is_contained(dims.getOperandBatchingDims(), dim)) {
      int64_t indicesDim =
          dims.getStartIndicesBatchingDims()[indexIn(dims.getOperandBatchingDims(), dim)];
      builder.addFactor({dim, indicesDim}, {resultDimOfIndicesDim(indicesDim)}, size);
    } else if (llvm::is_contained(dims.getCollapsedSliceDims(), dim)) {
      builder.addOperandFactor(0, dim, size, FactorKind::kReduction);
    } else {
      int64_t resultDim = dims.getOffsetDims()[indexIn(offsetOperandDims, dim)];
      int64_t sliceSize = op.getSliceSizes()[dim];
      if (sliceSize == size) {
        builder.addFactor({dim}, {resultDim}, size);
      } else if (sliceSize == 1) {
        builder.addOperandFactor(0, dim, size, FactorKind::kReduction);
        builder.addResultFactor(0, resultDim, 1);
      } else {
        builder.addFactor({dim}, {resultDim}, size, FactorKind::kNeedReplication,
                          /*blocked=*/true);
      }
    }
  }
  for (int64_t indicesDim : indicesBatchDims) {
    if (llvm::is_contained(dims.getStartIndicesBatchingDims(), indicesDim)) continue;
    builder.addFactor({kNoDim, indicesDim}, {resultDimOfIndicesDim(indicesDim)},
                      indicesShape[indicesDim]);
  }
  if (indexVectorDim < indicesRank) {
    builder.addOperandFactor(1, indexVectorDim, indicesShape[indexVectorDim],
                             FactorKind::kNeedReplication);
  }
  return builder.build();
}

// True when the update region combines current and update values with one associative,
// commutative op per input (add, mul, max, min, and, or, xor): partial scatters of disjoint
// update sets can then be combined with the same op.
bool isKnownReduction(mlir::Region& region, int64_t numInputs) {
  std::optional<llvm::SmallVector<mlir::Operation*>> combiners =
      hlo::getSingleOpCombiners(region, numInputs);
  return combiners && llvm::all_of(*combiners, [](mlir::Operation* combiner) {
           return llvm::isa<hlo::AddOp, hlo::MulOp, hlo::MaxOp, hlo::MinOp, hlo::AndOp,
                            hlo::OrOp, hlo::XorOp>(combiner);
         });
}

ShardingRuleOrNone scatterRule(hlo::ScatterOp op, const ShardingRuleOptions&) {
  OpShardingRuleBuilder builder(op);
  hlo::ScatterDimensionNumbersAttr dims = op.getScatterDimensionNumbers();
  int64_t numInputs = op.getInputs().size();
  int64_t indicesOperand = numInputs;
  int64_t firstUpdate = numInputs + 1;
  llvm::ArrayRef<int64_t> inputShape = builder.getOperandShape(0);
  llvm::ArrayRef<int64_t> indicesShape = builder.getOperandShape(indicesOperand);
  llvm::ArrayRef<int64_t> updateShape = builder.getOperandShape(firstUpdate);
  int64_t indicesRank = indicesShape.size();
  int64_t indexVectorDim = dims.getIndexVectorDim();
  llvm::SmallVector<int64_t> indicesBatchDims = dimsExcept(indicesRank, {indexVectorDim});
  llvm::SmallVector<int64_t> updateScatterDims =
      dimsExcept(updateShape.size(), dims.getUpdateWindowDims());
  auto updateDimOfIndicesDim = [&](int64_t indicesDim) {
    return updateScatterDims[indexIn(indicesBatchDims, indicesDim)];
  };
  llvm::SmallVector<int64_t> droppedDims(dims.getInsertedWindowDims());
  llvm::append_range(droppedDims, dims.getInputBatchingDims());
  llvm::SmallVector<int64_t> windowInputDims = dimsExcept(inputShape.size(), droppedDims);

  // Operand dims: `inputDim` for every input, `indicesDim` for the indices, `updateDim` for
  // every update.
  auto operandDims = [&](int64_t inputDim, int64_t indicesDim, int64_t updateDim) {
    llvm::SmallVector<int64_t> result(numInputs, inputDim);
    result.push_back(indicesDim);
    result.append(numInputs, updateDim);
    return result;
  };
  llvm::SmallVector<int64_t> noResults;
  for (int64_t dim = 0, rank = inputShape.size(); dim < rank; ++dim) {
    int64_t size = inputShape[dim];
    llvm::SmallVector<int64_t> resultDims(numInputs, dim);
    if (llvm::is_contained(dims.getInputBatchingDims(), dim)) {
      int64_t indicesDim =
          dims.getScatterIndicesBatchingDims()[indexIn(dims.getInputBatchingDims(), dim)];
      builder.addFactor(operandDims(dim, indicesDim, updateDimOfIndicesDim(indicesDim)),
                        resultDims, size);
    } else if (llvm::is_contained(dims.getInsertedWindowDims(), dim)) {
      // Each shard applies the updates that land in it.
      builder.addFactor(operandDims(dim, kNoDim, kNoDim), resultDims, size);
    } else {
      int64_t updateDim = dims.getUpdateWindowDims()[indexIn(windowInputDims, dim)];
      int64_t windowSize = updateShape[updateDim];
      if (windowSize == size) {
        builder.addFactor(operandDims(dim, kNoDim, updateDim), resultDims, size);
      } else if (windowSize == 1) {
        builder.addFactor(operandDims(dim, kNoDim, kNoDim), resultDims, size);
        builder.addFactor(operandDims(kNoDim, kNoDim, updateDim), noResults, 1);
      } else {
        builder.addFactor(operandDims(dim, kNoDim, updateDim), resultDims, size,
                          FactorKind::kNeedReplication, /*blocked=*/true);
      }
    }
  }
  // Splitting the updates along a batch dimension leaves each shard a partial scatter; that
  // is a reduction only when the partial results can be combined.
  FactorKind batchKind = isKnownReduction(op.getUpdateComputation(), numInputs)
                             ? FactorKind::kReduction
                             : FactorKind::kNeedReplication;
  for (int64_t indicesDim : indicesBatchDims) {
    if (llvm::is_contained(dims.getScatterIndicesBatchingDims(), indicesDim)) continue;
    builder.addFactor(operandDims(kNoDim, indicesDim, updateDimOfIndicesDim(indicesDim)),
                      noResults, indicesShape[indicesDim], batchKind);
  }
  if (indexVectorDim < indicesRank) {
    builder.addOperandFactor(indicesOperand, indexVectorDim, indicesShape[indexVectorDim],
                             FactorKind::kNeedReplication);
  }
  return builder.build();
}

}  // namespace

void registerHloIndexingRules(mlir::MLIRContext* context) {
  attachRule<hlo::GatherOp, gatherRule>(context);
  attachRule<hlo::ScatterOp, scatterRule>(context);
}

}  // namespace tessel::rules
