// getSingleOpCombiners (see reducer_region.h).
#include "partitioner/ir/hlo/reducer_region.h"

#include "partitioner/ir/hlo/hlo_ops.h"

namespace tessel::hlo {

std::optional<llvm::SmallVector<mlir::Operation*>> getSingleOpCombiners(mlir::Region& region,
                                                                      int64_t numInputs) {
  if (!region.hasOneBlock()) return std::nullopt;
  mlir::Block& block = region.front();
  auto terminator = llvm::dyn_cast<ReturnOp>(block.getTerminator());
  if (!terminator || static_cast<int64_t>(block.getNumArguments()) != 2 * numInputs ||
      static_cast<int64_t>(terminator->getNumOperands()) != numInputs ||
      static_cast<int64_t>(block.getOperations().size()) != numInputs + 1) {
    return std::nullopt;
  }
  llvm::SmallVector<mlir::Operation*> combiners;
  for (auto [index, value] : llvm::enumerate(terminator->getOperands())) {
    mlir::Operation* combiner = value.getDefiningOp();
    if (!combiner || combiner->getNumOperands() != 2 || combiner->getNumResults() != 1) {
      return std::nullopt;
    }
    mlir::Value accumulator = block.getArgument(index);
    mlir::Value element = block.getArgument(numInputs + index);
    mlir::Value lhs = combiner->getOperand(0), rhs = combiner->getOperand(1);
    if (!((lhs == accumulator && rhs == element) || (lhs == element && rhs == accumulator))) {
      return std::nullopt;
    }
    combiners.push_back(combiner);
  }
  return combiners;
}

}  // namespace tessel::hlo
