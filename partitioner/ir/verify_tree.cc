// MLIR's verifier run op by op (see verify_tree.h).
#include "partitioner/ir/verify_tree.h"

#include <optional>

#include "llvm/ADT/STLExtras.h"
#include "mlir/IR/Block.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/RegionKindInterface.h"
#include "mlir/IR/Verifier.h"

namespace tessel::ir {
namespace {

// MLIR's rule: a block may lack a terminator only where its op says so, in a region of one
// block, or outside any op.
bool mayLackTerminator(mlir::Block& block) {
  if (!block.getParent()) return true;
  if (!llvm::hasSingleElement(*block.getParent())) return false;
  mlir::Operation* op = block.getParentOp();
  return !op || op->mightHaveTrait<mlir::OpTrait::NoTerminator>();
}

// The checks of a block that do not look inside its ops.
mlir::LogicalResult verifyBlock(mlir::Block& block) {
  for (mlir::BlockArgument arg : block.getArguments()) {
    if (arg.getOwner() != &block) return mlir::emitError(arg.getLoc(), "block argument not owned by block");
  }
  if (block.empty()) {
    if (mayLackTerminator(block)) return mlir::success();
    return mlir::emitError(block.getParent()->getLoc(), "empty block: expect at least a terminator");
  }
  for (mlir::Operation& op : block) {
    if (op.getNumSuccessors() != 0 && &op != &block.back()) {
      return op.emitError("operation with block successors must terminate its parent block");
    }
  }
  for (mlir::Block* successor : block.getSuccessors()) {
    if (successor->getParent() != block.getParent()) {
      return block.back().emitOpError("branching to block of a different region");
    }
  }
  if (mayLackTerminator(block)) return mlir::success();
  mlir::Operation& terminator = block.back();
  if (!terminator.mightHaveTrait<mlir::OpTrait::IsTerminator>()) {
    return block.back().emitError("block with no terminator, has ") << terminator;
  }
  return mlir::success();
}

// What MLIR checks on entering a registered op, before its regions.
mlir::LogicalResult verifyOpOnEntry(mlir::Operation& op, mlir::RegisteredOperationName info) {
  for (mlir::Value operand : op.getOperands()) {
    if (!operand) return op.emitError("null operand found");
  }
  for (mlir::NamedAttribute attr : op.getDiscardableAttrDictionary()) {
    if (mlir::Dialect* dialect = attr.getNameDialect()) {
      if (mlir::failed(dialect->verifyOperationAttribute(&op, attr))) return mlir::failure();
    }
  }
  return info.verifyInvariants(&op);
}

mlir::LogicalResult verifyOp(mlir::Operation& op) {
  std::optional<mlir::RegisteredOperationName> info = op.getRegisteredInfo();
  // Unregistered ops follow rules of their dialect's that MLIR keeps to itself; they are
  // rare enough to hand to it whole.
  if (!info) return mlir::verify(&op);
  if (mlir::failed(verifyOpOnEntry(op, *info))) return mlir::failure();
  if (op.getNumRegions() == 0) return info->verifyRegionInvariants(&op);
  for (mlir::Region& region : op.getRegions()) {
    for (mlir::Block& block : region) {
      if (mlir::failed(verifyBlock(block))) return mlir::failure();
      for (mlir::Operation& nested : block) {
        if (mlir::failed(verifyOp(nested))) return mlir::failure();
      }
    }
  }
  // The nested ops are verified: MLIR's own verifier, told not to recurse, checks the region
  // structure, the region invariants and dominance in the op's regions.
  return mlir::verify(&op, /*verifyRecursively=*/false);
}

}  // namespace

mlir::LogicalResult verifyTree(mlir::Operation* root) { return verifyOp(*root); }

}  // namespace tessel::ir
