// Liveness over a function's ops in order, with nested regions counted at their op (see
// peak_memory.h).
#include "cost_model/peak_memory.h"

#include <algorithm>
#include <iterator>
#include <vector>

#include "cost_model/tensor_bytes.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "mlir/IR/SymbolTable.h"

namespace tessel::cost_model {
namespace {

struct BlockPeak {
  int64_t bytes = 0;  // the peak of the values defined in the block (not its arguments)
  int64_t index = 0;  // the op where it is reached
};

using Visiting = llvm::SmallPtrSet<mlir::Operation*, 4>;

BlockPeak PeakOfBlock(mlir::Block& block, Visiting& visiting);

// The largest peak of the values defined inside `op`'s regions, or in its callee for a call.
int64_t NestedPeak(mlir::Operation* op, Visiting& visiting) {
  int64_t peak = 0;
  for (mlir::Region& region : op->getRegions()) {
    for (mlir::Block& block : region) peak = std::max(peak, PeakOfBlock(block, visiting).bytes);
  }
  if (auto call = llvm::dyn_cast<mlir::func::CallOp>(op)) {
    auto callee = mlir::SymbolTable::lookupNearestSymbolFrom<mlir::func::FuncOp>(
        op, call.getCalleeAttr());
    // A recursive call would count its callee forever; the first visit already holds it.
    if (callee && !callee.isExternal() && visiting.insert(callee).second) {
      peak = std::max(peak, PeakOfBlock(callee.getBody().front(), visiting).bytes);
      visiting.erase(callee);
    }
  }
  return peak;
}

BlockPeak PeakOfBlock(mlir::Block& block, Visiting& visiting) {
  llvm::DenseMap<mlir::Operation*, int64_t> position;
  std::vector<mlir::Operation*> ops;
  for (mlir::Operation& op : block) {
    position[&op] = static_cast<int64_t>(ops.size());
    ops.push_back(&op);
  }
  // change[i]: bytes that become live at op i (negative: freed after op i - 1).
  std::vector<int64_t> change(ops.size() + 1, 0);
  for (auto [index, op] : llvm::enumerate(ops)) {
    for (mlir::Value result : op->getResults()) {
      int64_t last = static_cast<int64_t>(index);
      for (mlir::Operation* user : result.getUsers()) {
        // A use inside a nested region counts at the top-level op that holds it.
        if (mlir::Operation* ancestor = block.findAncestorOpInBlock(*user)) {
          last = std::max(last, position[ancestor]);
        }
      }
      int64_t bytes = TensorBytes(result.getType());
      change[index] += bytes;
      change[last + 1] -= bytes;
    }
  }
  BlockPeak peak;
  int64_t live = 0;
  for (auto [index, op] : llvm::enumerate(ops)) {
    live += change[index];
    int64_t total = live + NestedPeak(op, visiting);
    if (total > peak.bytes) peak = BlockPeak{total, static_cast<int64_t>(index)};
  }
  return peak;
}

}  // namespace

PeakMemory EstimatePeakMemory(mlir::func::FuncOp func) {
  PeakMemory memory;
  if (func.isExternal()) return memory;
  mlir::Block& block = func.getBody().front();
  memory.argument_bytes = TotalBytes(block.getArguments());
  if (mlir::Operation* terminator = block.empty() ? nullptr : &block.back()) {
    memory.result_bytes = TotalBytes(terminator->getOperands());
  }
  Visiting visiting;
  visiting.insert(func);
  BlockPeak peak = PeakOfBlock(block, visiting);
  memory.peak_bytes = memory.argument_bytes + peak.bytes;
  if (!block.empty()) {
    auto it = block.begin();
    std::advance(it, peak.index);
    memory.peak_op = &*it;
  }
  return memory;
}

}  // namespace tessel::cost_model
