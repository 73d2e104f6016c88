// hlo.reduce with any number of inputs and any reducer region (e.g. argmax: values and
// indices, the larger value winning and the smaller index on ties) whose inputs split some
// reduced dimensions. The reducer is a black box; reduce's semantics already let it be
// applied in any order and the init values be identities of it, which is all this needs:
//   1. the padding of uneven splits along split reduced dims is set to the init values
//      (each input its own), so it cannot win;
//   2. each device reduces its shard over all reduced dims, kept dims laid out as the
//      first result's layout wants;
//   3. every partial result gets a new leading dim of size 1 and one tessel.all_gather
//      along it over the axes of the split reduced dims makes the group's partials visible
//      to each member;
//   4. a second reduce with the same reducer and inits over that new dim gives each device
//      the full result of its kept shard, which is then resharded to each result's layout.
// Each device sends (group - 1) partial results per input, instead of the inputs along the
// reduced dims that the rule path gathers. The single-input handler (reduce_partition.cc)
// comes first: where the reducer is one known op an all_reduce is cheaper.
//
// Declined (left to the rule path, which makes the reduced dims whole):
//   - no reduced dim stays split: none is split, or all its axes are taken by the result's
//     kept dims (then the rule path's gather of the inputs is what is needed anyway);
//   - a result with unreduced axes (partial sums mean nothing for an arbitrary reducer);
//   - inputs or results on different meshes, dynamic shapes;
//   - a reducer region that reads values of the function (a weighted combination like
//     a + s * b, say, which is not associative: the rule path's one reduce over whole
//     dims combines the elements in the single-device order).
#include "mlir/IR/BuiltinTypes.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/ir/tessel/collective_groups.h"
#include "partitioner/spmd/partition_state.h"

