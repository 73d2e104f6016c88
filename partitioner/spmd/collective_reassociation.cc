// Folding sums of reductions into reductions of sums (see collective_reassociation.h).
#include "partitioner/spmd/collective_reassociation.h"

#include <deque>

#include "llvm/ADT/DenseSet.h"
#include "mlir/IR/Builders.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/ir/tessel/tessel_ops.h"

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
