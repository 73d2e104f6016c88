// hlo.scatter partitioned along the inputs' dimensions, by three kinds:
//   - explicit batching dimensions (inputs, indices and updates alike): local;
//   - input dimensions the update window covers whole ("passthrough"): each device
//     combines its shard of every window into its shard of the inputs;
//   - input dimensions indexed with a window of size 1 (inserted or not): every device
//     sees all index vectors and updates, shifts the starts of those dims down by its
//     shard's offset, and scatters locally. A window outside the shard is then out of the
//     local bounds and skipped by the op itself, so each update is combined exactly once,
//     by the shard that owns its global index; a start past the global end can land only
//     in the last shards' padding. Nothing needs combining across devices.
//   - index batch dimensions (the updates' scatter dimensions and the indices' batch dims),
//     for a scatter of one input whose update region is an add (scatter-add: a segment
//     sum, an embedding gradient): each device scatters its own updates into the input on
//     the first device of the group and into zeros on the others, and the partial results
//     are summed by the reshard to the result's layout (an all_reduce, or a reduce_scatter
//     where the result is split). Padding of unevenly split updates is zeroed first.
// Other index batch dimensions stay whole. Factors take axes from the annotated results
// first, then from the inputs', updates' and indices' current layouts. The handler declines
// when no factor gets an axis.
#include "mlir/IR/BuiltinTypes.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/ir/hlo/reducer_region.h"
#include "partitioner/spmd/index_shift.h"
#include "partitioner/spmd/partition_state.h"

