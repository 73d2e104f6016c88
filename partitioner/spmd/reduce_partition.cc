// hlo.reduce with one input whose reducer is one commutative op (add, mul, max, min, and,
// or): the reduced dimensions may stay split. Each device reduces its shard with the
// reducer's identity as init (its padding along split reduced dimensions masked with that
// identity), a tessel.all_reduce of the matching kind combines the shards over the axes
// of those dimensions, and the op's own init value is applied once at the end. A sum with
// the identity as init leaves its partial sums to the reshard to the result's layout
// instead: a reduce_scatter where that layout splits a dimension over the summed axes, an
// all_reduce otherwise, nothing where it keeps them unreduced (weight-update sharding of a
// bias gradient). Kept
// dimensions take the result's layout, except that one the result leaves whole keeps its
// split, so that only the reduced result is gathered. Other reduces (several inputs, other reducers) are
// left to the rule path, which makes the reduced dimensions whole.
#include <complex>
#include <optional>

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/APInt.h"
#include "mlir/IR/BuiltinTypes.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/ir/hlo/reducer_region.h"
#include "partitioner/spmd/partition_state.h"

namespace tessel::spmd {
namespace {

enum class Combiner { kAdd, kMul, kMax, kMin, kAnd, kOr };

// The combiner of a one-input reducer region that is a single recognized op.
std::optional<Combiner> combinerOf(hlo::ReduceOp reduce) {
  std::optional<llvm::SmallVector<mlir::Operation*>> combiners =
      hlo::getSingleOpCombiners(reduce.getBody(), /*numInputs=*/1);
  if (!combiners) return std::nullopt;
  mlir::Operation* op = combiners->front();
  if (llvm::isa<hlo::AddOp>(op)) return Combiner::kAdd;
  if (llvm::isa<hlo::MulOp>(op)) return Combiner::kMul;
  if (llvm::isa<hlo::MaxOp>(op)) return Combiner::kMax;
  if (llvm::isa<hlo::MinOp>(op)) return Combiner::kMin;
  if (llvm::isa<hlo::AndOp>(op)) return Combiner::kAnd;
  if (llvm::isa<hlo::OrOp>(op)) return Combiner::kOr;
  return std::nullopt;
}

// The all_reduce kind that combines like `combiner`; and/or only on pred, where they are
// min/max of 0 and 1.
std::optional<ir::ReductionKind> kindOf(Combiner combiner, mlir::Type elementType) {
  bool pred = elementType.isInteger(1);
  switch (combiner) {
    case Combiner::kAdd:
      return pred ? std::nullopt : std::optional(ir::ReductionKind::Sum);
    case Combiner::kMul:
      return pred ? std::nullopt : std::optional(ir::ReductionKind::Prod);
    case Combiner::kMax:
    case Combiner::kOr:
      if (combiner == Combiner::kOr && !pred) return std::nullopt;
      return ir::ReductionKind::Max;
    case Combiner::kMin:
    case Combiner::kAnd:
      if (combiner == Combiner::kAnd && !pred) return std::nullopt;
      return ir::ReductionKind::Min;
  }
  return std::nullopt;
}

// The identity of `combiner` on `elementType` as a rank-0 attribute.
mlir::DenseElementsAttr identityOf(Combiner combiner, mlir::Type elementType) {
  auto type = mlir::RankedTensorType::get({}, elementType);
  if (auto floatType = llvm::dyn_cast<mlir::FloatType>(elementType)) {
    const llvm::fltSemantics& semantics = floatType.getFloatSemantics();
    llvm::APFloat value = llvm::APFloat::getZero(semantics);
    if (combiner == Combiner::kMul) value = llvm::APFloat::getOne(semantics);
    if (combiner == Combiner::kMax) value = llvm::APFloat::getInf(semantics, /*Negative=*/true);
    if (combiner == Combiner::kMin) value = llvm::APFloat::getInf(semantics, /*Negative=*/false);
    return mlir::DenseElementsAttr::get(type, value);
  }
  if (auto complexType = llvm::dyn_cast<mlir::ComplexType>(elementType)) {
    // Complex regions only add or multiply (max and min do not verify on complex values).
    const llvm::fltSemantics& semantics =
        llvm::cast<mlir::FloatType>(complexType.getElementType()).getFloatSemantics();
    llvm::APFloat real = combiner == Combiner::kMul ? llvm::APFloat::getOne(semantics)
                                                    : llvm::APFloat::getZero(semantics);
    std::complex<llvm::APFloat> value(real, llvm::APFloat::getZero(semantics));
    return mlir::DenseElementsAttr::get(type, llvm::ArrayRef(value));
  }
  auto intType = llvm::cast<mlir::IntegerType>(elementType);
  const unsigned width = intType.getWidth();
  const bool isUnsigned = intType.isUnsigned() || width == 1;
  llvm::APInt value(width, 0);
  switch (combiner) {
    case Combiner::kAdd:
    case Combiner::kOr:
      break;
    case Combiner::kMul:
      value = llvm::APInt(width, 1);
      break;
    case Combiner::kAnd:
      value = llvm::APInt::getAllOnes(width);
      break;
    case Combiner::kMax:
      value = isUnsigned ? llvm::APInt::getMinValue(width) : llvm::APInt::getSignedMinValue(width);
      break;
    case Combiner::kMin:
      value = isUnsigned ? llvm::APInt::getMaxValue(width) : llvm::APInt::getSignedMaxValue(width);
      break;
  }
  return mlir::DenseElementsAttr::get(type, value);
}

// Whether `value` is a constant holding `identity`.
bool isConstant(mlir::Value value, mlir::DenseElementsAttr identity) {
  auto constant = value.getDefiningOp<hlo::ConstantOp>();
  return constant && constant.getValue() == identity;
}

}  // namespace

mlir::FailureOr<bool> partitionReduce(mlir::Operation* op, PartitionState& state) {
  auto reduce = llvm::dyn_cast<hlo::ReduceOp>(op);
  if (!reduce || reduce.getInputs().size() != 1) return false;
  std::optional<Combiner> combiner = combinerOf(reduce);
  if (!combiner) return false;
  mlir::Value input = reduce.getInputs()[0];
  mlir::Value init = reduce.getInitValues()[0];
  auto inputType = llvm::dyn_cast<mlir::RankedTensorType>(input.getType());
  auto resultType = llvm::dyn_cast<mlir::RankedTensorType>(reduce->getResult(0).getType());
  if (!inputType || !resultType || !inputType.hasStaticShape()) return false;
  mlir::Type elementType = inputType.getElementType();
  std::optional<ir::ReductionKind> kind = kindOf(*combiner, elementType);
  if (!kind) return false;

  const Layout result = state.annotatedLayout(reduce->getResult(0));
  const LocalValue& current = state.local(input);
  // A sum whose init is its identity can hand its partial sums to the reshard to the
  // result's layout, which reduce-scatters them where that layout splits a dimension over
  // the summed axes, or keeps them where it asks for them unreduced.
  const bool partialSum = *kind == ir::ReductionKind::Sum &&
                          isConstant(init, identityOf(*combiner, elementType));
  if ((!result.unreduced.empty() && !partialSum) || !current.layout.unreduced.empty() ||
      (current.layout.mesh && result.mesh && current.layout.meshName != result.meshName)) {
    return false;
  }
  const Layout& source = current.layout.mesh ? current.layout : result;
  if (!source.mesh) return false;

  // The operand's target: kept dims as the result's, reduced dims keep their current
  // axes where those do not clash with the result's. A kept dim the result does not split
  // keeps its current axes too (where free): the reduction runs on the shards and only its
  // smaller result is gathered, rather than the operand.
  llvm::ArrayRef<int64_t> reduced = reduce.getDimensions();
  Layout target = Layout::replicated(source.mesh, source.meshName, inputType.getRank());
  AxisList used;
  for (const AxisList& axes : result.dims) used.append(axes.begin(), axes.end());
  bool keptSplit = false;
  for (int64_t d = 0, r = 0; d < inputType.getRank(); ++d) {
    if (llvm::is_contained(reduced, d)) continue;
    const AxisList& axes = current.layout.mesh ? current.layout.dims[d] : AxisList();
    if (result.mesh && result.dims[r].empty() && !axes.empty() && !anyOverlap(axes, used)) {
      target.dims[d] = axes;
      used.append(axes.begin(), axes.end());
      keptSplit = true;
    } else {
      target.dims[d] = result.mesh ? result.dims[r] : AxisList();
    }
    ++r;
  }
  AxisList reducedAxes;
  llvm::SmallVector<int64_t> splitReduced;
  for (int64_t d = 0; d < inputType.getRank(); ++d) {
    if (!llvm::is_contained(reduced, d)) continue;
    const AxisList& axes = current.layout.dims[d];
    if (axes.empty() || anyOverlap(axes, used)) continue;
    target.dims[d] = axes;
    used.append(axes.begin(), axes.end());
    reducedAxes.append(axes.begin(), axes.end());
    splitReduced.push_back(d);
  }
  // Without a split dimension to keep, the rule path does the same with less.
  if (reducedAxes.empty() && !keptSplit) return false;

  SpmdBuilder& spmd = state.spmd();
  mlir::OpBuilder& builder = spmd.builder();
  mlir::Location loc = reduce.getLoc();
  mlir::FailureOr<mlir::Value> local = state.localAs(input, target, loc);
  if (mlir::failed(local)) return mlir::failure();
  mlir::DenseElementsAttr identity = identityOf(*combiner, elementType);
  auto scalarType = mlir::RankedTensorType::get({}, elementType);
  mlir::Value identityValue = builder.create<hlo::ConstantOp>(loc, scalarType, identity);
  mlir::Value masked = spmd.maskPadding(*local, target, current.shape, splitReduced,
                                        identityValue, loc);

  // Local reduce with the identity as init, over the same dimensions, on local types.
  Layout computed = Layout::replicated(source.mesh, source.meshName, resultType.getRank());
  for (int64_t d = 0, r = 0; d < inputType.getRank(); ++d) {
    if (!llvm::is_contained(reduced, d)) computed.dims[r++] = target.dims[d];
  }
  auto localResultType = mlir::RankedTensorType::get(computed.localShape(resultType.getShape()),
                                                     elementType);
  mlir::Operation* localReduce = builder.clone(*reduce);
  localReduce->setOperands({masked, identityValue});
  localReduce->getResult(0).setType(localResultType);
  localReduce->walk([](mlir::Operation* nested) {
    nested->removeAttr(ir::TesselDialect::kShardingAttrName);
  });
  const Layout want =
      result.mesh ? result : Layout::replicated(source.mesh, source.meshName, resultType.getRank());
  if (partialSum) {
    computed.unreduced = reducedAxes;
    mlir::FailureOr<mlir::Value> resharded = spmd.reshard(localReduce->getResult(0), computed,
                                                          want, resultType.getShape(), loc);
    if (mlir::failed(resharded)) return mlir::failure();
    state.define(reduce->getResult(0), *resharded, want, resultType.getShape());
    return true;
  }
  mlir::Value combined =
      reducedAxes.empty()
          ? localReduce->getResult(0)
          : state.spmd().allReduce(localReduce->getResult(0), source, reducedAxes, loc, *kind);

  // The op's own init, once: combine it in unless it is the identity.
  if (!isConstant(init, identity)) {
    mlir::FailureOr<mlir::Value> initLocal =
        state.localAs(init, Layout::replicated(source.mesh, source.meshName, 0), loc);
    if (mlir::failed(initLocal)) return mlir::failure();
    mlir::Value inits = builder.create<hlo::BroadcastInDimOp>(loc, localResultType, *initLocal,
                                                              builder.getDenseI64ArrayAttr({}));
    mlir::Block& body = reduce.getBody().front();
    mlir::Operation& combinerOp = body.front();
    mlir::Operation* applied = builder.clone(combinerOp);
    applied->setOperands({combined, inits});
    applied->getResult(0).setType(localResultType);
    combined = applied->getResult(0);
  }
  mlir::FailureOr<mlir::Value> resharded =
      spmd.reshard(combined, computed, want, resultType.getShape(), loc);
  if (mlir::failed(resharded)) return mlir::failure();
  state.define(reduce->getResult(0), *resharded, want, resultType.getShape());
  return true;
}

}  // namespace tessel::spmd
