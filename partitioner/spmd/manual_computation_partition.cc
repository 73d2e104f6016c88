// tessel.manual_computation (shard_map) inlined into the partitioned function. Its body is
// already per-device code along the manual axes, so each operand is resharded to its
// in_sharding and the body's ops are partitioned in place on their local types (divided by
// the manual axes only). The axes that are not manual stay under automatic partitioning
// inside: body values are split over them as the in_shardings say (those ops carry no
// shardings of their own, so they work on whole values along those axes), and collectives
// and partition_id in the body run as written. The yielded values are resharded to the
// out_shardings' automatic part and become the results with the out_shardings' layouts.
#include "mlir/IR/BuiltinTypes.h"
#include "partitioner/ir/tessel/collective_groups.h"
#include "partitioner/spmd/partition_state.h"

namespace tessel::spmd {
namespace {

bool isManual(ir::AxisRefAttr axis, mlir::ArrayAttr manualAxes) {
  return llvm::is_contained(manualAxes.getAsValueRange<mlir::StringAttr>(), axis.getName());
}

// The layout of a value of `shape` sharded by `sharding`, except that a dimension split by
// both manual and automatic axes whose manual shard the automatic axes do not divide evenly
// keeps only its manual axes: the body pads the manual shard, the global layout would pad
// only the last shards, and the two would not line up.
Layout outerLayout(ir::ShardingAttr sharding, llvm::ArrayRef<int64_t> shape,
                   mlir::ArrayAttr manualAxes, PartitionState& state) {
  Layout layout = state.layoutOf(sharding, shape.size());
  for (auto [dim, axes] : llvm::enumerate(layout.dims)) {
    AxisList manual;
    for (ir::AxisRefAttr axis : axes) {
      if (isManual(axis, manualAxes)) manual.push_back(axis);
    }
    if (manual.size() == axes.size()) continue;
    int64_t manualShards = manual.empty() ? 1 : ir::getGroupSize(layout.mesh, manual);
    int64_t automaticShards = ir::getGroupSize(layout.mesh, axes) / manualShards;
    if ((shape[dim] / manualShards) % automaticShards != 0) axes = manual;
  }
  return layout;
}

// `layout` without its manual axes: how the body's local values are split.
Layout innerLayout(const Layout& layout, mlir::ArrayAttr manualAxes) {
  Layout inner = layout;
  for (AxisList& axes : inner.dims) {
    llvm::erase_if(axes, [&](ir::AxisRefAttr axis) { return isManual(axis, manualAxes); });
  }
  llvm::erase_if(inner.unreduced,
                 [&](ir::AxisRefAttr axis) { return isManual(axis, manualAxes); });
  return inner;
}

}  // namespace

mlir::LogicalResult partitionManualComputation(mlir::Operation* op, PartitionState& state) {
  auto manual = llvm::cast<ir::ManualComputationOp>(op);
  if (state.inManualCode()) {
    return op->emitError() << "cannot partition a manual computation nested in another";
  }
  mlir::ArrayAttr manualAxes = manual.getManualAxes();
  mlir::Block& body = manual.getBody().front();
  for (auto [index, operand] : llvm::enumerate(manual.getOperands())) {
    auto type = llvm::dyn_cast<mlir::RankedTensorType>(operand.getType());
    if (!type || !type.hasStaticShape()) {
      return op->emitError() << "cannot partition operand " << index << " of type "
                             << operand.getType();
    }
    auto sharding = llvm::cast<ir::ShardingAttr>(manual.getInShardings()[index]);
    Layout outer = outerLayout(sharding, type.getShape(), manualAxes, state);
    mlir::FailureOr<mlir::Value> local = state.localAs(operand, outer, op->getLoc());
    if (mlir::failed(local)) return mlir::failure();
    mlir::BlockArgument arg = body.getArgument(index);
    state.define(arg, *local, innerLayout(outer, manualAxes), shapeOf(arg.getType()));
  }
  state.enterManualCode();
  mlir::LogicalResult done = partitionOps(body, state);
  state.exitManualCode();
  if (mlir::failed(done)) return mlir::failure();
  mlir::Operation* terminator = body.getTerminator();
  for (auto [index, result] : llvm::enumerate(manual.getResults())) {
    auto type = llvm::dyn_cast<mlir::RankedTensorType>(result.getType());
    mlir::Value returned = terminator->getOperand(index);
    if (!type || !type.hasStaticShape() || !state.has(returned)) {
      return op->emitError() << "cannot partition result " << index << " of type "
                             << result.getType();
    }
    auto sharding = llvm::cast<ir::ShardingAttr>(manual.getOutShardings()[index]);
    Layout outer = outerLayout(sharding, type.getShape(), manualAxes, state);
    mlir::FailureOr<mlir::Value> local =
        state.localAs(returned, innerLayout(outer, manualAxes), terminator->getLoc());
    if (mlir::failed(local)) return mlir::failure();
    state.define(result, *local, outer, type.getShape());
  }
  return mlir::success();
}

}  // namespace tessel::spmd
