// The mark auto-sharding leaves on the shardings it writes (an op's `tessel.sharding`, a
// function argument's), so that propagation can tell a reshard the solver chose to pay from
// a conflict between the user's own annotations, and explanations can say where a sharding
// came from. Propagation reads the marks and removes them, so they never reach the
// partitioned program.
//
//   markAutoChosen(op);                 // after op->setAttr("tessel.sharding", ...)
//   if (isAutoChosen(value)) ...        // during propagation
//   clearAutoChosen(module);            // when propagation is done
#ifndef TESSEL_PARTITIONER_IR_AUTO_CHOSEN_H_
#define TESSEL_PARTITIONER_IR_AUTO_CHOSEN_H_

#include "llvm/ADT/StringRef.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

namespace tessel::ir {

inline constexpr llvm::StringLiteral kAutoChosenAttrName = "tessel.auto_chosen";

inline void markAutoChosen(mlir::Operation* op) {
  op->setAttr(kAutoChosenAttrName, mlir::UnitAttr::get(op->getContext()));
}

inline void markAutoChosen(mlir::func::FuncOp func, unsigned argument) {
  func.setArgAttr(argument, kAutoChosenAttrName, mlir::UnitAttr::get(func.getContext()));
}

// Whether auto-sharding wrote `value`'s sharding: a marked op's result, or a marked
// argument of a function.
inline bool isAutoChosen(mlir::Value value) {
  if (auto argument = llvm::dyn_cast<mlir::BlockArgument>(value)) {
    auto func = llvm::dyn_cast_or_null<mlir::func::FuncOp>(argument.getOwner()->getParentOp());
    return func && argument.getOwner()->isEntryBlock() &&
           func.getArgAttr(argument.getArgNumber(), kAutoChosenAttrName) != nullptr;
  }
  mlir::Operation* op = value.getDefiningOp();
  return op && op->hasAttr(kAutoChosenAttrName);
}

inline void clearAutoChosen(mlir::ModuleOp module) {
  // A dialect attribute, looked up by its identifier: no op has it inherent, and hashing
  // the name again for every op of a large module showed in profiles.
  auto name = mlir::StringAttr::get(module.getContext(), kAutoChosenAttrName);
  module.walk([&](mlir::Operation* op) {
    op->removeDiscardableAttr(name);
    if (auto func = llvm::dyn_cast<mlir::func::FuncOp>(op)) {
      for (unsigned i = 0; i < func.getNumArguments(); ++i) {
        func.removeArgAttr(i, name);
      }
    }
  });
}

}  // namespace tessel::ir

#endif  // TESSEL_PARTITIONER_IR_AUTO_CHOSEN_H_