namespace tessel::spmd {
namespace {

// Whether an op of `region` reads a value defined outside it.
bool usesValuesFromAbove(mlir::Region& region) {
  bool found = false;
  region.walk([&](mlir::Operation* nested) {
    for (mlir::Value operand : nested->getOperands()) {
      if (!region.isAncestor(operand.getParentRegion())) found = true;
    }
  });
  return found;
}

// A clone of `reduce` (reducer region included) on `operands` (inputs then inits), reducing
// `dimensions`, with `resultTypes`; nested ops lose their shardings.
mlir::Operation* cloneReduce(mlir::OpBuilder& builder, hlo::ReduceOp reduce,
                             mlir::ValueRange operands, llvm::ArrayRef<int64_t> dimensions,
                             llvm::ArrayRef<mlir::Type> resultTypes) {
  auto local = llvm::cast<hlo::ReduceOp>(builder.clone(*reduce));
  local->setOperands(operands);
  local.setDimensions(dimensions);
  for (auto [result, type] : llvm::zip_equal(local->getResults(), resultTypes)) {
    result.setType(type);
  }
  local->walk([](mlir::Operation* nested) {
    nested->removeAttr(ir::TesselDialect::kShardingAttrName);
  });
  return local;
}

}  // namespace

mlir::FailureOr<bool> partitionVariadicReduce(mlir::Operation* op, PartitionState& state) {
  auto reduce = llvm::dyn_cast<hlo::ReduceOp>(op);
  if (!reduce || usesValuesFromAbove(reduce.getBody())) return false;
  const size_t numInputs = reduce.getInputs().size();
  auto inputType = llvm::dyn_cast<mlir::RankedTensorType>(reduce.getInputs()[0].getType());
  if (!inputType || !inputType.hasStaticShape()) return false;
  for (mlir::Value result : reduce->getResults()) {
    auto type = llvm::dyn_cast<mlir::RankedTensorType>(result.getType());
    if (!type || !type.hasStaticShape()) return false;
  }

  // One mesh for everything; results fully reduced.
  llvm::SmallVector<Layout> wants;
  const Layout* source = nullptr;
  for (mlir::OpResult result : reduce->getResults()) {
    wants.push_back(state.annotatedLayout(result));
    if (!wants.back().unreduced.empty()) return false;
  }
  for (mlir::Value input : reduce.getInputs()) {
    const Layout& layout = state.local(input).layout;
    if (layout.mesh && !source) source = &layout;
  }
  for (const Layout& want : wants) {
    if (want.mesh && !source) source = &want;
  }
  if (!source) return false;
  const ir::MeshAttr mesh = source->mesh;
  const mlir::FlatSymbolRefAttr meshName = source->meshName;
  auto onOtherMesh = [&](const Layout& layout) {
    return layout.mesh && layout.meshName != meshName;
  };
  for (mlir::Value input : reduce.getInputs()) {
    if (onOtherMesh(state.local(input).layout)) return false;
  }
  for (mlir::Value init : reduce.getInitValues()) {
    if (onOtherMesh(state.local(init).layout)) return false;
  }
  if (llvm::any_of(wants, onOtherMesh)) return false;
  for (Layout& want : wants) {
    if (!want.mesh) want = Layout::replicated(mesh, meshName, want.rank());
  }

  // The inputs' common target: kept dims as the first result's; each reduced dim keeps the
  // axes of the first input that splits it, where they clash with nothing already used.
  const Layout& kept = wants.front();
  llvm::ArrayRef<int64_t> reduced = reduce.getDimensions();
  const int64_t rank = inputType.getRank();
  Layout target = Layout::replicated(mesh, meshName, rank);
  AxisList used;
  for (const AxisList& axes : kept.dims) used.append(axes.begin(), axes.end());
  for (int64_t d = 0, r = 0; d < rank; ++d) {
    if (!llvm::is_contained(reduced, d)) target.dims[d] = kept.dims[r++];
  }
  AxisList reducedAxes;
  llvm::SmallVector<int64_t> splitReduced;
  for (int64_t d : reduced) {
    for (mlir::Value input : reduce.getInputs()) {
      const Layout& layout = state.local(input).layout;
      if (!layout.mesh || layout.dims[d].empty() || anyOverlap(layout.dims[d], used)) continue;
      target.dims[d] = layout.dims[d];
      used.append(layout.dims[d].begin(), layout.dims[d].end());
      reducedAxes.append(layout.dims[d].begin(), layout.dims[d].end());
      splitReduced.push_back(d);
      break;
    }
  }
  if (reducedAxes.empty()) return false;

  SpmdBuilder& spmd = state.spmd();
  mlir::OpBuilder& builder = spmd.builder();
  mlir::MLIRContext* context = builder.getContext();
  mlir::Location loc = reduce.getLoc();
  llvm::SmallVector<mlir::Value> inits;
  for (mlir::Value init : reduce.getInitValues()) {
    mlir::FailureOr<mlir::Value> local =
        state.localAs(init, Layout::replicated(mesh, meshName, 0), loc);
    if (mlir::failed(local)) return mlir::failure();
    inits.push_back(*local);
  }
  // Step 1: local shards with their padding along split reduced dims set to the inits.
  llvm::SmallVector<mlir::Value> operands;
  for (auto [input, init] : llvm::zip_equal(reduce.getInputs(), inits)) {
    mlir::FailureOr<mlir::Value> local = state.localAs(input, target, loc);
    if (mlir::failed(local)) return mlir::failure();
    operands.push_back(
        spmd.maskPadding(*local, target, inputType.getShape(), splitReduced, init, loc));
  }
  operands.append(inits.begin(), inits.end());

  // Step 2: the local reduce, kept dims laid out as `kept`.
  const llvm::SmallVector<int64_t> resultShape = llvm::to_vector(
      llvm::cast<mlir::RankedTensorType>(reduce->getResult(0).getType()).getShape());
  const llvm::SmallVector<int64_t> localShape = kept.localShape(resultShape);
  llvm::SmallVector<mlir::Type> localTypes;
  for (mlir::Value result : reduce->getResults()) {
    localTypes.push_back(mlir::RankedTensorType::get(
        localShape, llvm::cast<mlir::RankedTensorType>(result.getType()).getElementType()));
  }
  mlir::Operation* partial = cloneReduce(builder, reduce, operands, reduced, localTypes);

  // Step 3: the group's partials, stacked along a new leading dim.
  const int64_t groupSize = ir::getGroupSize(mesh, reducedAxes);
  llvm::SmallVector<int64_t> unitShape = {1};
  unitShape.append(localShape.begin(), localShape.end());
  llvm::SmallVector<int64_t> stackedShape = unitShape;
  stackedShape[0] = groupSize;
  auto axesAttr = mlir::ArrayAttr::get(
      context, llvm::SmallVector<mlir::Attribute>(reducedAxes.begin(), reducedAxes.end()));
  llvm::SmallVector<mlir::Value> stacked;
  for (auto [value, type] : llvm::zip_equal(partial->getResults(), localTypes)) {
    mlir::Type elementType = llvm::cast<mlir::RankedTensorType>(type).getElementType();
    mlir::Value unit = builder.create<hlo::ReshapeOp>(
        loc, mlir::RankedTensorType::get(unitShape, elementType), value);
    stacked.push_back(builder.create<ir::AllGatherOp>(
        loc, mlir::RankedTensorType::get(stackedShape, elementType), unit, meshName, axesAttr,
        builder.getI64IntegerAttr(0)));
  }

  // Step 4: combine the partials with the same reducer and inits.
  stacked.append(inits.begin(), inits.end());
  const int64_t stackedDim = 0;
  mlir::Operation* combined = cloneReduce(builder, reduce, stacked, stackedDim, localTypes);
  for (size_t i = 0; i < numInputs; ++i) {
    mlir::OpResult result = reduce->getResult(i);
    mlir::FailureOr<mlir::Value> resharded =
        spmd.reshard(combined->getResult(i), kept, wants[i], resultShape, loc);
    if (mlir::failed(resharded)) return mlir::failure();
    state.define(result, *resharded, wants[i], resultShape);
  }
  return true;
}

}  // namespace tessel::spmd
