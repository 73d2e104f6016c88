// Counting the ops and values under an op (see ir_counts.h).
#include "partitioner/ir/ir_counts.h"

#include "mlir/IR/Block.h"
#include "mlir/IR/Region.h"

namespace tessel::ir {

IrCounts countOpsAndValues(mlir::Operation* root) {
  IrCounts counts;
  root->walk([&](mlir::Operation* op) {
    ++counts.ops;
    counts.values += op->getNumResults();
    for (mlir::Region& region : op->getRegions()) {
      for (mlir::Block& block : region) counts.values += block.getNumArguments();
    }
  });
  return counts;
}

}  // namespace tessel::ir
