// Loop-invariant code motion for hlo.while and common-code hoisting for hlo.case (see
// loop_invariant_hoisting.h).
#include "partitioner/spmd/loop_invariant_hoisting.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "partitioner/ir/hlo/hlo_ops.h"

namespace tessel::spmd {
namespace {

bool isMovable(mlir::Operation& op) {
  return op.getNumRegions() == 0 && !op.hasTrait<mlir::OpTrait::IsTerminator>() &&
         mlir::isPure(&op);
}

// Whether every operand of `op` is defined outside `region`'s parent op.
bool usesOnlyOutside(mlir::Operation& op, mlir::Operation* parent) {
  return llvm::all_of(op.getOperands(), [&](mlir::Value value) {
    return !parent->isAncestor(value.getParentBlock()->getParentOp());
  });
}

int hoistFromLoop(hlo::WhileOp loop) {
  // Listed before the state is rewritten: the list reads unchanged state as invariant.
  const llvm::SmallVector<mlir::Operation*> invariant = loopInvariantOps(loop);
  mlir::Block& body = loop.getBody().front();
  mlir::Block& cond = loop.getCond().front();
  mlir::Operation* yield = body.getTerminator();
  // A state the body returns unchanged holds its initial value on every trip: read that.
  for (unsigned i = 0; i < loop->getNumOperands(); ++i) {
    if (yield->getOperand(i) != body.getArgument(i)) continue;
    mlir::Value initial = loop->getOperand(i);
    body.getArgument(i).replaceUsesWithIf(
        initial, [&](mlir::OpOperand& use) { return use.getOwner() != yield; });
    cond.getArgument(i).replaceAllUsesWith(initial);
  }
  for (mlir::Operation* op : invariant) op->moveBefore(loop);
  return static_cast<int>(invariant.size());
}

// Ops that every branch of `caseOp` computes alike from values outside it: one copy moves
// before the case and the others read it.
int hoistFromCase(hlo::CaseOp caseOp) {
  auto branches = caseOp->getRegions();
  if (branches.size() < 2) return 0;
  int moved = 0;
  mlir::Block& first = branches.front().front();
  for (mlir::Operation& op : llvm::make_early_inc_range(first.without_terminator())) {
    if (!isMovable(op) || !usesOnlyOutside(op, caseOp)) continue;
    llvm::SmallVector<mlir::Operation*> twins;
    for (mlir::Region& branch : branches.drop_front()) {
      mlir::Operation* twin = nullptr;
      for (mlir::Operation& candidate : branch.front().without_terminator()) {
        if (mlir::OperationEquivalence::isEquivalentTo(
                &op, &candidate, mlir::OperationEquivalence::IgnoreLocations)) {
          twin = &candidate;
          break;
        }
      }
      if (!twin) break;
      twins.push_back(twin);
    }
    if (twins.size() + 1 != branches.size()) continue;
    op.moveBefore(caseOp);
    for (mlir::Operation* twin : twins) {
      twin->replaceAllUsesWith(&op);
      twin->erase();
    }
    ++moved;
  }
  return moved;
}

}  // namespace

llvm::SmallVector<mlir::Operation*> loopInvariantOps(hlo::WhileOp loop) {
  mlir::Block& body = loop.getBody().front();
  mlir::Operation* yield = body.getTerminator();
  llvm::SmallPtrSet<mlir::Operation*, 8> listed;
  auto invariant = [&](mlir::Value value) {
    if (auto argument = llvm::dyn_cast<mlir::BlockArgument>(value)) {
      if (argument.getOwner() == &body) {
        return yield->getOperand(argument.getArgNumber()) == value;
      }
    }
    mlir::Operation* def = value.getDefiningOp();
    if (def && def->getBlock() == &body) return listed.contains(def);
    return !loop->isAncestor(value.getParentBlock()->getParentOp());
  };
  llvm::SmallVector<mlir::Operation*> ops;
  for (mlir::Operation& op : body.without_terminator()) {
    if (!isMovable(op) || !llvm::all_of(op.getOperands(), invariant)) continue;
    listed.insert(&op);
    ops.push_back(&op);
  }
  return ops;
}

int hoistInvariantCode(mlir::func::FuncOp func) {
  // Post-order: inner loops and cases first, so invariant code climbs every level.
  llvm::SmallVector<mlir::Operation*> regions;
  func.walk([&](mlir::Operation* op) {
    if (llvm::isa<hlo::WhileOp, hlo::CaseOp>(op)) regions.push_back(op);
  });
  int moved = 0;
  for (mlir::Operation* op : regions) {
    if (auto loop = llvm::dyn_cast<hlo::WhileOp>(op)) moved += hoistFromLoop(loop);
    if (auto caseOp = llvm::dyn_cast<hlo::CaseOp>(op)) moved += hoistFromCase(caseOp);
  }
  return moved;
}

}  // namespace tessel::spmd
