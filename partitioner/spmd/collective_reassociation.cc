// Folding sums of reductions into reductions of sums (see collective_reassociation.h).
#include "partitioner/spmd/collective_reassociation.h"

#include <algorithm>
#include <deque>
#include <optional>

#include "llvm/ADT/DenseSet.h"
#include "mlir/IR/Builders.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/ir/tessel/tessel_ops.h"
#include "partitioner/spmd/partial_sums.h"

namespace tessel::spmd {
namespace {

// The sum reduction that defines `value` and that nothing else reads, or null.
mlir::Operation* soleSumReduction(mlir::Value value) {
  mlir::Operation* def = value.getDefiningOp();
  if (!def || !def->hasOneUse()) return nullptr;
  if (auto allReduce = llvm::dyn_cast<ir::AllReduceOp>(def)) {
    return allReduce.getKind() == ir::ReductionKind::Sum ? def : nullptr;
  }
  if (auto scatter = llvm::dyn_cast<ir::ReduceScatterOp>(def)) {
    return scatter.getKind() == ir::ReductionKind::Sum ? def : nullptr;
  }
  return nullptr;
}

// Whether two reductions combine alike: same op, mesh, axes, (scatter) dimension, operand
// type.
bool sameReduction(mlir::Operation* a, mlir::Operation* b) {
  if (a->getName() != b->getName() || a->getBlock() != b->getBlock()) return false;
  if (a->getOperand(0).getType() != b->getOperand(0).getType()) return false;
  return a->getAttrDictionary() == b->getAttrDictionary();
}

// Whether `value` is the same on every device: a constant, or a broadcast of one.
bool isUniformConstant(mlir::Value value) {
  mlir::Operation* def = value.getDefiningOp();
  if (auto broadcast = llvm::dyn_cast_or_null<hlo::BroadcastInDimOp>(def)) {
    def = broadcast->getOperand(0).getDefiningOp();
  }
  return llvm::isa_and_nonnull<hlo::ConstantOp>(def);
}

// The operand of `op` that a sum all_reduce can move before exactly: one that partial sums
// pass through linearly (linearOperandOf), where `op` applies the same map on every device
// (a scale must be a constant, not a scalar that may differ between devices) and keeps the
// precision (no convert: summing in another precision changes the result). Null otherwise.
mlir::Value linearOperand(mlir::Operation* op) {
  if (llvm::isa<hlo::ConvertOp>(op)) return {};
  mlir::Value input = linearOperandOf(op);
  if (!input || !llvm::isa<hlo::MulOp, hlo::DivOp>(op)) return input;
  mlir::Value scale = op->getOperand(0) == input ? op->getOperand(1) : op->getOperand(0);
  return isUniformConstant(scale) ? input : mlir::Value();
}

// A sum all_reduce that reaches `value` through linear ops (linearOperand), each read only
// on that path, and the ops from the all_reduce's user to `value`'s definition.
struct Peeled {
  mlir::Operation* reduction = nullptr;
  llvm::SmallVector<mlir::Operation*, 4> chain;  // nearest the reduction first
};

std::optional<Peeled> peelLinearOps(mlir::Value value) {
  Peeled peeled;
  mlir::Value current = value;
  while (true) {
    mlir::Operation* def = current.getDefiningOp();
    if (!def || !def->hasOneUse()) return std::nullopt;
    if (auto allReduce = llvm::dyn_cast<ir::AllReduceOp>(def)) {
      if (allReduce.getKind() != ir::ReductionKind::Sum || peeled.chain.empty()) {
        return std::nullopt;
      }
      peeled.reduction = def;
      std::reverse(peeled.chain.begin(), peeled.chain.end());
      return peeled;
    }
    mlir::Value input = linearOperand(def);
    if (!input) return std::nullopt;
    peeled.chain.push_back(def);
    current = input;
  }
}

// Moves the all_reduce of `peeled` after its chain: the chain's ops apply to the
// all_reduce's operand, and one all_reduce of the result replaces the chain's last value.
void sinkReduction(const Peeled& peeled) {
  mlir::Operation* reduction = peeled.reduction;
  mlir::Value local = reduction->getOperand(0);
  mlir::Value reduced = reduction->getResult(0);
  for (mlir::Operation* op : peeled.chain) {
    mlir::OpBuilder builder(op);
    mlir::Operation* moved = builder.clone(*op);
    for (mlir::OpOperand& operand : moved->getOpOperands()) {
      if (operand.get() == reduced) operand.set(local);
    }
    local = moved->getResult(0);
    reduced = op->getResult(0);
  }
  mlir::Operation* last = peeled.chain.back();
  mlir::OpBuilder builder(last);
  mlir::Operation* sunk = builder.clone(*reduction);
  sunk->setOperand(0, local);
  sunk->getResult(0).setType(local.getType());
  last->getResult(0).replaceAllUsesWith(sunk->getResult(0));
  for (mlir::Operation* op : llvm::reverse(peeled.chain)) op->erase();
  reduction->erase();
}

// An add or sub whose operands are both sum all_reduces of matching mesh and axes seen
// through linear ops (a scaled partial sum added to another): the all_reduces move after
// those ops, so that the add then reads two reductions it can fold into one. True when it
// moved any.
bool sinkThroughLinearOps(mlir::Operation* op) {
  if (!llvm::isa<hlo::AddOp, hlo::SubOp>(op)) return false;
  std::optional<Peeled> sides[2];
  mlir::Operation* reductions[2];
  for (unsigned i = 0; i < 2; ++i) {
    sides[i] = peelLinearOps(op->getOperand(i));
    reductions[i] = sides[i] ? sides[i]->reduction : soleSumReduction(op->getOperand(i));
    if (!reductions[i] || !llvm::isa<ir::AllReduceOp>(reductions[i])) return false;
  }
  if (!sides[0] && !sides[1]) return false;
  if (reductions[0] == reductions[1] || reductions[0]->getBlock() != op->getBlock() ||
      reductions[1]->getBlock() != op->getBlock() ||
      reductions[0]->getAttrDictionary() != reductions[1]->getAttrDictionary()) {
    return false;
  }
  for (const std::optional<Peeled>& side : sides) {
    if (side) sinkReduction(*side);
  }
  return true;
}

// What a rewrite erased and which new add or sub it made (to look at again).
struct Rewrite {
  llvm::SmallVector<mlir::Operation*, 4> erased;
  mlir::Operation* reduction = nullptr;  // the new reduction
  mlir::Operation* result = nullptr;     // the new outer add, if any
};

// Rewrites `op` (an add or a sub of two matching reductions); true when it did.
bool reassociate(mlir::Operation* op, Rewrite& rewrite) {
  if (!llvm::isa<hlo::AddOp, hlo::SubOp>(op)) return false;
  mlir::Operation* lhs = soleSumReduction(op->getOperand(0));
  mlir::Operation* rhs = soleSumReduction(op->getOperand(1));
  if (!lhs || !rhs || lhs == rhs || !sameReduction(lhs, rhs)) return false;
  mlir::OpBuilder builder(op);
  mlir::Value lhsOperand = lhs->getOperand(0), rhsOperand = rhs->getOperand(0);
  mlir::Operation* combined = builder.clone(*op);
  combined->setOperands({lhsOperand, rhsOperand});
  combined->getResult(0).setType(lhsOperand.getType());
  mlir::Operation* reduction = builder.clone(*lhs);
  reduction->setOperand(0, combined->getResult(0));
  op->getResult(0).replaceAllUsesWith(reduction->getResult(0));
  rewrite.erased = {op, lhs, rhs};
  rewrite.reduction = reduction;
  op->erase();
  lhs->erase();
  rhs->erase();
  return true;
}

// `(v + reduce(a)) + reduce(b)` (either order in either add, the inner add read only by the
// outer): `v + reduce(a + b)`, so a residual added first does not split the pair. The
// reductions must match as above.
bool reassociateThroughAdd(mlir::Operation* op, Rewrite& rewrite) {
  if (!llvm::isa<hlo::AddOp>(op)) return false;
  for (unsigned outer = 0; outer < 2; ++outer) {
    mlir::Operation* second = soleSumReduction(op->getOperand(outer));
    mlir::Operation* inner = op->getOperand(1 - outer).getDefiningOp();
    if (!second || !inner || !llvm::isa<hlo::AddOp>(inner) || !inner->hasOneUse() ||
        inner->getBlock() != op->getBlock()) {
      continue;
    }
    for (unsigned pick = 0; pick < 2; ++pick) {
      mlir::Operation* first = soleSumReduction(inner->getOperand(pick));
      if (!first || first == second || !sameReduction(first, second)) continue;
      mlir::Value rest = inner->getOperand(1 - pick);
      mlir::OpBuilder builder(op);
      mlir::Operation* combined = builder.clone(*inner);
      combined->setOperands({first->getOperand(0), second->getOperand(0)});
      combined->getResult(0).setType(first->getOperand(0).getType());
      mlir::Operation* reduction = builder.clone(*first);
      reduction->setOperand(0, combined->getResult(0));
      mlir::Operation* result = builder.clone(*op);
      result->setOperands({rest, reduction->getResult(0)});
      op->getResult(0).replaceAllUsesWith(result->getResult(0));
      rewrite.erased = {op, inner, first, second};
      rewrite.reduction = reduction;
      rewrite.result = result;
      op->erase();
      inner->erase();
      first->erase();
      second->erase();
      return true;
    }
  }
  return false;
}

}  // namespace

int64_t reassociateReductions(mlir::func::FuncOp func) {
  std::deque<mlir::Operation*> worklist;
  func.walk([&](mlir::Operation* op) {
    if (llvm::isa<hlo::AddOp, hlo::SubOp>(op)) worklist.push_back(op);
  });
  llvm::DenseSet<mlir::Operation*> erased;
  int64_t removed = 0;
  while (!worklist.empty()) {
    mlir::Operation* op = worklist.front();
    worklist.pop_front();
    if (erased.contains(op)) continue;
    Rewrite rewrite;
    // A scaled partial sum first: its all_reduce moves after the scaling.
    sinkThroughLinearOps(op);
    if (!reassociate(op, rewrite) && !reassociateThroughAdd(op, rewrite)) continue;
    ++removed;
    erased.insert(rewrite.erased.begin(), rewrite.erased.end());
    // The new reduction may now pair with another where it is read.
    for (mlir::Operation* made : {rewrite.reduction, rewrite.result}) {
      if (!made) continue;
      for (mlir::Operation* user : made->getResult(0).getUsers()) {
        if (llvm::isa<hlo::AddOp, hlo::SubOp>(user)) worklist.push_back(user);
      }
    }
  }
  return removed;
}

}  // namespace tessel::spmd
