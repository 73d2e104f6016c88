// Rules of hlo's linear algebra: dot_general and convolution.
#include "llvm/ADT/STLExtras.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/rules/rule_models.h"

namespace tessel::rules {
namespace {

// Batch factors (lhs, rhs, result), then lhs-free (lhs, result), rhs-free (rhs, result) and
// contracting factors (lhs, rhs; reduction), following the result's dimension order.
ShardingRuleOrNone dotGeneralRule(hlo::DotGeneralOp op, const ShardingRuleOptions&) {
  OpShardingRuleBuilder builder(op);
  hlo::DotDimensionNumbersAttr dims = op.getDotDimensionNumbers();
  llvm::ArrayRef<int64_t> lhsShape = builder.getOperandShape(0);
  llvm::ArrayRef<int64_t> rhsShape = builder.getOperandShape(1);
  int64_t resultDim = 0;
  for (auto [lhsDim, rhsDim] : llvm::zip_equal(dims.getLhsBatch(), dims.getRhsBatch())) {
    builder.addFactor({lhsDim, rhsDim}, {resultDim++}, lhsShape[lhsDim]);
  }
  auto isFree = [](int64_t dim, llvm::ArrayRef<int64_t> batch, llvm::ArrayRef<int64_t> contract) {
    return !llvm::is_contained(batch, dim) && !llvm::is_contained(contract, dim);
  };
  for (int64_t dim = 0, rank = lhsShape.size(); dim < rank; ++dim) {
    if (isFree(dim, dims.getLhsBatch(), dims.getLhsContract())) {
      builder.addFactor({dim, kNoDim}, {resultDim++}, lhsShape[dim]);
    }
  }
  for (int64_t dim = 0, rank = rhsShape.size(); dim < rank; ++dim) {
    if (isFree(dim, dims.getRhsBatch(), dims.getRhsContract())) {
      builder.addFactor({kNoDim, dim}, {resultDim++}, rhsShape[dim]);
    }
  }
  for (auto [lhsDim, rhsDim] : llvm::zip_equal(dims.getLhsContract(), dims.getRhsContract())) {
    builder.addFactor({lhsDim, rhsDim}, {}, lhsShape[lhsDim], FactorKind::kReduction);
  }
  return builder.build();
}

// What dotGeneralRule reads besides the types.
void keyDotGeneral(hlo::DotGeneralOp op, llvm::SmallVectorImpl<const void*>& key) {
  key.push_back(op.getDotDimensionNumbersAttr().getAsOpaquePointer());
}

// Whether spatial dimension `index` of the convolution slides a window of size 1 with stride
// 1, no padding and no dilation, so that output position p reads input position p only.
bool isTrivialSpatialDim(hlo::ConvolutionOp op, int64_t index, int64_t kernelSize) {
  auto isOne = [&](std::optional<llvm::ArrayRef<int64_t>> list) {
    return !list || (*list)[index] == 1;
  };
  if (kernelSize != 1 || !isOne(op.getWindowStrides()) || !isOne(op.getLhsDilation()) ||
      !isOne(op.getRhsDilation())) {
    return false;
  }
  std::optional<mlir::DenseIntElementsAttr> padding = op.getPadding();
  if (!padding) return true;
  auto values = padding->getValues<int64_t>();
  return values[2 * index] == 0 && values[2 * index + 1] == 0;
}

// Factors in this order: batch-group (if > 1; input batch, kernel output feature, output
// feature), batch (input, output), per spatial dimension the number of windows (input,
// output; permutation unless the window is trivial) and the window size (input, kernel;
// reduction) with the larger of the two major in the input, feature-group (if > 1; input
// feature, kernel output feature, output feature), input feature per group (input, kernel;
// reduction), output feature per group (kernel, output).
ShardingRuleOrNone convolutionRule(hlo::ConvolutionOp op, const ShardingRuleOptions&) {
  OpShardingRuleBuilder builder(op);
  hlo::ConvDimensionNumbersAttr dims = op.getDimensionNumbers();
  llvm::ArrayRef<int64_t> kernelShape = builder.getOperandShape(1);
  llvm::ArrayRef<int64_t> outShape = builder.getResultShape(0);
  int64_t batchGroups = op.getBatchGroupCount();
  int64_t featureGroups = op.getFeatureGroupCount();
  int64_t inBatch = dims.getInputBatchDimension();
  int64_t inFeature = dims.getInputFeatureDimension();
  int64_t kernelIn = dims.getKernelInputFeatureDimension();
  int64_t kernelOut = dims.getKernelOutputFeatureDimension();
  int64_t outBatch = dims.getOutputBatchDimension();
  int64_t outFeature = dims.getOutputFeatureDimension();

  if (batchGroups > 1) builder.addFactor({inBatch, kernelOut}, {outFeature}, batchGroups);
  builder.addFactor({inBatch, kNoDim}, {outBatch}, outShape[outBatch]);
  for (int64_t s = 0, n = dims.getNumSpatialDims(); s < n; ++s) {
    int64_t inDim = dims.getInputSpatialDimensions()[s];
    int64_t kernelDim = dims.getKernelSpatialDimensions()[s];
    int64_t outDim = dims.getOutputSpatialDimensions()[s];
    int64_t windows = outShape[outDim];
    int64_t windowSize = kernelShape[kernelDim];
    FactorKind windowsKind = isTrivialSpatialDim(op, s, windowSize) ? FactorKind::kPassThrough
                                                                    : FactorKind::kPermutation;
    auto addWindows = [&] { builder.addFactor({inDim, kNoDim}, {outDim}, windows, windowsKind); };
    auto addWindowSize = [&] {
      builder.addFactor({inDim, kernelDim}, {}, windowSize, FactorKind::kReduction);
    };
    if (windows >= windowSize) {
      addWindows();
      addWindowSize();
    } else {
      addWindowSize();
      addWindows();
    }
  }
  if (featureGroups > 1) builder.addFactor({inFeature, kernelOut}, {outFeature}, featureGroups);
  builder.addFactor({inFeature, kernelIn}, {}, kernelShape[kernelIn], FactorKind::kReduction);
  builder.addFactor({kNoDim, kernelOut}, {outFeature},
                    kernelShape[kernelOut] / (batchGroups * featureGroups));
  return builder.build();
}

}  // namespace

void registerHloLinalgRules(mlir::MLIRContext* context) {
  attachRule<hlo::DotGeneralOp, dotGeneralRule, keyDotGeneral>(context);
  attachRule<hlo::ConvolutionOp, convolutionRule>(context);
}

}  // namespace tessel::rules
