// hlo.gather partitioned without replicating what is split, by four kinds of dimension:
//   - index batch dimensions (of the indices and their result dimensions): each device
//     gathers for its own index vectors, from an operand whole along the indexed dims;
//   - explicit batching dimensions (operand, indices and result alike): local;
//   - operand dimensions taken whole by the slice ("passthrough"): the slice is the local
//     shard, and so is the result's offset dimension;
//   - operand dimensions indexed with a slice of size 1 (collapsed or not): each device
//     clamps the global start exactly as the op does, shifts it into its shard, gathers,
//     zeroes the rows whose start lies in another shard, and the result is a partial sum
//     over those axes that the reshard to the annotated layout combines (one device holds
//     each row, so the sum is exact; for pred it is an or).
// Factors take axes from the annotated result first, then from the operand's and the
// indices' current layouts. The handler declines when no factor gets an axis.
#include <initializer_list>

#include "mlir/IR/BuiltinTypes.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/spmd/index_shift.h"
#include "partitioner/spmd/partition_state.h"

namespace tessel::spmd {
namespace {

// One group of dimensions split alike; kNone where a tensor has no dimension in it.
constexpr int64_t kNone = -1;
struct Factor {
  int64_t operandDim = kNone;
  int64_t indicesDim = kNone;
  int64_t resultDim = kNone;
  bool indexed = false;  // operand-only, gathered with masking and summed
  int64_t size = 0;
  AxisList axes;
};

}  // namespace

mlir::FailureOr<bool> partitionGather(mlir::Operation* op, PartitionState& state) {
  auto gather = llvm::dyn_cast<hlo::GatherOp>(op);
  if (!gather) return false;
  auto operandType = llvm::dyn_cast<mlir::RankedTensorType>(gather.getOperand().getType());
  auto indicesType = llvm::dyn_cast<mlir::RankedTensorType>(gather.getStartIndices().getType());
  auto resultType = llvm::dyn_cast<mlir::RankedTensorType>(gather.getType());
  if (!operandType || !indicesType || !resultType || !operandType.hasStaticShape() ||
      !indicesType.hasStaticShape() || !resultType.hasStaticShape()) {
    return false;
  }
  hlo::GatherDimensionNumbersAttr dims = gather.getDimensionNumbers();
  llvm::ArrayRef<int64_t> operandShape = operandType.getShape();
  llvm::ArrayRef<int64_t> sliceSizes = gather.getSliceSizes();
  const int64_t indexVectorDim = dims.getIndexVectorDim();
  llvm::SmallVector<int64_t> indicesBatchDims = dimsExcept(indicesType.getRank(), {indexVectorDim});
  llvm::SmallVector<int64_t> resultBatchDims = dimsExcept(resultType.getRank(), dims.getOffsetDims());
  llvm::SmallVector<int64_t> dropped(dims.getCollapsedSliceDims());
  llvm::append_range(dropped, dims.getOperandBatchingDims());
  llvm::SmallVector<int64_t> offsetOperandDims = dimsExcept(operandType.getRank(), dropped);
  auto resultDimOf = [&](int64_t indicesDim) {
    return resultBatchDims[positionOf(indicesBatchDims, indicesDim)];
  };

  llvm::SmallVector<Factor> factors;
  for (int64_t dim = 0; dim < operandType.getRank(); ++dim) {
    Factor factor;
    factor.operandDim = dim;
    factor.size = operandShape[dim];
    if (llvm::is_contained(dims.getOperandBatchingDims(), dim)) {
      factor.indicesDim =
          dims.getStartIndicesBatchingDims()[positionOf(dims.getOperandBatchingDims(), dim)];
      factor.resultDim = resultDimOf(factor.indicesDim);
    } else if (sliceSizes[dim] == operandShape[dim] &&
               !llvm::is_contained(dims.getCollapsedSliceDims(), dim)) {
      factor.resultDim = dims.getOffsetDims()[positionOf(offsetOperandDims, dim)];
    } else if (sliceSizes[dim] == 1 && llvm::is_contained(dims.getStartIndexMap(), dim)) {
      factor.indexed = true;
    } else {
      continue;  // a partial window, or a size-1 window at a fixed start: kept whole
    }
    factors.push_back(factor);
  }
  for (int64_t indicesDim : indicesBatchDims) {
    if (llvm::is_contained(dims.getStartIndicesBatchingDims(), indicesDim)) continue;
    Factor factor;
    factor.indicesDim = indicesDim;
    factor.resultDim = resultDimOf(indicesDim);
    factor.size = indicesType.getDimSize(indicesDim);
    factors.push_back(factor);
  }

  // Axes: the annotated result first, then the operand's and the indices' current layouts.
  const LocalValue& operand = state.local(gather.getOperand());
  const LocalValue& indices = state.local(gather.getStartIndices());
  Layout annotated = state.annotatedLayout(gather->getResult(0));
  const Layout* withMesh = nullptr;
  for (const Layout* layout : std::initializer_list<const Layout*>{&annotated, &operand.layout, &indices.layout}) {
    if (!layout->mesh) continue;
    if (withMesh && withMesh->meshName != layout->meshName) return false;
    if (!withMesh) withMesh = layout;
  }
  if (!withMesh) return false;
  AxisList used;
  bool anySplit = false;
  auto claim = [&](Factor& factor, int64_t dim, const Layout& layout) {
    if (dim == kNone || !layout.mesh || factor.size == 1 || !factor.axes.empty()) return;
    const AxisList& axes = layout.dims[dim];
    if (axes.empty() || anyOverlap(axes, used)) return;
    factor.axes = axes;
    used.append(axes.begin(), axes.end());
    anySplit = true;
  };
  for (Factor& factor : factors) claim(factor, factor.resultDim, annotated);
  for (Factor& factor : factors) claim(factor, factor.operandDim, operand.layout);
  for (Factor& factor : factors) claim(factor, factor.indicesDim, indices.layout);
  if (!anySplit) return false;

  Layout operandLayout = Layout::replicated(withMesh->mesh, withMesh->meshName, operandType.getRank());
  Layout indicesLayout = Layout::replicated(withMesh->mesh, withMesh->meshName, indicesType.getRank());
  Layout computed = Layout::replicated(withMesh->mesh, withMesh->meshName, resultType.getRank());
  for (const Factor& factor : factors) {
    if (factor.operandDim != kNone) operandLayout.dims[factor.operandDim] = factor.axes;
    if (factor.indicesDim != kNone) indicesLayout.dims[factor.indicesDim] = factor.axes;
    if (factor.resultDim != kNone) computed.dims[factor.resultDim] = factor.axes;
    if (factor.indexed) computed.unreduced.append(factor.axes.begin(), factor.axes.end());
  }

  mlir::Location loc = op->getLoc();
  mlir::FailureOr<mlir::Value> localOperand = state.localAs(gather.getOperand(), operandLayout, loc);
  if (mlir::failed(localOperand)) return mlir::failure();
  mlir::FailureOr<mlir::Value> localIndices =
      state.localAs(gather.getStartIndices(), indicesLayout, loc);
  if (mlir::failed(localIndices)) return mlir::failure();
  llvm::SmallVector<int64_t> localSlices(sliceSizes);
  llvm::SmallVector<int64_t> localOperandShape = operandLayout.localShape(operandShape);
  for (const Factor& factor : factors) {
    if (factor.resultDim != kNone && factor.indicesDim == kNone) {
      localSlices[factor.operandDim] = localOperandShape[factor.operandDim];
    }
  }

  mlir::Value newIndices = *localIndices;
  mlir::Value inShard;
  if (!computed.unreduced.empty()) {
    // Clamp every start as the global op does (harmless where the dim is local), shift the
    // starts of split dims into the shard, and remember which rows are there at all.
    llvm::SmallVector<int64_t> clampHigh;
    for (int64_t dim : dims.getStartIndexMap()) clampHigh.push_back(operandShape[dim] - sliceSizes[dim]);
    // Only the indexed dims shift; a split passthrough dim's start is 0 on every shard.
    Layout indexed = operandLayout;
    for (const Factor& factor : factors) {
      if (factor.operandDim != kNone && !factor.indexed) indexed.dims[factor.operandDim].clear();
    }
    IndexVectors vectors{indexVectorDim, dims.getStartIndexMap()};
    newIndices = shiftIndices(state.spmd(), newIndices, vectors, indexed, operandShape,
                              clampHigh, loc);
    inShard = indicesInShard(state.spmd(), newIndices, vectors, indexed, operandShape, loc);
  }

  mlir::OpBuilder& builder = state.spmd().builder();
  auto localType = mlir::RankedTensorType::get(computed.localShape(resultType.getShape()),
                                               resultType.getElementType());
  mlir::Value local = builder.create<hlo::GatherOp>(
      loc, localType, *localOperand, newIndices, dims, builder.getDenseI64ArrayAttr(localSlices),
      // Clamping can merge distinct starts out of order; the promise may no longer hold.
      inShard ? mlir::UnitAttr() : gather.getIndicesAreSortedAttr());
  if (inShard) {
    auto maskType = mlir::RankedTensorType::get(localType.getShape(), builder.getI1Type());
    mlir::Value mask = builder.create<hlo::BroadcastInDimOp>(
        loc, maskType, inShard, builder.getDenseI64ArrayAttr(resultBatchDims));
    // The partial results are summed: the rows a shard does not hold are the sum's
    // identity (-0 for floats, so that a -0 the owner gathered stays -0).
    mlir::Value zeros = builder.create<hlo::BroadcastInDimOp>(
        loc, localType, state.spmd().additiveIdentityScalar(resultType.getElementType(), loc),
        builder.getDenseI64ArrayAttr({}));
    local = builder.create<hlo::SelectOp>(loc, localType, mask, local, zeros);
  }
  mlir::FailureOr<mlir::Value> result =
      state.spmd().reshard(local, computed, annotated, resultType.getShape(), loc);
  if (mlir::failed(result)) return mlir::failure();
  state.define(gather->getResult(0), *result, annotated, resultType.getShape());
  return true;
}

}  // namespace tessel::spmd
