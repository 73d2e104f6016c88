// The reshard planner and the small emitters it shares with the op handlers.
//
// Plan, from layout A to layout B of the same mesh:
//   1. unreduced axes of A that B lacks: all_reduce (sum) over them, or a reduce_scatter
//      when B splits one whole dimension over those axes or some of them (whole axes or the
//      major part of one; an all_reduce over the rest follows), zero-padded first when the
//      split is uneven; unreduced axes B adds: after steps 2-4 (B splits no dimension
//      over them, so the value is whole over them by then), keep the value on group
//      position 0 and zero elsewhere, so the group sums to it;
//   2. splits that move from one dimension to another: one all_to_all each, and shards that
//      only change devices: one collective_permute, and new shards that each lie inside
//      one old shard: a local slice of the piece some device needs and one
//      collective_permute to it (reshard_moves.cc), where exact and cheaper by planBytes
//      than gathering and slicing;
//   3. per dimension, keep the longest common prefix of A's and B's axes when both split the
//      dimension evenly (otherwise keep nothing) and all_gather the rest of A's axes, minor
//      part of the dimension included in one collective; a full gather of an uneven split
//      yields n*ceil(D/n) >= D elements and is sliced back to D;
//   4. per dimension, cut B's remaining axes with one dynamic_slice whose offsets come from
//      tables indexed by partition_id; dimensions that were whole and split unevenly are
//      zero-padded to n*ceil(D/n) first, because dynamic_slice clamps its offsets.
// Steps 3 and 4 are always correct: whatever steps 2 cannot do exactly, they do. Layouts of
// different meshes first bring the value onto B's mesh (cross_mesh_reshard.cc).
#include <algorithm>
#include <complex>
#include <optional>

#include "mlir/IR/BuiltinTypes.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/ir/tessel/collective_groups.h"
#include "partitioner/spmd/spmd_builder.h"

