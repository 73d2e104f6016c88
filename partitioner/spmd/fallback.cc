// The fallback: every op without a handler runs on whole tensors. Its operands are
// resharded to replicated, the op is cloned unchanged (nested ops lose their shardings),
// and each result is cut to its annotated layout. Correct for every op, not fast; a remark
// names the op so users and tests see where it happens.
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/IRMapping.h"
#include "partitioner/spmd/partition_state.h"

namespace tessel::spmd {
namespace {

int64_t byteSize(mlir::Type type) {
  auto tensor = llvm::dyn_cast<mlir::RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape()) return 0;
  int64_t bits = tensor.getElementType().getIntOrFloatBitWidth();
  return tensor.getNumElements() * ((bits + 7) / 8);
}

}  // namespace

mlir::LogicalResult partitionByReplication(mlir::Operation* op, PartitionState& state,
                                           bool remark) {
  int64_t replicatedBytes = 0;
  for (mlir::Value operand : op->getOperands()) {
    const LocalValue& current = state.local(operand);
    auto type = mlir::RankedTensorType::get(
        current.shape, llvm::cast<mlir::ShapedType>(operand.getType()).getElementType());
    if (current.layout.isSplit()) replicatedBytes += byteSize(type);
  }
  if (remark && replicatedBytes > 0 && state.options().replicationIsError) {
    return op->emitError() << "'" << op->getName() << "' would be partitioned by replication ("
                           << replicatedBytes
                           << " bytes of split operands gathered), which the options forbid";
  }
  mlir::IRMapping mapping;
  for (mlir::Value operand : op->getOperands()) {
    const LocalValue& current = state.local(operand);
    auto type = mlir::RankedTensorType::get(
        current.shape, llvm::cast<mlir::ShapedType>(operand.getType()).getElementType());
    const Layout& from = current.layout;
    Layout whole = Layout::replicated(from.mesh, from.meshName, type.getRank());
    mlir::FailureOr<mlir::Value> local = state.localAs(operand, whole, op->getLoc());
    if (mlir::failed(local)) return mlir::failure();
    mapping.map(operand, *local);
  }
  mlir::Operation* global = state.spmd().builder().clone(*op, mapping);
  global->walk([](mlir::Operation* nested) {
    nested->removeAttr(ir::TesselDialect::kShardingAttrName);
  });
  for (auto [index, result] : llvm::enumerate(op->getResults())) {
    auto type = llvm::dyn_cast<mlir::RankedTensorType>(result.getType());
    if (!type || !type.hasStaticShape()) {
      return op->emitError() << "cannot partition a result of type " << result.getType();
    }
    Layout to = state.annotatedLayout(result);
    Layout whole = Layout::replicated(to.mesh, to.meshName, type.getRank());
    mlir::FailureOr<mlir::Value> local = state.spmd().reshard(
        global->getResult(index), whole, to, type.getShape(), op->getLoc());
    if (mlir::failed(local)) return mlir::failure();
    state.define(result, *local, to, type.getShape());
  }
  if (remark) {
    op->emitRemark() << "'" << op->getName() << "' is partitioned by replication: "
                     << replicatedBytes << " bytes of split operands are gathered";
  }
  return mlir::success();
}

}  // namespace tessel::spmd
