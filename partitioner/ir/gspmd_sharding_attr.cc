// The predicate over GSPMD sharding strings left by the readers (see the header).
#include "partitioner/ir/gspmd_sharding_attr.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace tessel::ir {

bool HasGspmdShardingStrings(mlir::Operation* root) {
  auto found = root->walk([](mlir::Operation* op) {
    if (op->getDiscardableAttr(kGspmdShardingAttr)) return mlir::WalkResult::interrupt();
    if (auto function = llvm::dyn_cast<mlir::func::FuncOp>(op)) {
      for (unsigned i = 0; i < function.getNumArguments(); ++i) {
        if (function.getArgAttr(i, kGspmdShardingAttr)) return mlir::WalkResult::interrupt();
      }
      for (unsigned i = 0; i < function.getNumResults(); ++i) {
        if (function.getResultAttr(i, kGspmdShardingAttr)) return mlir::WalkResult::interrupt();
      }
    }
    return mlir::WalkResult::advance();
  });
  return found.wasInterrupted();
}

}  // namespace tessel::ir