namespace tessel::spmd {
namespace {

mlir::RankedTensorType withShape(mlir::Value value, llvm::ArrayRef<int64_t> shape) {
  auto type = llvm::cast<mlir::RankedTensorType>(value.getType());
  return mlir::RankedTensorType::get(shape, type.getElementType());
}

mlir::ArrayAttr axesAttr(mlir::MLIRContext* context, llvm::ArrayRef<ir::AxisRefAttr> axes) {
  return mlir::ArrayAttr::get(context,
                              llvm::SmallVector<mlir::Attribute>(axes.begin(), axes.end()));
}

}  // namespace

SpmdBuilder::SpmdBuilder(mlir::func::FuncOp func, mlir::Block* block)
    : module_(func->getParentOfType<mlir::ModuleOp>()), block_(block), builder_(func.getContext()) {
  builder_.setInsertionPointToEnd(block);
}

SpmdBuilder::TrialScope::TrialScope(SpmdBuilder& spmd)
    : spmd_(spmd),
      guard_(spmd.builder_),
      memo_(spmd.memo_),
      scratch_(std::make_unique<mlir::Block>()) {
  spmd.builder_.setInsertionPointToEnd(scratch_.get());
  ++spmd.pricing_;
}

SpmdBuilder::TrialScope::~TrialScope() {
  --spmd_.pricing_;
  spmd_.memo_ = std::move(memo_);
  // Dropping the block's references first lets its ops go in any order.
  scratch_->dropAllReferences();
  scratch_.reset();
  // No partition id was made for the trial: its offsets are placeholders (lookupPerDevice),
  // the only code that reads one.
}

mlir::Value SpmdBuilder::constantI32(int64_t value, mlir::Location loc) {
  auto type = mlir::RankedTensorType::get({}, builder_.getI32Type());
  return builder_.create<hlo::ConstantOp>(
      loc, type, mlir::DenseElementsAttr::get(type, builder_.getI32IntegerAttr(value)));
}

mlir::Value SpmdBuilder::zeroScalar(mlir::Type elementType, mlir::Location loc) {
  auto type = mlir::RankedTensorType::get({}, elementType);
  // getZeroAttr has no complex zero; a complex one is (0, 0).
  if (auto complexType = llvm::dyn_cast<mlir::ComplexType>(elementType)) {
    llvm::APFloat zero = llvm::APFloat::getZero(
        llvm::cast<mlir::FloatType>(complexType.getElementType()).getFloatSemantics());
    std::complex<llvm::APFloat> value(zero, zero);
    return builder_.create<hlo::ConstantOp>(
        loc, type, mlir::DenseElementsAttr::get(type, llvm::ArrayRef(value)));
  }
  return builder_.create<hlo::ConstantOp>(
      loc, type, mlir::DenseElementsAttr::get(type, builder_.getZeroAttr(elementType)));
}

mlir::Value SpmdBuilder::additiveIdentityScalar(mlir::Type elementType, mlir::Location loc) {
  auto type = mlir::RankedTensorType::get({}, elementType);
  auto negativeZero = [](mlir::Type floatType) {
    return llvm::APFloat::getZero(llvm::cast<mlir::FloatType>(floatType).getFloatSemantics(),
                                  /*Negative=*/true);
  };
  if (auto complexType = llvm::dyn_cast<mlir::ComplexType>(elementType)) {
    llvm::APFloat zero = negativeZero(complexType.getElementType());
    std::complex<llvm::APFloat> value(zero, zero);
    return builder_.create<hlo::ConstantOp>(
        loc, type, mlir::DenseElementsAttr::get(type, llvm::ArrayRef(value)));
  }
  if (llvm::isa<mlir::FloatType>(elementType)) {
    return builder_.create<hlo::ConstantOp>(
        loc, type,
        mlir::DenseElementsAttr::get(type, builder_.getFloatAttr(elementType,
                                                                 negativeZero(elementType))));
  }
  return zeroScalar(elementType, loc);
}

mlir::Value SpmdBuilder::zeroPadHigh(mlir::Value value, llvm::ArrayRef<int64_t> high,
                                     mlir::Location loc) {
  if (llvm::all_of(high, [](int64_t h) { return h == 0; })) return value;
  auto type = llvm::cast<mlir::RankedTensorType>(value.getType());
  llvm::SmallVector<int64_t> shape = llvm::to_vector(type.getShape());
  for (auto [size, h] : llvm::zip(shape, high)) size += h;
  llvm::SmallVector<int64_t> zeros(shape.size(), 0);
  return builder_.create<hlo::PadOp>(
      loc, withShape(value, shape), value, zeroScalar(type.getElementType(), loc),
      builder_.getDenseI64ArrayAttr(zeros), builder_.getDenseI64ArrayAttr(high),
      builder_.getDenseI64ArrayAttr(zeros));
}

mlir::Value SpmdBuilder::partitionId(mlir::Location loc) {
  if (partitionId_) return partitionId_;
  mlir::OpBuilder::InsertionGuard guard(builder_);
  builder_.setInsertionPointToStart(block_);
  auto ui32 = mlir::RankedTensorType::get(
      {}, mlir::IntegerType::get(builder_.getContext(), 32, mlir::IntegerType::Unsigned));
  mlir::Value id = builder_.create<ir::PartitionIdOp>(loc, ui32);
  partitionId_ = builder_.create<hlo::ConvertOp>(
      loc, mlir::RankedTensorType::get({}, builder_.getI32Type()), id);
  return partitionId_;
}

mlir::Value SpmdBuilder::lookupPerDevice(ir::MeshAttr mesh,
                                         llvm::function_ref<int64_t(int64_t)> perDevice,
                                         mlir::Location loc) {
  if (pricing_ > 0) return constantI32(0, loc);
  int64_t maxId = 0;
  for (int64_t i = 0; i < mesh.getTotalSize(); ++i) maxId = std::max(maxId, mesh.getDeviceId(i));
  std::vector<int64_t> entries(maxId + 1, 0);
  for (int64_t i = 0; i < mesh.getTotalSize(); ++i) entries[mesh.getDeviceId(i)] = perDevice(i);
  if (std::all_of(entries.begin(), entries.end(),
                  [&](int64_t e) { return e == entries.front(); })) {
    return constantI32(entries.front(), loc);
  }
  auto found = memo_.tables.find(entries);
  if (found != memo_.tables.end()) return found->second;
  mlir::Value id = partitionId(loc);
  auto tableType =
      mlir::RankedTensorType::get({static_cast<int64_t>(entries.size())}, builder_.getI32Type());
  llvm::SmallVector<int32_t> values(entries.begin(), entries.end());
  mlir::Value table = builder_.create<hlo::ConstantOp>(
      loc, tableType, mlir::DenseElementsAttr::get(tableType, llvm::ArrayRef<int32_t>(values)));
  mlir::Value entry = builder_.create<hlo::DynamicSliceOp>(
      loc, mlir::RankedTensorType::get({1}, builder_.getI32Type()), table, mlir::ValueRange{id},
      builder_.getDenseI64ArrayAttr({1}));
  mlir::Value scalar = builder_.create<hlo::ReshapeOp>(
      loc, mlir::RankedTensorType::get({}, builder_.getI32Type()), entry);
  memo_.tables[entries] = scalar;
  return scalar;
}

mlir::Value SpmdBuilder::allReduce(mlir::Value value, const Layout& layout,
                                   llvm::ArrayRef<ir::AxisRefAttr> axes, mlir::Location loc,
                                   ir::ReductionKind kind) {
  mlir::MLIRContext* context = builder_.getContext();
  return builder_.create<ir::AllReduceOp>(loc, value.getType(), value, layout.meshName,
                                          axesAttr(context, axes),
                                          ir::ReductionKindAttr::get(context, kind));
}

mlir::Value SpmdBuilder::keepOnFirst(mlir::Value value, const Layout& layout,
                                     llvm::ArrayRef<ir::AxisRefAttr> axes, mlir::Location loc) {
  mlir::Value position = lookupPerDevice(
      layout.mesh,
      [&](int64_t linear) { return ir::getGroupPosition(layout.mesh, axes, linear).position; },
      loc);
  auto type = llvm::cast<mlir::RankedTensorType>(value.getType());
  mlir::Value isFirst = builder_.create<hlo::CompareOp>(
      loc, mlir::RankedTensorType::get({}, builder_.getI1Type()), position, constantI32(0, loc),
      hlo::ComparisonDirectionAttr::get(builder_.getContext(), hlo::ComparisonDirection::EQ),
      nullptr);
  mlir::Value mask = builder_.create<hlo::BroadcastInDimOp>(
      loc, mlir::RankedTensorType::get(type.getShape(), builder_.getI1Type()), isFirst,
      builder_.getDenseI64ArrayAttr({}));
  // The others hold the sum's identity, so that the sum over `axes` gives back `value`
  // bit for bit, -0 included.
  mlir::Value zeros = builder_.create<hlo::BroadcastInDimOp>(
      loc, type, additiveIdentityScalar(type.getElementType(), loc),
      builder_.getDenseI64ArrayAttr({}));
  return builder_.create<hlo::SelectOp>(loc, type, mask, value, zeros);
}

mlir::Value SpmdBuilder::gatherAndSlice(mlir::Value value, Layout& current, const Layout& to,
                                        llvm::ArrayRef<int64_t> globalShape, mlir::Location loc) {
  mlir::MLIRContext* context = builder_.getContext();
  const int64_t rank = current.rank();
  // Step 3: gather what is not kept.
  llvm::SmallVector<size_t> kept(rank, 0);
  for (int64_t d = 0; d < rank; ++d) {
    const AxisList& a = current.dims[d];
    const AxisList& b = to.dims[d];
    if (sameAxes(a, b)) {
      kept[d] = a.size();
      continue;
    }
    bool even = globalShape[d] % current.numShards(d) == 0 && globalShape[d] % to.numShards(d) == 0;
    if (even) {
      while (kept[d] < a.size() && kept[d] < b.size() && a[kept[d]] == b[kept[d]]) ++kept[d];
    }
    if (kept[d] == a.size()) continue;
    llvm::ArrayRef<ir::AxisRefAttr> gathered = llvm::ArrayRef(a).drop_front(kept[d]);
    llvm::SmallVector<int64_t> shape =
        llvm::to_vector(llvm::cast<mlir::RankedTensorType>(value.getType()).getShape());
    shape[d] *= ir::getGroupSize(current.mesh, gathered);
    value = builder_.create<ir::AllGatherOp>(loc, withShape(value, shape), value, current.meshName,
                                             axesAttr(context, gathered),
                                             builder_.getI64IntegerAttr(d));
    current.dims[d].resize(kept[d]);
    if (kept[d] == 0 && shape[d] > globalShape[d]) {
      // The gathered padding of the last shards: drop it.
      llvm::SmallVector<int64_t> start(rank, 0), strides(rank, 1);
      llvm::SmallVector<int64_t> limit = shape;
      limit[d] = globalShape[d];
      shape[d] = globalShape[d];
      value = builder_.create<hlo::SliceOp>(
          loc, withShape(value, shape), value, builder_.getDenseI64ArrayAttr(start),
          builder_.getDenseI64ArrayAttr(limit), builder_.getDenseI64ArrayAttr(strides));
    }
  }
  // Step 4: cut what `to` adds.
  bool anyCut = false;
  for (int64_t d = 0; d < rank; ++d) anyCut |= current.dims[d].size() != to.dims[d].size();
  if (!anyCut) return value;
  llvm::SmallVector<int64_t> shape =
      llvm::to_vector(llvm::cast<mlir::RankedTensorType>(value.getType()).getShape());
  llvm::SmallVector<int64_t> padHigh(rank, 0);
  for (int64_t d = 0; d < rank; ++d) {
    if (current.dims[d].size() == to.dims[d].size()) continue;
    int64_t n = to.numShards(d);
    int64_t padded = n * ((globalShape[d] + n - 1) / n);
    if (current.dims[d].empty() && padded > shape[d]) {
      padHigh[d] = padded - shape[d];
      shape[d] = padded;
    }
  }
  value = zeroPadHigh(value, padHigh, loc);
  llvm::SmallVector<mlir::Value> starts;
  llvm::SmallVector<int64_t> sizes = to.localShape(globalShape);
  for (int64_t d = 0; d < rank; ++d) {
    if (current.dims[d].size() == to.dims[d].size()) {
      starts.push_back(constantI32(0, loc));
      continue;
    }
    const int64_t toLength = sizes[d];
    const int64_t fromLength = (globalShape[d] + current.numShards(d) - 1) / current.numShards(d);
    starts.push_back(lookupPerDevice(
        to.mesh,
        [&](int64_t linear) {
          return to.shardIndex(d, linear) * toLength - current.shardIndex(d, linear) * fromLength;
        },
        loc));
  }
  value = builder_.create<hlo::DynamicSliceOp>(loc, withShape(value, sizes), value, starts,
                                               builder_.getDenseI64ArrayAttr(sizes));
  current.dims = to.dims;
  return value;
}

namespace {

// A reduce_scatter of a partial sum onto dimension `dim` over `scatter`, followed by an
// all_reduce over `rest`: together they reduce every axis being reduced.
struct ScatterPlan {
  int64_t dim;
  AxisList scatter;
  AxisList rest;
};

// The first dimension that `current` does not split and `target` splits over axes being
// reduced only: whole axes of `reduce`, or the major part ("x":(1)k) of a whole one, whose
// minor part is then reduced by the all_reduce. None where the rest would split a dimension
// of `target` too (it must end up reduced and replicated).
std::optional<ScatterPlan> planReduceScatter(const Layout& current, const Layout& target,
                                             llvm::ArrayRef<ir::AxisRefAttr> reduce) {
  for (int64_t d = 0; d < current.rank(); ++d) {
    if (!current.dims[d].empty() || target.dims[d].empty()) continue;
    AxisList rest(reduce.begin(), reduce.end());
    bool fits = true;
    for (ir::AxisRefAttr axis : target.dims[d]) {
      auto same = llvm::find(rest, axis);
      if (same != rest.end()) {
        rest.erase(same);
        continue;
      }
      auto whole = llvm::find_if(rest, [&](ir::AxisRefAttr other) {
        return !other.isSubAxis() && other.getName() == axis.getName();
      });
      if (!axis.isSubAxis() || axis.getPreSize() != 1 || whole == rest.end()) {
        fits = false;
        break;
      }
      const int64_t minor = current.mesh.getAxisSize(axis.getName()) / axis.getSubSize();
      if (minor == 1) {
        rest.erase(whole);
      } else {
        *whole = ir::AxisRefAttr::get(axis.getContext(), axis.getName(), axis.getSubSize(), minor);
      }
    }
    if (!fits) continue;
    if (llvm::any_of(target.dims, [&](const AxisList& axes) { return anyOverlap(axes, rest); })) {
      continue;
    }
    return ScatterPlan{d, target.dims[d], rest};
  }
  return std::nullopt;
}

}  // namespace

mlir::FailureOr<mlir::Value> SpmdBuilder::reshard(mlir::Value value, const Layout& from,
                                                  const Layout& to,
                                                  llvm::ArrayRef<int64_t> globalShape,
                                                  mlir::Location loc) {
  if (from == to) return value;
  Layout current = from;
  Layout target = to;
  if (!current.mesh && !target.mesh) return value;
  if (!current.mesh) current = Layout::replicated(target.mesh, target.meshName, from.rank());
  if (!target.mesh) target = Layout::replicated(current.mesh, current.meshName, to.rank());
  if (current.meshName != target.meshName) {
    mlir::FailureOr<mlir::Value> moved = crossMeshes(value, current, target, globalShape, loc);
    if (mlir::failed(moved)) return mlir::failure();
    value = *moved;
    if (current == target) return value;
  }
  // Step 1: unreduced axes.
  AxisList reduce, keep;
  for (ir::AxisRefAttr axis : current.unreduced) {
    (llvm::is_contained(target.unreduced, axis) ? keep : reduce).push_back(axis);
  }
  if (!reduce.empty()) {
    // When the target splits one whole, so far unsplit dimension over the axes to reduce,
    // or over some of them (whole axes, or the major part of one), a reduce_scatter over
    // those does the reduction and the split at once: each device receives only its piece of
    // the sum (the device at group position i gets piece i, which is its shard index); an
    // all_reduce of the pieces over the rest of the axes then completes the sums. That sends
    // what one all_reduce of the whole tensor would, and leaves the gather the split saves.
    // An uneven split is zero-padded to n*ceil(D/n) first, so the pieces are the padded
    // shards.
    if (std::optional<ScatterPlan> plan = planReduceScatter(current, target, reduce)) {
      int64_t d = plan->dim;
      const int64_t n = ir::getGroupSize(current.mesh, plan->scatter);
      llvm::SmallVector<int64_t> shape =
          llvm::to_vector(llvm::cast<mlir::RankedTensorType>(value.getType()).getShape());
      llvm::SmallVector<int64_t> high(shape.size(), 0);
      high[d] = n * ((shape[d] + n - 1) / n) - shape[d];
      value = zeroPadHigh(value, high, loc);
      shape[d] = (shape[d] + high[d]) / n;
      mlir::MLIRContext* context = builder_.getContext();
      value = builder_.create<ir::ReduceScatterOp>(
          loc, withShape(value, shape), value, current.meshName, axesAttr(context, plan->scatter),
          builder_.getI64IntegerAttr(d),
          ir::ReductionKindAttr::get(context, ir::ReductionKind::Sum));
      current.dims[d] = target.dims[d];
      if (!plan->rest.empty()) value = allReduce(value, current, plan->rest, loc);
    } else {
      value = allReduce(value, current, reduce, loc);
    }
  }
  AxisList added;
  for (ir::AxisRefAttr axis : target.unreduced) {
    if (!llvm::is_contained(current.unreduced, axis)) added.push_back(axis);
  }
  current.unreduced = target.unreduced;
  std::optional<mlir::Value> exchanged =
      exchangeBeforeMoves(value, current, target, globalShape, loc);
  value = exchanged ? *exchanged : movePieces(value, current, target, globalShape, loc);
  // Unreduced axes the target adds: only once the value has the target's splits is it whole
  // over them (the target splits no dimension over its unreduced axes; the source may), so
  // only then does keeping it on group position 0 and zero elsewhere sum to the value.
  if (!added.empty()) value = keepOnFirst(value, current, added, loc);
  return value;
}

mlir::Value SpmdBuilder::movePieces(mlir::Value value, Layout& current, const Layout& to,
                                    llvm::ArrayRef<int64_t> globalShape, mlir::Location loc) {
  value = moveSplits(value, current, to, globalShape, loc);
  value = permuteShards(value, current, to, loc);
  value = slicePieces(value, current, to, globalShape, loc);
  value = exchangePieces(value, current, to, globalShape, loc);
  return gatherAndSlice(value, current, to, globalShape, loc);
}

mlir::Value SpmdBuilder::maskPadding(mlir::Value value, const Layout& layout,
                                     llvm::ArrayRef<int64_t> globalShape,
                                     llvm::ArrayRef<int64_t> dims, mlir::Value fill,
                                     mlir::Location loc) {
  auto type = llvm::cast<mlir::RankedTensorType>(value.getType());
  auto predType = mlir::RankedTensorType::get(type.getShape(), builder_.getI1Type());
  auto indexType = mlir::RankedTensorType::get(type.getShape(), builder_.getI32Type());
  mlir::Value mask;
  for (int64_t d : dims) {
    int64_t n = layout.numShards(d);
    if (globalShape[d] % n == 0) continue;
    const int64_t length = type.getDimSize(d);
    mlir::Value valid = lookupPerDevice(
        layout.mesh,
        [&](int64_t linear) {
          return std::clamp<int64_t>(globalShape[d] - layout.shardIndex(d, linear) * length, 0,
                                     length);
        },
        loc);
    mlir::Value iota = builder_.create<hlo::IotaOp>(loc, indexType, builder_.getI64IntegerAttr(d));
    mlir::Value bound = builder_.create<hlo::BroadcastInDimOp>(loc, indexType, valid,
                                                               builder_.getDenseI64ArrayAttr({}));
    mlir::Value inside = builder_.create<hlo::CompareOp>(
        loc, predType, iota, bound,
        hlo::ComparisonDirectionAttr::get(builder_.getContext(), hlo::ComparisonDirection::LT),
        nullptr);
    mask = mask ? builder_.create<hlo::AndOp>(loc, predType, mask, inside).getResult() : inside;
  }
  if (!mask) return value;
  mlir::Value fills =
      builder_.create<hlo::BroadcastInDimOp>(loc, type, fill, builder_.getDenseI64ArrayAttr({}));
  return builder_.create<hlo::SelectOp>(loc, type, mask, value, fills);
}

}  // namespace tessel::spmd
