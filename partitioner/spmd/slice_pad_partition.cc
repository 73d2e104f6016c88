// slice and pad along split dimensions. Both are windows over their operand: output shard i
// of a dimension split n ways (c = ceil(M/n) elements each) reads a contiguous range of the
// operand, so the operand is kept split like the result and each shard fetches the edges of
// its neighbours' shards with collective_permute (shape_helpers.h), then cuts its window:
//   slice (start b, stride t): shard i reads [b + t*c*i, b + t*c*(i+1) - t + 1), strided;
//   pad (low l, interior k):   shard i reads operand elements from floor((c*i - l)/(k+1)),
//     pads them locally with the interior padding, cuts c elements at a per-device offset,
//     and masks what falls outside the padded operand [l, l + (D-1)(k+1) + 1) with the
//     padding value (which also overwrites any padding of uneven operand shards).
// Where the halos would cost more than a gather, that dimension is gathered instead and the
// op runs on it whole. Unsplit dimensions are sliced or padded locally.
#include <algorithm>

#include "mlir/IR/BuiltinTypes.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/spmd/partition_state.h"
#include "partitioner/spmd/shape_helpers.h"

namespace tessel::spmd {
namespace {

mlir::RankedTensorType withShape(mlir::Value value, llvm::ArrayRef<int64_t> shape) {
  auto type = llvm::cast<mlir::RankedTensorType>(value.getType());
  return mlir::RankedTensorType::get(shape, type.getElementType());
}

// A value in the middle of the rewrite: its local value, layout and global shape.
struct Piece {
  mlir::Value value;
  Layout layout;
  llvm::SmallVector<int64_t> shape;
};

// Gathers dimension `dim` of `piece` (it will be sliced or padded whole).
mlir::FailureOr<Piece> gatherDim(PartitionState& state, Piece piece, int64_t dim,
                                 mlir::Location loc) {
  Layout whole = withWholeDims(piece.layout, {dim});
  mlir::FailureOr<mlir::Value> value =
      state.spmd().reshard(piece.value, piece.layout, whole, piece.shape, loc);
  if (mlir::failed(value)) return mlir::failure();
  return Piece{*value, whole, piece.shape};
}

// Pads `value` along `dim` only.
mlir::Value padDim(SpmdBuilder& spmd, mlir::Value value, mlir::Value padValue, int64_t dim,
                   int64_t low, int64_t high, int64_t interior, mlir::Location loc) {
  if (low == 0 && high == 0 && interior == 0) return value;
  auto type = llvm::cast<mlir::RankedTensorType>(value.getType());
  const int64_t rank = type.getRank();
  llvm::SmallVector<int64_t> lows(rank, 0), highs(rank, 0), interiors(rank, 0);
  lows[dim] = low;
  highs[dim] = high;
  interiors[dim] = interior;
  llvm::SmallVector<int64_t> shape(type.getShape());
  shape[dim] = low + high + shape[dim] + std::max<int64_t>(shape[dim] - 1, 0) * interior;
  mlir::OpBuilder& b = spmd.builder();
  return b.create<hlo::PadOp>(loc, withShape(value, shape), value, padValue,
                              b.getDenseI64ArrayAttr(lows), b.getDenseI64ArrayAttr(highs),
                              b.getDenseI64ArrayAttr(interiors));
}

// Whether the handler applies: static shapes, a result layout without unreduced axes.
bool supported(mlir::Operation* op, PartitionState& state) {
  auto type = llvm::dyn_cast<mlir::RankedTensorType>(op->getResult(0).getType());
  if (!type || !type.hasStaticShape() || type.getNumElements() == 0) return false;
  auto operand = llvm::dyn_cast<mlir::RankedTensorType>(op->getOperand(0).getType());
  if (!operand || !operand.hasStaticShape() || operand.getNumElements() == 0) return false;
  return state.annotatedLayout(op->getResult(0)).unreduced.empty();
}

mlir::FailureOr<bool> finish(mlir::Operation* op, PartitionState& state, Piece piece) {
  Layout to = state.annotatedLayout(op->getResult(0));
  mlir::FailureOr<mlir::Value> local =
      state.spmd().reshard(piece.value, piece.layout, to, piece.shape, op->getLoc());
  if (mlir::failed(local)) return mlir::failure();
  state.define(op->getResult(0), *local, to, piece.shape);
  return true;
}

mlir::FailureOr<bool> partitionSliceOp(hlo::SliceOp slice, PartitionState& state) {
  mlir::Location loc = slice.getLoc();
  Layout to = state.annotatedLayout(slice->getResult(0));
  llvm::ArrayRef<int64_t> resultShape = shapeOf(slice.getType());
  Piece piece{nullptr, to, llvm::to_vector(shapeOf(slice.getOperand().getType()))};
  if (!to.mesh) piece.layout = Layout::replicated(nullptr, nullptr, resultShape.size());
  mlir::FailureOr<mlir::Value> operand = state.localAs(slice.getOperand(), piece.layout, loc);
  if (mlir::failed(operand)) return mlir::failure();
  piece.value = *operand;
  for (int64_t d = 0, rank = resultShape.size(); d < rank; ++d) {
    const int64_t start = slice.getStartIndices()[d], stride = slice.getStrides()[d];
    const int64_t size = resultShape[d];
    if (start == 0 && stride == 1 && size == piece.shape[d]) continue;
    const int64_t n = piece.layout.numShards(d);
    if (n > 1) {
      const int64_t c = ceilDiv(size, n);
      Window window{d, stride * (c - 1) + 1,
                    [=](int64_t i) { return start + stride * c * i; },
                    [=](int64_t i) -> std::pair<int64_t, int64_t> {
                      const int64_t last = std::min(c * (i + 1), size);
                      if (c * i >= last) return {0, 0};
                      return {start + stride * c * i, start + stride * (last - 1) + 1};
                    }};
      std::optional<mlir::Value> local =
          exchangeWindow(state.spmd(), piece.value, piece.layout, piece.shape, window, loc);
      if (local) {
        piece.value = sliceDim(state.spmd(), *local, d, 0, c, loc, stride);
        piece.shape[d] = size;
        continue;
      }
      mlir::FailureOr<Piece> whole = gatherDim(state, piece, d, loc);
      if (mlir::failed(whole)) return mlir::failure();
      piece = *whole;
    }
    piece.value = sliceDim(state.spmd(), piece.value, d, start, size, loc, stride);
    piece.shape[d] = size;
  }
  return finish(slice, state, piece);
}

mlir::FailureOr<bool> partitionPadOp(hlo::PadOp pad, PartitionState& state) {
  mlir::Location loc = pad.getLoc();
  Layout to = state.annotatedLayout(pad->getResult(0));
  llvm::ArrayRef<int64_t> resultShape = shapeOf(pad.getType());
  Piece piece{nullptr, to, llvm::to_vector(shapeOf(pad.getOperand().getType()))};
  if (!to.mesh) piece.layout = Layout::replicated(nullptr, nullptr, resultShape.size());
  mlir::FailureOr<mlir::Value> operand = state.localAs(pad.getOperand(), piece.layout, loc);
  mlir::FailureOr<mlir::Value> padValue = state.localAs(
      pad.getPaddingValue(), Layout::replicated(piece.layout.mesh, piece.layout.meshName, 0),
      loc);
  if (mlir::failed(operand) || mlir::failed(padValue)) return mlir::failure();
  piece.value = *operand;
  for (int64_t d = 0, rank = resultShape.size(); d < rank; ++d) {
    const int64_t low = pad.getEdgePaddingLow()[d], high = pad.getEdgePaddingHigh()[d];
    const int64_t interior = pad.getInteriorPadding()[d];
    if (low == 0 && high == 0 && interior == 0) continue;
    const int64_t n = piece.layout.numShards(d);
    const int64_t size = resultShape[d], operandSize = piece.shape[d];
    if (n > 1) {
      // Operand element x sits at padded position low + x*(k+1); padded positions
      // [low, low + span) hold the operand and its interior padding.
      const int64_t k1 = interior + 1, span = (operandSize - 1) * k1 + 1;
      const int64_t c = ceilDiv(size, n);
      const int64_t length = ceilDiv(c - 1 + interior, k1) + 1;
      Window window{d, length, [=](int64_t i) { return floorDiv(c * i - low, k1); },
                    [=](int64_t i) -> std::pair<int64_t, int64_t> {
                      const int64_t last = std::min(c * (i + 1), size);
                      if (c * i >= last) return {0, 0};
                      return {ceilDiv(std::max<int64_t>(c * i - low, 0), k1),
                              floorDiv(last - 1 - low, k1) + 1};
                    }};
      std::optional<mlir::Value> local =
          exchangeWindow(state.spmd(), piece.value, piece.layout, piece.shape, window, loc);
      if (local) {
        SpmdBuilder& spmd = state.spmd();
        mlir::Value spread = padDim(spmd, *local, *padValue, d, 0, 0, interior, loc);
        const Layout layout = piece.layout;
        auto shardOf = [layout, d](int64_t linear) { return layout.shardIndex(d, linear); };
        mlir::Value offset = spmd.lookupPerDevice(
            layout.mesh,
            [&](int64_t linear) {
              int64_t i = shardOf(linear);
              return (c * i - low) - floorDiv(c * i - low, k1) * k1;
            },
            loc);
        auto spreadType = llvm::cast<mlir::RankedTensorType>(spread.getType());
        llvm::SmallVector<int64_t> sizes(spreadType.getShape());
        sizes[d] = c;
        llvm::SmallVector<mlir::Value> starts;
        for (int64_t e = 0; e < rank; ++e) {
          starts.push_back(e == d ? offset
                                  : spmd.lookupPerDevice(layout.mesh,
                                                         [](int64_t) { return 0; }, loc));
        }
        mlir::OpBuilder& b = spmd.builder();
        // Without interior padding the window is already the shard's c elements.
        mlir::Value cut = spreadType.getDimSize(d) == c
                              ? spread
                              : b.create<hlo::DynamicSliceOp>(loc, withShape(spread, sizes),
                                                              spread, starts,
                                                              b.getDenseI64ArrayAttr(sizes))
                                    .getResult();
        DimRange inside{d, [=](int64_t linear) { return low - c * shardOf(linear); },
                        [=](int64_t linear) { return low + span - c * shardOf(linear); }};
        piece.value = keepInRanges(spmd, cut, layout.mesh, {inside}, *padValue, loc);
        piece.shape[d] = size;
        continue;
      }
      mlir::FailureOr<Piece> whole = gatherDim(state, piece, d, loc);
      if (mlir::failed(whole)) return mlir::failure();
      piece = *whole;
    }
    piece.value = padDim(state.spmd(), piece.value, *padValue, d, low, high, interior, loc);
    piece.shape[d] = size;
  }
  return finish(pad, state, piece);
}

}  // namespace

mlir::FailureOr<bool> partitionSliceOrPad(mlir::Operation* op, PartitionState& state) {
  if (!llvm::isa<hlo::SliceOp, hlo::PadOp>(op) || !supported(op, state)) return false;
  if (auto slice = llvm::dyn_cast<hlo::SliceOp>(op)) return partitionSliceOp(slice, state);
  return partitionPadOp(llvm::cast<hlo::PadOp>(op), state);
}

}  // namespace tessel::spmd
