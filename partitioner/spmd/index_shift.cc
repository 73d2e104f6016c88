// Index vectors shifted into a device's operand shard (see index_shift.h). Offsets and
// valid lengths come from partition_id tables, one per split dimension.
#include "partitioner/spmd/index_shift.h"

#include <algorithm>

#include "mlir/IR/BuiltinTypes.h"
#include "partitioner/ir/hlo/hlo_ops.h"

namespace tessel::spmd {

llvm::SmallVector<int64_t> dimsExcept(int64_t rank, llvm::ArrayRef<int64_t> excluded) {
  llvm::SmallVector<int64_t> dims;
  for (int64_t dim = 0; dim < rank; ++dim) {
    if (!llvm::is_contained(excluded, dim)) dims.push_back(dim);
  }
  return dims;
}

int64_t positionOf(llvm::ArrayRef<int64_t> list, int64_t value) {
  return llvm::find(list, value) - list.begin();
}
namespace {

mlir::RankedTensorType tensorOf(llvm::ArrayRef<int64_t> shape, mlir::Type elementType) {
  return mlir::RankedTensorType::get(shape, elementType);
}

mlir::Value constantOf(mlir::OpBuilder& builder, mlir::Type elementType, int64_t value,
                       mlir::Location loc) {
  auto type = tensorOf({}, elementType);
  return builder.create<hlo::ConstantOp>(
      loc, type, mlir::DenseElementsAttr::get(type, builder.getIntegerAttr(elementType, value)));
}

// The per-device scalar `perDevice(linear)` as a rank-0 tensor of `elementType`.
mlir::Value perDeviceOf(SpmdBuilder& spmd, const Layout& layout, mlir::Type elementType,
                        llvm::function_ref<int64_t(int64_t)> perDevice, mlir::Location loc) {
  mlir::Value value = spmd.lookupPerDevice(layout.mesh, perDevice, loc);
  if (elementType == spmd.builder().getI32Type()) return value;
  return spmd.builder().create<hlo::ConvertOp>(loc, tensorOf({}, elementType), value);
}

// The rank-0 `scalars` (one per index vector entry) laid out along the index vector
// dimension of a tensor of `type`.
mlir::Value alongVectors(mlir::OpBuilder& builder, llvm::ArrayRef<mlir::Value> scalars,
                         mlir::RankedTensorType type, int64_t indexVectorDim,
                         mlir::Location loc) {
  if (scalars.size() == 1) {  // one entry per vector: the same value everywhere
    return builder.create<hlo::BroadcastInDimOp>(loc, type, scalars.front(),
                                                 builder.getDenseI64ArrayAttr({}));
  }
  // Two entries or more (index vectors are never empty here): one concatenation.
  llvm::SmallVector<mlir::Value> pieces;
  for (mlir::Value scalar : scalars) {
    pieces.push_back(
        builder.create<hlo::ReshapeOp>(loc, tensorOf({1}, type.getElementType()), scalar));
  }
  mlir::Value vector = builder.create<hlo::ConcatenateOp>(
      loc, tensorOf({static_cast<int64_t>(pieces.size())}, type.getElementType()), pieces,
      builder.getI64IntegerAttr(0));
  return builder.create<hlo::BroadcastInDimOp>(loc, type, vector,
                                               builder.getDenseI64ArrayAttr({indexVectorDim}));
}

// Entry k of every index vector of `indices`, over the batch positions.
mlir::Value entryOf(mlir::OpBuilder& builder, mlir::Value indices, int64_t indexVectorDim,
                    int64_t k, mlir::Location loc) {
  auto type = llvm::cast<mlir::RankedTensorType>(indices.getType());
  if (indexVectorDim == type.getRank()) return indices;
  llvm::SmallVector<int64_t> start(type.getRank(), 0), limit(type.getShape()),
      strides(type.getRank(), 1);
  start[indexVectorDim] = k;
  limit[indexVectorDim] = k + 1;
  llvm::SmallVector<int64_t> sliced(type.getShape());
  sliced[indexVectorDim] = 1;
  mlir::Value entry = builder.create<hlo::SliceOp>(
      loc, tensorOf(sliced, type.getElementType()), indices,
      builder.getDenseI64ArrayAttr(start), builder.getDenseI64ArrayAttr(limit),
      builder.getDenseI64ArrayAttr(strides));
  llvm::SmallVector<int64_t> batch(type.getShape());
  batch.erase(batch.begin() + indexVectorDim);
  return builder.create<hlo::ReshapeOp>(loc, tensorOf(batch, type.getElementType()), entry);
}

int64_t shardLength(const Layout& layout, llvm::ArrayRef<int64_t> shape, int64_t dim) {
  int64_t n = layout.numShards(dim);
  return (shape[dim] + n - 1) / n;
}

}  // namespace

mlir::Value shiftIndices(SpmdBuilder& spmd, mlir::Value indices, const IndexVectors& vectors,
                         const Layout& operandLayout, llvm::ArrayRef<int64_t> operandShape,
                         llvm::ArrayRef<int64_t> clampHigh, mlir::Location loc) {
  mlir::OpBuilder& builder = spmd.builder();
  auto type = llvm::cast<mlir::RankedTensorType>(indices.getType());
  mlir::Type elementType = type.getElementType();
  if (!clampHigh.empty()) {
    llvm::SmallVector<mlir::Value> highs;
    for (int64_t high : clampHigh) highs.push_back(constantOf(builder, elementType, high, loc));
    mlir::Value low = builder.create<hlo::BroadcastInDimOp>(
        loc, type, spmd.zeroScalar(elementType, loc), builder.getDenseI64ArrayAttr({}));
    mlir::Value high = alongVectors(builder, highs, type, vectors.indexVectorDim, loc);
    indices = builder.create<hlo::ClampOp>(loc, type, low, indices, high);
  }
  llvm::SmallVector<mlir::Value> offsets;
  bool anySplit = false;
  for (int64_t dim : vectors.operandDims) {
    if (operandLayout.numShards(dim) == 1) {
      offsets.push_back(spmd.zeroScalar(elementType, loc));
      continue;
    }
    anySplit = true;
    const int64_t length = shardLength(operandLayout, operandShape, dim);
    offsets.push_back(perDeviceOf(
        spmd, operandLayout, elementType,
        [&](int64_t linear) { return operandLayout.shardIndex(dim, linear) * length; }, loc));
  }
  if (!anySplit) return indices;
  mlir::Value shift = alongVectors(builder, offsets, type, vectors.indexVectorDim, loc);
  return builder.create<hlo::SubOp>(loc, type, indices, shift);
}

mlir::Value indicesInShard(SpmdBuilder& spmd, mlir::Value shifted, const IndexVectors& vectors,
                           const Layout& operandLayout, llvm::ArrayRef<int64_t> operandShape,
                           mlir::Location loc) {
  mlir::OpBuilder& builder = spmd.builder();
  mlir::Type elementType = llvm::cast<mlir::RankedTensorType>(shifted.getType()).getElementType();
  mlir::Value inside;
  for (size_t k = 0; k < vectors.operandDims.size(); ++k) {
    const int64_t dim = vectors.operandDims[k];  // captured below: not a structured binding
    if (operandLayout.numShards(dim) == 1) continue;
    mlir::Value entry = entryOf(builder, shifted, vectors.indexVectorDim, k, loc);
    auto entryType = llvm::cast<mlir::RankedTensorType>(entry.getType());
    auto predType = tensorOf(entryType.getShape(), builder.getI1Type());
    const int64_t length = shardLength(operandLayout, operandShape, dim);
    mlir::Value valid = perDeviceOf(
        spmd, operandLayout, elementType,
        [&](int64_t linear) {
          return std::clamp<int64_t>(
              operandShape[dim] - operandLayout.shardIndex(dim, linear) * length, 0, length);
        },
        loc);
    mlir::Value bound =
        builder.create<hlo::BroadcastInDimOp>(loc, entryType, valid, builder.getDenseI64ArrayAttr({}));
    mlir::Value zero = builder.create<hlo::BroadcastInDimOp>(
        loc, entryType, spmd.zeroScalar(elementType, loc), builder.getDenseI64ArrayAttr({}));
    auto compare = [&](mlir::Value lhs, mlir::Value rhs, hlo::ComparisonDirection direction) {
      return builder.create<hlo::CompareOp>(
          loc, predType, lhs, rhs,
          hlo::ComparisonDirectionAttr::get(builder.getContext(), direction), nullptr);
    };
    // Unsigned indices below the shard wrap around to large values: the upper bound
    // catches them, and the lower one is then always true.
    mlir::Value here = builder.create<hlo::AndOp>(
        loc, predType, compare(entry, zero, hlo::ComparisonDirection::GE),
        compare(entry, bound, hlo::ComparisonDirection::LT));
    inside = inside ? builder.create<hlo::AndOp>(loc, predType, inside, here).getResult() : here;
  }
  return inside;
}

}  // namespace tessel::spmd
