// Verification of the collectives (all_gather, all_reduce, reduce_scatter, all_to_all,
// collective_permute): their mesh and axes, their dimensions, and the shape rules that relate
// operand and result through the group size.
#include "llvm/ADT/STLExtras.h"
#include "partitioner/ir/tessel/collective_groups.h"
#include "partitioner/ir/tessel/sharding_verification.h"
#include "partitioner/ir/tessel/tessel_ops.h"

namespace tessel::ir {
namespace {

llvm::SmallVector<AxisRefAttr> getAxisRefs(mlir::ArrayAttr axes) {
  return llvm::to_vector(axes.getAsRange<AxisRefAttr>());
}

// Checks the mesh and axes of a collective and returns its group size.
template <typename OpT>
mlir::FailureOr<int64_t> verifyGroup(OpT op) {
  auto emitError = [&]() { return op.emitOpError(); };
  mlir::FailureOr<MeshAttr> mesh = lookupMesh(emitError, op, op.getMeshNameAttr());
  if (mlir::failed(mesh)) return mlir::failure();
  llvm::SmallVector<AxisRefAttr> axes = getAxisRefs(op.getAxes());
  if (axes.empty()) return emitError() << "expects at least one axis";
  if (mlir::failed(verifyAxisRefs(emitError, axes, *mesh))) return mlir::failure();
  return getGroupSize(*mesh, axes);
}

mlir::LogicalResult verifyDimInRange(mlir::Operation* op, llvm::StringRef what, int64_t dim,
                                     int64_t rank) {
  if (dim >= 0 && dim < rank) return mlir::success();
  return op->emitOpError() << what << " " << dim << " is out of range [0, " << rank << ")";
}

// Fails unless static `size` of operand dimension `dim` (`what`) divides by `groupSize`.
mlir::LogicalResult verifyDivisible(mlir::Operation* op, llvm::StringRef what, int64_t dim,
                                    int64_t size, int64_t groupSize) {
  if (mlir::ShapedType::isDynamic(size) || size % groupSize == 0) return mlir::success();
  return op->emitOpError() << what << " " << dim << " has size " << size
                           << ", which is not divisible by the group size " << groupSize;
}

// Compares the result shape with `expected`; a dynamic size on either side matches anything.
mlir::LogicalResult verifyResultShape(mlir::Operation* op, mlir::ShapedType resultType,
                                      llvm::ArrayRef<int64_t> expected) {
  if (resultType.getRank() != static_cast<int64_t>(expected.size())) {
    return op->emitOpError() << "result rank " << resultType.getRank()
                             << " differs from operand rank " << expected.size();
  }
  for (auto [dim, pair] : llvm::enumerate(llvm::zip_equal(resultType.getShape(), expected))) {
    auto [actual, want] = pair;
    if (mlir::ShapedType::isDynamic(actual) || mlir::ShapedType::isDynamic(want)) continue;
    if (actual != want) {
      return op->emitOpError() << "result dimension " << dim << " has size " << actual
                               << ", expected " << want;
    }
  }
  return mlir::success();
}

int64_t scale(int64_t size, int64_t factor) {
  return mlir::ShapedType::isDynamic(size) ? size : size * factor;
}

int64_t shrink(int64_t size, int64_t factor) {
  return mlir::ShapedType::isDynamic(size) ? size : size / factor;
}

template <typename OpT>
MeshAttr meshOf(OpT op) {
  return findMesh(op, op.getMeshNameAttr());
}

template <typename OpT>
int64_t groupSizeOf(OpT op) {
  return getGroupSize(meshOf(op), getAxisRefs(op.getAxes()));
}

}  // namespace

// The accessors every collective declares (see Tessel_CollectiveOp).
#define TESSEL_DEFINE_COLLECTIVE_ACCESSORS(OpT)             \
  MeshAttr OpT::getMesh() { return meshOf(*this); }      \
  int64_t OpT::getGroupSize() { return groupSizeOf(*this); }
TESSEL_DEFINE_COLLECTIVE_ACCESSORS(AllGatherOp)
TESSEL_DEFINE_COLLECTIVE_ACCESSORS(AllReduceOp)
TESSEL_DEFINE_COLLECTIVE_ACCESSORS(ReduceScatterOp)
TESSEL_DEFINE_COLLECTIVE_ACCESSORS(AllToAllOp)
TESSEL_DEFINE_COLLECTIVE_ACCESSORS(CollectivePermuteOp)
#undef TESSEL_DEFINE_COLLECTIVE_ACCESSORS

namespace {

// The operand of `op` when its mesh is known and its groups have one device.
template <typename OpT>
mlir::OpFoldResult operandIfAlone(OpT op) {
  MeshAttr mesh = meshOf(op);
  if (!mesh || op.getOperand().getType() != op.getType()) return {};
  if (getGroupSize(mesh, getAxisRefs(op.getAxes())) != 1) return {};
  return op.getOperand();
}

}  // namespace

mlir::OpFoldResult AllGatherOp::fold(FoldAdaptor) { return operandIfAlone(*this); }
mlir::OpFoldResult AllReduceOp::fold(FoldAdaptor) { return operandIfAlone(*this); }
mlir::OpFoldResult ReduceScatterOp::fold(FoldAdaptor) { return operandIfAlone(*this); }
mlir::OpFoldResult AllToAllOp::fold(FoldAdaptor) { return operandIfAlone(*this); }

mlir::OpFoldResult CollectivePermuteOp::fold(FoldAdaptor) {
  // In a group of one device the only rule the verifier accepts that sends anything is the
  // pair (0, 0): the device sends to itself. (A shift must lie strictly between minus and
  // plus the group size and must not be 0, so none fits a group of one.)
  bool toItself = getPairs() && getPairs()->size() == 2 && (*getPairs())[0] == 0 &&
                  (*getPairs())[1] == 0;
  return toItself ? operandIfAlone(*this) : mlir::OpFoldResult();
}

mlir::LogicalResult AllGatherOp::verify() {
  mlir::FailureOr<int64_t> groupSize = verifyGroup(*this);
  if (mlir::failed(groupSize)) return mlir::failure();
  auto operandType = llvm::cast<mlir::RankedTensorType>(getOperand().getType());
  int64_t dim = getDim();
  if (mlir::failed(verifyDimInRange(*this, "dim", dim, operandType.getRank()))) {
    return mlir::failure();
  }
  llvm::SmallVector<int64_t> expected(operandType.getShape());
  expected[dim] = scale(expected[dim], *groupSize);
  return verifyResultShape(*this, getType(), expected);
}

// Complex numbers have no order, so max and min do not reduce them (sum and prod do).
static mlir::LogicalResult verifyReductionKind(mlir::Operation* op, ReductionKind kind,
                                               mlir::Type operandType) {
  mlir::Type element = llvm::cast<mlir::ShapedType>(operandType).getElementType();
  if (llvm::isa<mlir::ComplexType>(element) &&
      (kind == ReductionKind::Max || kind == ReductionKind::Min)) {
    return op->emitOpError() << stringifyReductionKind(kind) << " reduction of " << element
                             << " values: complex numbers have no order";
  }
  return mlir::success();
}

mlir::LogicalResult AllReduceOp::verify() {
  if (mlir::failed(verifyReductionKind(*this, getKind(), getOperand().getType()))) {
    return mlir::failure();
  }
  return verifyGroup(*this);
}

mlir::LogicalResult ReduceScatterOp::verify() {
  if (mlir::failed(verifyReductionKind(*this, getKind(), getOperand().getType()))) {
    return mlir::failure();
  }
  mlir::FailureOr<int64_t> groupSize = verifyGroup(*this);
  if (mlir::failed(groupSize)) return mlir::failure();
  auto operandType = llvm::cast<mlir::RankedTensorType>(getOperand().getType());
  int64_t dim = getDim();
  if (mlir::failed(verifyDimInRange(*this, "dim", dim, operandType.getRank())) ||
      mlir::failed(verifyDivisible(*this, "operand dimension", dim,
                                   operandType.getDimSize(dim), *groupSize))) {
    return mlir::failure();
  }
  llvm::SmallVector<int64_t> expected(operandType.getShape());
  expected[dim] = shrink(expected[dim], *groupSize);
  return verifyResultShape(*this, getType(), expected);
}

mlir::LogicalResult AllToAllOp::verify() {
  mlir::FailureOr<int64_t> groupSize = verifyGroup(*this);
  if (mlir::failed(groupSize)) return mlir::failure();
  auto operandType = llvm::cast<mlir::RankedTensorType>(getOperand().getType());
  int64_t splitDim = getSplitDim(), concatDim = getConcatDim();
  int64_t rank = operandType.getRank();
  if (mlir::failed(verifyDimInRange(*this, "split_dim", splitDim, rank)) ||
      mlir::failed(verifyDimInRange(*this, "concat_dim", concatDim, rank)) ||
      mlir::failed(verifyDivisible(*this, "split dimension", splitDim,
                                   operandType.getDimSize(splitDim), *groupSize))) {
    return mlir::failure();
  }
  llvm::SmallVector<int64_t> expected(operandType.getShape());
  expected[splitDim] = shrink(expected[splitDim], *groupSize);
  expected[concatDim] = scale(expected[concatDim], *groupSize);
  return verifyResultShape(*this, getType(), expected);
}

mlir::LogicalResult CollectivePermuteOp::verify() {
  mlir::FailureOr<int64_t> groupSize = verifyGroup(*this);
  if (mlir::failed(groupSize)) return mlir::failure();
  std::optional<int64_t> shift = getShift();
  std::optional<llvm::ArrayRef<int64_t>> pairs = getPairs();
  if (shift.has_value() == pairs.has_value()) {
    return emitOpError() << "expects exactly one of 'shift' and 'pairs'";
  }
  if (shift) {
    if (*shift == 0) return emitOpError() << "shift must not be 0";
    if (*shift <= -*groupSize || *shift >= *groupSize) {
      return emitOpError() << "shift " << *shift << " is out of range: its magnitude must be "
                           << "less than the group size " << *groupSize;
    }
    return mlir::success();
  }
  if (getCyclic()) return emitOpError() << "'cyclic' applies to 'shift' only, not to 'pairs'";
  if (pairs->size() % 2 != 0) {
    return emitOpError() << "pairs must hold (source, target) pairs, got " << pairs->size()
                         << " entries";
  }
  llvm::SmallVector<bool> isSource(*groupSize, false), isTarget(*groupSize, false);
  for (size_t i = 0; i < pairs->size(); i += 2) {
    for (auto [index, what, seen] :
         {std::make_tuple(i, "source", &isSource), std::make_tuple(i + 1, "target", &isTarget)}) {
      int64_t position = (*pairs)[index];
      if (position < 0 || position >= *groupSize) {
        return emitOpError() << "pair " << what << " " << position << " is out of range [0, "
                             << *groupSize << ")";
      }
      if ((*seen)[position]) {
        return emitOpError() << what << " " << position << " appears twice in pairs";
      }
      (*seen)[position] = true;
    }
  }
  return mlir::success();
}

llvm::SmallVector<std::pair<int64_t, int64_t>> CollectivePermuteOp::getSourceTargetPairs() {
  llvm::SmallVector<std::pair<int64_t, int64_t>> result;
  if (std::optional<llvm::ArrayRef<int64_t>> pairs = getPairs()) {
    for (size_t i = 0; i + 1 < pairs->size(); i += 2) {
      result.emplace_back((*pairs)[i], (*pairs)[i + 1]);
    }
    return result;
  }
  int64_t groupSize = getGroupSize();
  int64_t shift = getShift().value_or(0);
  for (int64_t source = 0; source < groupSize; ++source) {
    int64_t target = source + shift;
    if (getCyclic()) {
      target = ((target % groupSize) + groupSize) % groupSize;
    } else if (target < 0 || target >= groupSize) {
      continue;
    }
    result.emplace_back(source, target);
  }
  return result;
}

}  // namespace tessel::ir