namespace tessel::spmd {
namespace {

constexpr int64_t kNone = -1;
// One input dimension and the dims split with it; kNone where a tensor has none.
struct Factor {
  int64_t inputDim = kNone;
  int64_t indicesDim = kNone;
  int64_t updateDim = kNone;
  bool indexed = false;  // shifted into the shard, inputs only
  bool batch = false;    // an index batch dimension: each device scatters its updates
  int64_t size = 0;
  AxisList axes;
};

bool isStatic(mlir::Value value) {
  auto type = llvm::dyn_cast<mlir::RankedTensorType>(value.getType());
  return type && type.hasStaticShape();
}

}  // namespace

mlir::FailureOr<bool> partitionScatter(mlir::Operation* op, PartitionState& state) {
  auto scatter = llvm::dyn_cast<hlo::ScatterOp>(op);
  if (!scatter) return false;
  if (!llvm::all_of(op->getOperands(), isStatic) || !llvm::all_of(op->getResults(), isStatic)) {
    return false;
  }
  hlo::ScatterDimensionNumbersAttr dims = scatter.getScatterDimensionNumbers();
  mlir::Value firstInput = scatter.getInputs().front();
  mlir::Value firstUpdate = scatter.getUpdates().front();
  mlir::Value indices = scatter.getScatterIndices();
  llvm::ArrayRef<int64_t> inputShape = shapeOf(firstInput.getType());
  llvm::ArrayRef<int64_t> updateShape = shapeOf(firstUpdate.getType());
  llvm::ArrayRef<int64_t> indicesShape = shapeOf(indices.getType());
  const int64_t inputRank = inputShape.size();
  llvm::SmallVector<int64_t> indicesBatchDims =
      dimsExcept(indicesShape.size(), {dims.getIndexVectorDim()});
  llvm::SmallVector<int64_t> updateScatterDims =
      dimsExcept(updateShape.size(), dims.getUpdateWindowDims());
  llvm::SmallVector<int64_t> dropped(dims.getInsertedWindowDims());
  llvm::append_range(dropped, dims.getInputBatchingDims());
  llvm::SmallVector<int64_t> windowInputDims = dimsExcept(inputRank, dropped);
  llvm::ArrayRef<int64_t> indexMap = dims.getScatterDimsToOperandDims();

  llvm::SmallVector<Factor> factors;
  for (int64_t dim = 0; dim < inputRank; ++dim) {
    Factor factor;
    factor.inputDim = dim;
    factor.size = inputShape[dim];
    if (llvm::is_contained(dims.getInputBatchingDims(), dim)) {
      factor.indicesDim =
          dims.getScatterIndicesBatchingDims()[positionOf(dims.getInputBatchingDims(), dim)];
      factor.updateDim = updateScatterDims[positionOf(indicesBatchDims, factor.indicesDim)];
    } else if (llvm::is_contained(dims.getInsertedWindowDims(), dim)) {
      if (!llvm::is_contained(indexMap, dim)) continue;  // always element 0: kept whole
      factor.indexed = true;
    } else {
      int64_t updateDim = dims.getUpdateWindowDims()[positionOf(windowInputDims, dim)];
      if (updateShape[updateDim] == inputShape[dim]) {
        factor.updateDim = updateDim;
      } else if (updateShape[updateDim] == 1 && llvm::is_contained(indexMap, dim)) {
        factor.indexed = true;
      } else {
        continue;  // a partial window: kept whole
      }
    }
    factors.push_back(factor);
  }
  // Index batch dimensions, where the partial scatters can be summed.
  auto combiners = hlo::getSingleOpCombiners(scatter.getUpdateComputation(), /*numInputs=*/1);
  auto elementType =
      llvm::cast<mlir::RankedTensorType>(firstInput.getType()).getElementType();
  const bool summable = scatter.getInputs().size() == 1 && combiners &&
                        llvm::isa<hlo::AddOp>((*combiners)[0]) &&
                        !elementType.isInteger(1);
  if (summable) {
    for (int64_t indicesDim : indicesBatchDims) {
      if (llvm::is_contained(dims.getScatterIndicesBatchingDims(), indicesDim)) continue;
      Factor factor;
      factor.indicesDim = indicesDim;
      factor.updateDim = updateScatterDims[positionOf(indicesBatchDims, indicesDim)];
      factor.batch = true;
      factor.size = indicesShape[indicesDim];
      factors.push_back(factor);
    }
  }

  llvm::SmallVector<Layout> annotated;
  for (mlir::OpResult result : op->getResults()) annotated.push_back(state.annotatedLayout(result));
  const LocalValue& input = state.local(firstInput);
  const LocalValue& update = state.local(firstUpdate);
  const LocalValue& index = state.local(indices);
  const Layout* withMesh = nullptr;
  llvm::SmallVector<const Layout*> candidates;
  for (const Layout& layout : annotated) candidates.push_back(&layout);
  for (mlir::Value operand : op->getOperands()) candidates.push_back(&state.local(operand).layout);
  for (const Layout* layout : candidates) {
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
  for (Factor& factor : factors) claim(factor, factor.inputDim, annotated.front());
  for (Factor& factor : factors) claim(factor, factor.inputDim, input.layout);
  for (Factor& factor : factors) claim(factor, factor.updateDim, update.layout);
  for (Factor& factor : factors) claim(factor, factor.indicesDim, index.layout);
  if (!anySplit) return false;

  ir::MeshAttr mesh = withMesh->mesh;
  mlir::FlatSymbolRefAttr meshName = withMesh->meshName;
  Layout inputLayout = Layout::replicated(mesh, meshName, inputRank);
  Layout indicesLayout = Layout::replicated(mesh, meshName, indicesShape.size());
  Layout updateLayout = Layout::replicated(mesh, meshName, updateShape.size());
  Layout indexed = inputLayout;
  AxisList partial;
  llvm::SmallVector<int64_t> batchUpdateDims;
  for (const Factor& factor : factors) {
    if (factor.batch) {
      if (factor.axes.empty()) continue;
      partial.append(factor.axes.begin(), factor.axes.end());
      batchUpdateDims.push_back(factor.updateDim);
    } else {
      inputLayout.dims[factor.inputDim] = factor.axes;
    }
    if (factor.indexed) indexed.dims[factor.inputDim] = factor.axes;
    if (factor.indicesDim != kNone) indicesLayout.dims[factor.indicesDim] = factor.axes;
    if (factor.updateDim != kNone) updateLayout.dims[factor.updateDim] = factor.axes;
  }

  mlir::Location loc = op->getLoc();
  // In operand order (inputs, indices, updates); one value may be used twice.
  llvm::SmallVector<mlir::Value> operands;
  auto localAs = [&](mlir::Value global, const Layout& layout) -> mlir::LogicalResult {
    mlir::FailureOr<mlir::Value> local = state.localAs(global, layout, loc);
    if (mlir::failed(local)) return mlir::failure();
    operands.push_back(*local);
    return mlir::success();
  };
  // With split index batch dims, the input counts once over the group: on its first device.
  Layout inputWithPartial = inputLayout;
  inputWithPartial.unreduced = partial;
  for (mlir::Value value : scatter.getInputs()) {
    if (mlir::failed(localAs(value, inputWithPartial))) return mlir::failure();
  }
  if (mlir::failed(localAs(indices, indicesLayout))) return mlir::failure();
  operands.back() = shiftIndices(state.spmd(), operands.back(),
                                 IndexVectors{dims.getIndexVectorDim(), indexMap}, indexed,
                                 inputShape, /*clampHigh=*/{}, loc);
  for (mlir::Value value : scatter.getUpdates()) {
    if (mlir::failed(localAs(value, updateLayout))) return mlir::failure();
    if (!batchUpdateDims.empty()) {
      // Padded updates of an uneven split add the sum's identity wherever their (padded)
      // index points (-0 for floats: adding +0 would turn a -0 there into +0).
      operands.back() = state.spmd().maskPadding(
          operands.back(), updateLayout, shapeOf(value.getType()), batchUpdateDims,
          state.spmd().additiveIdentityScalar(elementType, loc), loc);
    }
  }

  mlir::Operation* local = state.spmd().builder().clone(*op);
  local->setOperands(operands);
  local->removeAttr(ir::TesselDialect::kShardingAttrName);
  for (auto [index, result] : llvm::enumerate(op->getResults())) {
    auto type = llvm::cast<mlir::RankedTensorType>(result.getType());
    local->getResult(index).setType(mlir::RankedTensorType::get(
        inputLayout.localShape(type.getShape()), type.getElementType()));
    mlir::FailureOr<mlir::Value> resharded = state.spmd().reshard(
        local->getResult(index), inputWithPartial, annotated[index], type.getShape(), loc);
    if (mlir::failed(resharded)) return mlir::failure();
    state.define(result, *resharded, annotated[index], type.getShape());
  }
  return true;
}

}  // namespace tessel::spmd
