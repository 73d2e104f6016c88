// hlo.reduce_window split along any dimensions. Each input is split like the results;
// along a dimension whose window is trivial (size 1, stride 1, no padding or dilation)
// shards pass through, along any other each shard fetches the halo its windows read
// (halo_exchange.h) with the input's init value as the fill of the op's padding, of base
// dilation holes and of uneven shards' padding, so the local reduce_window runs without
// padding or base dilation there. Results with different layouts, or unreduced ones, are
// declined.
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/IRMapping.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/spmd/halo_exchange.h"
#include "partitioner/spmd/partition_state.h"

namespace tessel::spmd {

mlir::FailureOr<bool> partitionReduceWindow(mlir::Operation* op, PartitionState& state) {
  auto reduceWindow = llvm::dyn_cast<hlo::ReduceWindowOp>(op);
  if (!reduceWindow) return false;
  Layout out = state.annotatedLayout(op->getResult(0));
  if (!out.mesh || !out.unreduced.empty()) return false;
  for (mlir::OpResult result : op->getResults()) {
    if (state.annotatedLayout(result) != out) return false;
  }
  llvm::ArrayRef<int64_t> outShape = shapeOf(op->getResult(0).getType());
  llvm::ArrayRef<int64_t> inShape = state.local(reduceWindow.getInputs()[0]).shape;
  for (int64_t d = 0; d < out.rank(); ++d) {
    // Empty dimensions have no shards to exchange halos between.
    if (out.numShards(d) > 1 && (outShape[d] == 0 || inShape[d] == 0)) return false;
  }
  llvm::SmallVector<WindowDim> window = windowDims(
      reduceWindow.getWindowDimensions(), reduceWindow.getWindowStrides(),
      reduceWindow.getBaseDilations(), reduceWindow.getWindowDilations(),
      reduceWindow.getPadding());

  mlir::Location loc = op->getLoc();
  SpmdBuilder& spmd = state.spmd();
  mlir::IRMapping mapping;
  const size_t numInputs = reduceWindow.getInputs().size();
  llvm::SmallVector<mlir::Value> inits;
  for (mlir::Value init : reduceWindow.getInitValues()) {
    mlir::FailureOr<mlir::Value> local =
        state.localAs(init, Layout::replicated(out.mesh, out.meshName, 0), loc);
    if (mlir::failed(local)) return mlir::failure();
    inits.push_back(*local);
    mapping.map(init, *local);
  }
  llvm::SmallVector<WindowDim> localWindow = window;
  for (size_t i = 0; i < numInputs; ++i) {
    mlir::Value input = reduceWindow.getInputs()[i];
    mlir::FailureOr<mlir::Value> local = state.localAs(input, out, loc);
    if (mlir::failed(local)) return mlir::failure();
    mlir::Value value = *local;
    for (int64_t d = 0; d < out.rank(); ++d) {
      if (out.numShards(d) == 1 || window[d].isTrivial()) continue;
      value = haloForWindow(spmd, value, out, state.local(input).shape, d, window[d],
                            outShape[d], inits[i], loc);
      localWindow[d].padLow = localWindow[d].padHigh = 0;
      localWindow[d].baseDilation = 1;
    }
    mapping.map(input, value);
  }

  auto local = llvm::cast<hlo::ReduceWindowOp>(spmd.builder().clone(*op, mapping));
  local->walk([](mlir::Operation* nested) {
    nested->removeAttr(ir::TesselDialect::kShardingAttrName);
  });
  if (reduceWindow.getPadding()) local.setPaddingAttr(paddingAttr(op->getContext(), localWindow));
  if (reduceWindow.getBaseDilations()) {
    llvm::SmallVector<int64_t> dilations;
    for (const WindowDim& dim : localWindow) dilations.push_back(dim.baseDilation);
    local.setBaseDilations(llvm::ArrayRef<int64_t>(dilations));
  }
  for (auto [index, result] : llvm::enumerate(op->getResults())) {
    auto type = llvm::cast<mlir::RankedTensorType>(result.getType());
    local->getResult(index).setType(
        mlir::RankedTensorType::get(out.localShape(type.getShape()), type.getElementType()));
    state.define(result, local->getResult(index), out, type.getShape());
  }
  return true;
}

}  // namespace tessel::spmd
