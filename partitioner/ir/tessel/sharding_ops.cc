// Verification of tessel.sharding_constraint and tessel.reshard (their sharding must fit
// the value's type on an existing mesh) and of tessel.sharding_group (one shape).
#include "partitioner/ir/tessel/sharding_verification.h"
#include "partitioner/ir/tessel/tessel_ops.h"

namespace tessel::ir {

mlir::LogicalResult ShardingConstraintOp::verify() {
  return verifySharding([&]() { return emitOpError(); }, getSharding(), getType(), *this);
}

mlir::LogicalResult ReshardOp::verify() {
  return verifySharding([&]() { return emitOpError(); }, getSharding(), getType(), *this);
}

mlir::LogicalResult ShardingGroupOp::verify() {
  if (getInputs().empty()) return emitOpError() << "needs at least one value";
  auto first = llvm::cast<mlir::RankedTensorType>(getInputs().front().getType());
  for (auto [i, input] : llvm::enumerate(getInputs())) {
    auto type = llvm::cast<mlir::RankedTensorType>(input.getType());
    if (type.getShape() != first.getShape()) {
      return emitOpError() << "value " << i << " has shape " << type << ", unlike value 0 ("
                           << first << "): only values of one shape can be sharded alike";
    }
  }
  return mlir::success();
}

}  // namespace tessel::ir
