// dynamic_slice and dynamic_update_slice. Their offsets are known only at run time (and
// clamped so the box lies inside the operand), so no static halo exists:
//   dynamic_slice: the sliced dimensions are gathered (made whole) while every other
//     dimension stays split; the op runs locally with the same offsets (a full-size
//     dimension clamps its offset to 0 locally as globally), and the result is cut to its
//     layout;
//   dynamic_update_slice: when no dimension the update covers partly is split, it is local
//     with the same offsets. Otherwise the update is made whole along those dimensions and
//     each shard writes what lands in it: with the clamped global start st and the shard's
//     first index s*i, the update padded by s on both sides and cut at s - (st - s*i) is the
//     update shifted into the shard's coordinates; a select keeps it where the local index
//     lies in [st - s*i, st - s*i + U) and the operand elsewhere.
#include "mlir/IR/BuiltinTypes.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/spmd/partition_state.h"
#include "partitioner/spmd/shape_helpers.h"

namespace tessel::spmd {
namespace {

mlir::RankedTensorType withShape(mlir::Type type, llvm::ArrayRef<int64_t> shape) {
  return mlir::RankedTensorType::get(shape,
                                     llvm::cast<mlir::RankedTensorType>(type).getElementType());
}

// The rank-0 replicated local values of `indices`.
mlir::FailureOr<llvm::SmallVector<mlir::Value>> replicatedIndices(mlir::ValueRange indices,
                                                                  const Layout& like,
                                                                  PartitionState& state,
                                                                  mlir::Location loc) {
  llvm::SmallVector<mlir::Value> locals;
  for (mlir::Value index : indices) {
    mlir::FailureOr<mlir::Value> local =
        state.localAs(index, Layout::replicated(like.mesh, like.meshName, 0), loc);
    if (mlir::failed(local)) return mlir::failure();
    locals.push_back(*local);
  }
  return locals;
}

mlir::FailureOr<bool> partitionDynamicSliceOp(hlo::DynamicSliceOp slice, PartitionState& state) {
  auto type = llvm::cast<mlir::RankedTensorType>(slice.getType());
  llvm::ArrayRef<int64_t> operandShape = shapeOf(slice.getOperand().getType());
  Layout to = state.annotatedLayout(slice->getResult(0));
  mlir::Location loc = slice.getLoc();
  llvm::SmallVector<int64_t> sliced;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    if (type.getDimSize(d) != operandShape[d]) sliced.push_back(d);
  }
  Layout computed = withWholeDims(to, sliced);
  mlir::FailureOr<mlir::Value> operand = state.localAs(slice.getOperand(), computed, loc);
  mlir::FailureOr<llvm::SmallVector<mlir::Value>> starts =
      replicatedIndices(slice.getStartIndices(), to, state, loc);
  if (mlir::failed(operand) || mlir::failed(starts)) return mlir::failure();
  llvm::SmallVector<int64_t> sizes = computed.localShape(type.getShape());
  mlir::OpBuilder& b = state.spmd().builder();
  mlir::Value local = b.create<hlo::DynamicSliceOp>(loc, withShape(type, sizes), *operand,
                                                    *starts, b.getDenseI64ArrayAttr(sizes));
  mlir::FailureOr<mlir::Value> result =
      state.spmd().reshard(local, computed, to, type.getShape(), loc);
  if (mlir::failed(result)) return mlir::failure();
  state.define(slice->getResult(0), *result, to, type.getShape());
  return true;
}

mlir::FailureOr<bool> partitionDynamicUpdateSliceOp(hlo::DynamicUpdateSliceOp update,
                                                    PartitionState& state) {
  auto type = llvm::cast<mlir::RankedTensorType>(update.getType());
  llvm::ArrayRef<int64_t> updateShape = shapeOf(update.getUpdate().getType());
  Layout to = state.annotatedLayout(update->getResult(0));
  mlir::Location loc = update.getLoc();
  llvm::SmallVector<int64_t> partial;
  bool splitPartial = false;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    if (updateShape[d] == type.getDimSize(d)) continue;
    partial.push_back(d);
    splitPartial |= to.numShards(d) > 1;
  }
  mlir::FailureOr<mlir::Value> operand = state.localAs(update.getOperand(), to, loc);
  mlir::FailureOr<mlir::Value> piece =
      state.localAs(update.getUpdate(), withWholeDims(to, partial), loc);
  mlir::FailureOr<llvm::SmallVector<mlir::Value>> starts =
      replicatedIndices(update.getStartIndices(), to, state, loc);
  if (mlir::failed(operand) || mlir::failed(piece) || mlir::failed(starts)) {
    return mlir::failure();
  }
  SpmdBuilder& spmd = state.spmd();
  mlir::OpBuilder& b = spmd.builder();
  auto localType = llvm::cast<mlir::RankedTensorType>(operand->getType());
  if (!splitPartial) {
    mlir::Value local = b.create<hlo::DynamicUpdateSliceOp>(loc, localType, *operand, *piece,
                                                            *starts);
    state.define(update->getResult(0), local, to, type.getShape());
    return true;
  }
  auto i32 = mlir::RankedTensorType::get({}, b.getI32Type());
  auto predType = mlir::RankedTensorType::get(localType.getShape(), b.getI1Type());
  auto indexType = mlir::RankedTensorType::get(localType.getShape(), b.getI32Type());
  const int64_t rank = type.getRank();
  llvm::SmallVector<int64_t> low(rank, 0), high(rank, 0), interior(rank, 0);
  llvm::SmallVector<mlir::Value> offsets;
  mlir::Value zero = spmd.lookupPerDevice(to.mesh, [](int64_t) { return 0; }, loc);
  mlir::Value mask;
  auto compare = [&](mlir::Value lhs, mlir::Value rhs, hlo::ComparisonDirection direction) {
    return b.create<hlo::CompareOp>(loc, predType, lhs, rhs,
                                    hlo::ComparisonDirectionAttr::get(b.getContext(), direction),
                                    nullptr)
        .getResult();
  };
  auto constantI32 = [&](int64_t value) {
    return spmd.lookupPerDevice(to.mesh, [=](int64_t) { return value; }, loc);
  };
  for (int64_t d = 0; d < rank; ++d) {
    if (!llvm::is_contained(partial, d)) {
      offsets.push_back(zero);
      continue;
    }
    const int64_t s = localType.getDimSize(d), u = updateShape[d];
    // The clamped start, in the index's own type first (it may be unsigned), then as i32.
    mlir::Value start = (*starts)[d];
    auto indexScalar = llvm::cast<mlir::RankedTensorType>(start.getType());
    auto constantIndex = [&](int64_t value) {
      return b.create<hlo::ConstantOp>(
          loc, indexScalar,
          mlir::DenseElementsAttr::get(
              indexScalar, b.getIntegerAttr(indexScalar.getElementType(), value)));
    };
    start = b.create<hlo::ClampOp>(loc, indexScalar, constantIndex(0), start,
                                   constantIndex(type.getDimSize(d) - u));
    if (indexScalar != i32) start = b.create<hlo::ConvertOp>(loc, i32, start);
    const Layout layout = to;
    mlir::Value first = spmd.lookupPerDevice(
        to.mesh, [=](int64_t linear) { return s * layout.shardIndex(d, linear); }, loc);
    mlir::Value localStart = b.create<hlo::SubOp>(loc, i32, start, first);
    offsets.push_back(b.create<hlo::SubOp>(loc, i32, constantI32(s), localStart));
    low[d] = high[d] = s;
    mlir::Value iota = b.create<hlo::IotaOp>(loc, indexType, b.getI64IntegerAttr(d));
    mlir::Value lowBound = b.create<hlo::BroadcastInDimOp>(loc, indexType, localStart,
                                                           b.getDenseI64ArrayAttr({}));
    mlir::Value highBound = b.create<hlo::BroadcastInDimOp>(
        loc, indexType, b.create<hlo::AddOp>(loc, i32, localStart, constantI32(u)),
        b.getDenseI64ArrayAttr({}));
    for (mlir::Value inside : {compare(iota, lowBound, hlo::ComparisonDirection::GE),
                               compare(iota, highBound, hlo::ComparisonDirection::LT)}) {
      mask = mask ? b.create<hlo::AndOp>(loc, predType, mask, inside).getResult() : inside;
    }
  }
  auto pieceType = llvm::cast<mlir::RankedTensorType>(piece->getType());
  llvm::SmallVector<int64_t> paddedShape(pieceType.getShape());
  for (int64_t d = 0; d < rank; ++d) paddedShape[d] += low[d] + high[d];
  mlir::Value padded = b.create<hlo::PadOp>(
      loc, withShape(pieceType, paddedShape), *piece,
      spmd.zeroScalar(localType.getElementType(), loc), b.getDenseI64ArrayAttr(low),
      b.getDenseI64ArrayAttr(high), b.getDenseI64ArrayAttr(interior));
  mlir::Value shifted = b.create<hlo::DynamicSliceOp>(
      loc, localType, padded, offsets, b.getDenseI64ArrayAttr(localType.getShape()));
  mlir::Value local = b.create<hlo::SelectOp>(loc, localType, mask, shifted, *operand);
  state.define(update->getResult(0), local, to, type.getShape());
  return true;
}

}  // namespace

mlir::FailureOr<bool> partitionDynamicSlices(mlir::Operation* op, PartitionState& state) {
  if (!llvm::isa<hlo::DynamicSliceOp, hlo::DynamicUpdateSliceOp>(op)) return false;
  auto type = llvm::cast<mlir::RankedTensorType>(op->getResult(0).getType());
  if (!type.hasStaticShape() || !state.annotatedLayout(op->getResult(0)).unreduced.empty()) {
    return false;
  }
  if (auto slice = llvm::dyn_cast<hlo::DynamicSliceOp>(op)) {
    return partitionDynamicSliceOp(slice, state);
  }
  return partitionDynamicUpdateSliceOp(llvm::cast<hlo::DynamicUpdateSliceOp>(op), state);
}

}  // namespace tessel::spmd
