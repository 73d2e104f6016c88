// iota split along its counting dimension: each shard counts from its own offset, so the
// local iota gets shardIndex * localLength added (from a table indexed by partition_id).
// Splits of other dimensions need nothing: every row counts the same way.
#include "mlir/IR/BuiltinTypes.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/spmd/partition_state.h"

namespace tessel::spmd {

mlir::FailureOr<bool> partitionIota(mlir::Operation* op, PartitionState& state) {
  auto iota = llvm::dyn_cast<hlo::IotaOp>(op);
  if (!iota) return false;
  auto type = llvm::cast<mlir::RankedTensorType>(iota.getType());
  Layout layout = state.annotatedLayout(iota->getResult(0));
  if (!layout.unreduced.empty() || !type.hasStaticShape()) return false;
  const int64_t dim = iota.getIotaDimension();
  llvm::SmallVector<int64_t> localShape = layout.localShape(type.getShape());
  auto localType = mlir::RankedTensorType::get(localShape, type.getElementType());
  mlir::OpBuilder& builder = state.spmd().builder();
  mlir::Location loc = iota.getLoc();
  mlir::Value local = builder.create<hlo::IotaOp>(loc, localType, builder.getI64IntegerAttr(dim));
  if (layout.numShards(dim) > 1) {
    const int64_t length = localShape[dim];
    mlir::Value offset = state.spmd().lookupPerDevice(
        layout.mesh, [&](int64_t linear) { return layout.shardIndex(dim, linear) * length; },
        loc);
    auto scalarType = mlir::RankedTensorType::get({}, type.getElementType());
    if (scalarType != offset.getType()) {
      offset = builder.create<hlo::ConvertOp>(loc, scalarType, offset);
    }
    mlir::Value offsets =
        builder.create<hlo::BroadcastInDimOp>(loc, localType, offset, builder.getDenseI64ArrayAttr({}));
    local = builder.create<hlo::AddOp>(loc, localType, local, offsets);
  }
  state.define(iota->getResult(0), local, layout, type.getShape());
  return true;
}

}  // namespace tessel::spmd
