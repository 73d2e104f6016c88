// Last reads of a block's values: one pass over the block and the regions nested in it.
#include "runtime/value_lifetimes.h"

#include <iterator>

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "mlir/IR/Operation.h"

namespace tessel::runtime {

BlockLifetimes::BlockLifetimes(mlir::Block& block) {
  const size_t count = static_cast<size_t>(
      std::distance(block.without_terminator().begin(), block.without_terminator().end()));
  ops_.resize(count);
  // The block's arguments and its ops' results.
  auto definedHere = [&block](mlir::Value value) { return value.getParentBlock() == &block; };
  // The position of each value's last reader, and whether that reader reads it inside one
  // of its regions. The terminator's position is `count`.
  struct LastRead {
    size_t index;
    bool inRegion;
  };
  llvm::DenseMap<mlir::Value, LastRead> lastRead;
  size_t index = 0;
  for (mlir::Operation& op : block) {
    for (mlir::Value operand : op.getOperands()) {
      if (definedHere(operand)) lastRead[operand] = {index, false};
    }
    for (mlir::Region& region : op.getRegions()) {
      region.walk([&](mlir::Operation* nested) {
        for (mlir::Value operand : nested->getOperands()) {
          if (definedHere(operand)) lastRead[operand] = {index, true};
        }
      });
    }
    ++index;
  }
  // An argument nothing reads dies after the first op (the block's first chance to free
  // anything).
  for (mlir::BlockArgument argument : block.getArguments()) {
    auto it = lastRead.find(argument);
    const size_t last = it == lastRead.end() ? 0 : it->second.index;
    if (last < count) ops_[last].dies.push_back(argument);
  }
  index = 0;
  for (mlir::Operation& op : block.without_terminator()) {
    for (mlir::Value result : op.getResults()) {
      auto it = lastRead.find(result);
      const size_t last = it == lastRead.end() ? index : it->second.index;
      if (last < count) ops_[last].dies.push_back(result);
    }
    for (mlir::OpOperand& operand : op.getOpOperands()) {
      mlir::Value value = operand.get();
      auto it = lastRead.find(value);
      if (it == lastRead.end() || it->second.index != index || it->second.inRegion) continue;
      if (llvm::count(op.getOperands(), value) != 1) continue;
      ops_[index].overwritable.push_back(operand.getOperandNumber());
    }
    ++index;
  }
}

}  // namespace tessel::runtime
