// Conversions between propagation state and sharding attributes.
#include "partitioner/propagation/tensor_state.h"

namespace tessel::propagation {

bool TensorState::hasAxes() const {
  for (const DimState& dim : dims) {
    if (!dim.axes.empty()) return true;
  }
  return false;
}

AxisList TensorState::allAxes() const {
  AxisList axes;
  for (const DimState& dim : dims) axes.append(dim.axes.begin(), dim.axes.end());
  axes.append(replicated.begin(), replicated.end());
  axes.append(unreduced.begin(), unreduced.end());
  return axes;
}

TensorState stateFromAttr(ir::ShardingAttr sharding, MeshAttr mesh) {
  TensorState state;
  state.meshName = sharding.getMeshName();
  state.mesh = mesh;
  for (ir::DimShardingAttr dim : sharding.getDimShardings()) {
    DimState dimState;
    dimState.axes.assign(dim.getAxes().begin(), dim.getAxes().end());
    dimState.closed = dim.getIsClosed();
    // Priorities are not negative (the attribute's verifier), so none is the sentinel.
    dimState.priority = dim.getPriority().value_or(DimState::kNoPriority);
    state.dims.push_back(std::move(dimState));
  }
  state.replicated.assign(sharding.getReplicatedAxes().begin(),
                          sharding.getReplicatedAxes().end());
  state.unreduced.assign(sharding.getUnreducedAxes().begin(),
                         sharding.getUnreducedAxes().end());
  return state;
}

TensorState openState(mlir::FlatSymbolRefAttr meshName, MeshAttr mesh, int64_t rank) {
  TensorState state;
  state.meshName = meshName;
  state.mesh = mesh;
  state.dims.resize(rank);
  return state;
}

ir::ShardingAttr stateToAttr(const TensorState& state, mlir::MLIRContext* context,
                             bool closeOpenDims) {
  return ShardingAttrWriter(context).write(state, closeOpenDims);
}

void ShardingAttrWriter::makeKey(const TensorState& state, bool closeOpenDims, Key& key) {
  auto pointer = [](const void* p) { return reinterpret_cast<uintptr_t>(p); };
  auto appendAxes = [&](llvm::ArrayRef<AxisRefAttr> axes) {
    key.push_back(axes.size());
    for (AxisRefAttr axis : axes) key.push_back(pointer(axis.getAsOpaquePointer()));
  };
  key.clear();
  key.push_back(pointer(state.meshName.getAsOpaquePointer()));
  key.push_back(pointer(state.mesh.getAsOpaquePointer()));
  key.push_back(state.dims.size());
  for (const DimState& dim : state.dims) {
    key.push_back(dim.closed || closeOpenDims);
    key.push_back(static_cast<uintptr_t>(dim.priority));
    appendAxes(dim.axes);
  }
  appendAxes(state.replicated);
  appendAxes(state.unreduced);
}

ir::ShardingAttr ShardingAttrWriter::write(const TensorState& state, bool closeOpenDims) {
  makeKey(state, closeOpenDims, scratch_);
  if (const ir::ShardingAttr* found = written_.find(scratch_)) return *found;
  return written_.insert(scratch_, make(state, closeOpenDims));
}

ir::ShardingAttr ShardingAttrWriter::make(const TensorState& state, bool closeOpenDims) {
  llvm::SmallVector<ir::DimShardingAttr, 4> dims;
  for (const DimState& dim : state.dims) {
    const bool closed = dim.closed || closeOpenDims;
    if (dim.axes.empty() && !dim.hasPriority()) {
      ir::DimShardingAttr& empty = emptyDims_[closed];
      if (!empty) empty = ir::DimShardingAttr::get(context_, {}, closed, std::nullopt);
      dims.push_back(empty);
      continue;
    }
    AxisList axes = mergeAdjacent(dim.axes, state.mesh);
    dims.push_back(ir::DimShardingAttr::get(context_, axes, closed, dim.optionalPriority()));
  }
  return ir::ShardingAttr::get(context_, state.meshName, dims, state.replicated,
                               state.unreduced);
}

}  // namespace tessel::propagation
