// Loop accumulators kept unreduced (loop_accumulators.h).
#include "partitioner/spmd/loop_accumulators.h"

#include "llvm/ADT/SmallVector.h"
#include "mlir/IR/BuiltinTypes.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/spmd/partial_sums.h"

namespace tessel::spmd {
namespace {

// Whether `value`'s sharding exists and neither splits a dimension over `axes` nor names
// unreduced axes yet.
bool canBeUnreducedOver(mlir::Value value, llvm::ArrayRef<ir::AxisRefAttr> axes) {
  ir::ShardingAttr sharding = shardingOf(value);
  if (!sharding || !sharding.getUnreducedAxes().empty()) return false;
  for (ir::DimShardingAttr dim : sharding.getDimShardings()) {
    if (anyOverlap(dim.getAxes(), axes)) return false;
  }
  return true;
}

bool keepUnreduced(hlo::WhileOp loop, unsigned index) {
  mlir::Block& body = loop.getBody().front();
  mlir::Block& cond = loop.getCond().front();
  mlir::BlockArgument carry = body.getArgument(index);
  if (!carry.hasOneUse() || !cond.getArgument(index).use_empty()) return false;
  auto add = body.getTerminator()->getOperand(index).getDefiningOp<hlo::AddOp>();
  if (!add || add->getBlock() != &body || !add->hasOneUse() ||
      *carry.getUsers().begin() != add.getOperation()) {
    return false;
  }
  mlir::Value added = add->getOperand(0) == carry ? add->getOperand(1) : add->getOperand(0);
  if (added == carry) return false;
  // Back from the added value to the partial sum it is linear in.
  llvm::SmallVector<mlir::Operation*> chain;
  AxisList axes;
  for (mlir::Value value = added;;) {
    mlir::Operation* def = value.getDefiningOp();
    if (!def || def->getBlock() != &body || !def->hasOneUse()) return false;
    chain.push_back(def);
    if (auto dot = llvm::dyn_cast<hlo::DotGeneralOp>(def)) {
      axes = partialSumAxes(dot);
      break;
    }
    if (auto conv = llvm::dyn_cast<hlo::ConvolutionOp>(def)) {
      axes = partialSumAxes(conv);
      break;
    }
    if (auto reduce = llvm::dyn_cast<hlo::ReduceOp>(def)) {
      axes = partialSumAxes(reduce);
      break;
    }
    value = linearOperandOf(def);
    if (!value) return false;
  }
  if (axes.empty()) return false;
  chain.push_back(add);
  for (mlir::Operation* op : chain) {
    if (!canBeUnreducedOver(op->getResult(0), axes)) return false;
  }
  if (!canBeUnreducedOver(loop->getResult(index), axes)) return false;
  for (mlir::Operation* op : chain) {
    mlir::OpResult result = op->getResult(0);
    setShardingOf(result, withUnreduced(shardingOf(result), axes));
  }
  mlir::OpResult result = loop->getResult(index);
  setShardingOf(result, withUnreduced(shardingOf(result), axes));
  return true;
}

}  // namespace

int64_t keepLoopAccumulatorsUnreduced(mlir::func::FuncOp func) {
  int64_t kept = 0;
  func.walk([&](hlo::WhileOp loop) {
    for (unsigned index = 0; index < loop->getNumResults(); ++index) {
      kept += keepUnreduced(loop, index);
    }
  });
  return kept;
}

}  // namespace tessel::spmd
