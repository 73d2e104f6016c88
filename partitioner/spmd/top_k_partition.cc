// hlo.top_k whose operand is split along the minor (ranked) dimension. The rule path makes
// that dimension whole first, sending every row; instead:
//   1. the padding of an uneven split is set to the value that loses to every element
//      (the lowest in total order for largest, the highest for smallest); padding sits
//      after every element in row order, so it also loses every tie;
//   2. each device takes the top min(k, shard) of its shard, and adds its shard's offset
//      to the indices, which become positions in the whole row;
//   3. one tessel.all_gather per result along the minor dimension gives every member of
//      the group all candidates, in shard order, each shard's best first;
//   4. a stable sort of (values, indices) by value in the op's order and a slice of the
//      first k give the row's top k: ties keep the candidates' order, which is row order.
// Each device sends (group - 1) * min(k, shard) candidate pairs instead of its shard; the
// handler declines when those pairs are not fewer bytes than the shard (k close to the
// shard), or when the minor dimension is whole, and the rule path runs.
#include "llvm/ADT/APFloat.h"
#include "mlir/IR/BuiltinTypes.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/spmd/partition_state.h"
#include "partitioner/spmd/int_math.h"
#include "partitioner/spmd/shape_helpers.h"

namespace tessel::spmd {
namespace {

// A rank-0 constant that `smallest ? is above : is below` every value of `elementType` in
// the order top_k uses: a NaN with every bit set (negative for the bottom) for floats, the
// extreme integer otherwise.
mlir::Value losingValue(mlir::OpBuilder& b, mlir::Type elementType, bool smallest,
                        mlir::Location loc) {
  auto type = mlir::RankedTensorType::get({}, elementType);
  mlir::DenseElementsAttr value;
  if (auto floatType = llvm::dyn_cast<mlir::FloatType>(elementType)) {
    const unsigned width = floatType.getWidth();
    llvm::APInt bits = llvm::APInt::getAllOnes(width);
    if (smallest) bits.clearBit(width - 1);  // the largest positive NaN
    value = mlir::DenseElementsAttr::get(type, llvm::APFloat(floatType.getFloatSemantics(), bits));
  } else {
    const unsigned width = elementType.getIntOrFloatBitWidth();
    const bool isUnsigned = elementType.isUnsignedInteger();
    llvm::APInt bits = smallest ? (isUnsigned ? llvm::APInt::getMaxValue(width)
                                              : llvm::APInt::getSignedMaxValue(width))
                                : (isUnsigned ? llvm::APInt::getMinValue(width)
                                              : llvm::APInt::getSignedMinValue(width));
    value = mlir::DenseElementsAttr::get(type, bits);
  }
  return b.create<hlo::ConstantOp>(loc, type, value);
}

// A stable sort of `values` with `indices` along `dim`, best first in top_k's order.
mlir::Operation* sortCandidates(mlir::OpBuilder& b, mlir::Value values, mlir::Value indices,
                                int64_t dim, bool smallest, mlir::Location loc) {
  auto valuesType = llvm::cast<mlir::RankedTensorType>(values.getType());
  auto indicesType = llvm::cast<mlir::RankedTensorType>(indices.getType());
  auto sort = b.create<hlo::SortOp>(loc, mlir::TypeRange{valuesType, indicesType},
                                    mlir::ValueRange{values, indices}, b.getI64IntegerAttr(dim),
                                    b.getUnitAttr());
  mlir::OpBuilder::InsertionGuard guard(b);
  auto scalar = mlir::RankedTensorType::get({}, valuesType.getElementType());
  auto index = mlir::RankedTensorType::get({}, indicesType.getElementType());
  mlir::Block* block = b.createBlock(&sort.getComparator());
  mlir::Value lhs = block->addArgument(scalar, loc);
  mlir::Value rhs = block->addArgument(scalar, loc);
  block->addArgument(index, loc);
  block->addArgument(index, loc);
  auto predicate = mlir::RankedTensorType::get({}, b.getI1Type());
  const bool isFloat = llvm::isa<mlir::FloatType>(valuesType.getElementType());
  hlo::ComparisonTypeAttr order =
      isFloat ? hlo::ComparisonTypeAttr::get(b.getContext(), hlo::ComparisonType::TOTALORDER)
              : nullptr;
  mlir::Value before = b.create<hlo::CompareOp>(
      loc, predicate, lhs, rhs,
      hlo::ComparisonDirectionAttr::get(b.getContext(), smallest
                                                            ? hlo::ComparisonDirection::LT
                                                            : hlo::ComparisonDirection::GT),
      order);
  b.create<hlo::ReturnOp>(loc, mlir::ValueRange{before});
  return sort;
}

}  // namespace

mlir::FailureOr<bool> partitionTopK(mlir::Operation* op, PartitionState& state) {
  auto topK = llvm::dyn_cast<hlo::TopKOp>(op);
  if (!topK) return false;
  auto type = llvm::cast<mlir::RankedTensorType>(topK.getOperand().getType());
  if (!type.hasStaticShape()) return false;
  const int64_t rank = type.getRank(), minor = rank - 1;
  const Layout& current = state.local(topK.getOperand()).layout;
  if (!current.mesh || current.dims[minor].empty()) return false;
  Layout want = state.annotatedLayout(topK->getResult(0));
  Layout wantIndices = state.annotatedLayout(topK->getResult(1));
  if (!want.unreduced.empty() || !wantIndices.unreduced.empty()) return false;
  if ((want.mesh && want.meshName != current.meshName) ||
      (wantIndices.mesh && wantIndices.meshName != current.meshName)) {
    return false;
  }

  // Rows laid out as the values result wants (where that clashes with nothing), the minor
  // dimension split as it is now.
  Layout target = Layout::replicated(current.mesh, current.meshName, rank);
  const AxisList& minorAxes = current.dims[minor];
  target.dims[minor] = minorAxes;
  for (int64_t d = 0; d < minor; ++d) {
    const AxisList& axes = want.mesh ? want.dims[d] : current.dims[d];
    if (!anyOverlap(axes, minorAxes)) target.dims[d] = axes;
  }
  const int64_t length = type.getDimSize(minor);
  const int64_t n = target.numShards(minor);
  const int64_t shard = ceilDiv(length, n);
  const int64_t k = static_cast<int64_t>(topK.getK());
  const int64_t localK = std::min(k, shard);
  // Per peer: localK values and i32 indices against a shard of values.
  const int64_t valueBytes = (type.getElementTypeBitWidth() + 7) / 8;
  if (k == 0 || localK * (valueBytes + 4) >= shard * valueBytes) return false;

  SpmdBuilder& spmd = state.spmd();
  mlir::OpBuilder& b = spmd.builder();
  mlir::Location loc = topK.getLoc();
  const bool smallest = topK.getSmallest();
  mlir::FailureOr<mlir::Value> operand = state.localAs(topK.getOperand(), target, loc);
  if (mlir::failed(operand)) return mlir::failure();

  // Steps 1 and 2.
  mlir::Value x = spmd.maskPadding(*operand, target, type.getShape(), {minor},
                                   losingValue(b, type.getElementType(), smallest, loc), loc);
  llvm::SmallVector<int64_t> localShape = target.localShape(type.getShape());
  localShape[minor] = localK;
  auto valuesType = mlir::RankedTensorType::get(localShape, type.getElementType());
  auto indicesType = mlir::RankedTensorType::get(localShape, b.getI32Type());
  auto local = b.create<hlo::TopKOp>(loc, mlir::TypeRange{valuesType, indicesType}, x,
                                     b.getI64IntegerAttr(localK),
                                     smallest ? b.getUnitAttr() : nullptr);
  mlir::Value offset = spmd.lookupPerDevice(
      target.mesh, [&](int64_t linear) { return target.shardIndex(minor, linear) * shard; }, loc);
  mlir::Value offsets =
      b.create<hlo::BroadcastInDimOp>(loc, indicesType, offset, b.getDenseI64ArrayAttr({}));
  mlir::Value indices = b.create<hlo::AddOp>(loc, indicesType, local.getIndices(), offsets);

  // Step 3.
  auto axesAttr = mlir::ArrayAttr::get(
      b.getContext(), llvm::SmallVector<mlir::Attribute>(minorAxes.begin(), minorAxes.end()));
  llvm::SmallVector<int64_t> gatheredShape = localShape;
  gatheredShape[minor] = n * localK;
  auto gather = [&](mlir::Value value) -> mlir::Value {
    auto elementType = llvm::cast<mlir::RankedTensorType>(value.getType()).getElementType();
    return b.create<ir::AllGatherOp>(loc, mlir::RankedTensorType::get(gatheredShape, elementType),
                                     value, target.meshName, axesAttr,
                                     b.getI64IntegerAttr(minor));
  };
  mlir::Value candidates = gather(local.getValues());
  mlir::Value candidateIndices = gather(indices);

  // Step 4.
  mlir::Operation* sorted =
      sortCandidates(b, candidates, candidateIndices, minor, smallest, loc);
  Layout rows = target;
  rows.dims[minor].clear();
  llvm::SmallVector<int64_t> resultShape(type.getShape());
  resultShape[minor] = k;
  for (int64_t i = 0; i < 2; ++i) {
    mlir::Value best = sliceDim(spmd, sorted->getResult(i), minor, 0, k, loc);
    state.define(topK->getResult(i), best, rows, resultShape);
  }
  return true;
}

}  // namespace tessel::spmd
