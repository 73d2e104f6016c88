// Verification of tessel.sharding_constraint and tessel.reshard: their sharding must fit
// the value's type on an existing mesh.
#include "partitioner/ir/tessel/sharding_verification.h"
#include "partitioner/ir/tessel/tessel_ops.h"

namespace tessel::ir {

mlir::LogicalResult ShardingConstraintOp::verify() {
  return verifySharding([&]() { return emitOpError(); }, getSharding(), getType(), *this);
}

mlir::LogicalResult ReshardOp::verify() {
  return verifySharding([&]() { return emitOpError(); }, getSharding(), getType(), *this);
}

}  // namespace tessel::ir
