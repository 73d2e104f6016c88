// MLIR's verifier, run op by op. `mlir::verify` walks the ops of a region with a work list
// and keeps a hash set of every op and block it has entered, to tell the first visit of an
// op from the last. Over a function of a million ops that set outgrows the caches and costs
// more than the checks themselves; here the recursion of the walk tells the visits apart.
// The checks and their diagnostics are MLIR's, and so is their order, except that an op's
// region structure (a graph region's single block, an entry block without predecessors)
// is checked after its nested ops and a block's terminator before them: when a program
// has several faults, the first one reported can differ. An op with regions has its invariants
// checked twice, once before its nested ops and again by `mlir::verify`; a function's
// IsolatedFromAbove check walks its body each time.
//
//   if (mlir::failed(ir::verifyTree(module))) ...  // diagnostics emitted
#ifndef TESSEL_PARTITIONER_IR_VERIFY_TREE_H_
#define TESSEL_PARTITIONER_IR_VERIFY_TREE_H_

#include "mlir/IR/Operation.h"
#include "mlir/Support/LogicalResult.h"

namespace tessel::ir {

// Verifies `root` and every op nested in it, as `mlir::verify(root)` does: each op's
// invariants, then the ops of its regions, then its region invariants, then dominance.
mlir::LogicalResult verifyTree(mlir::Operation* root);

}  // namespace tessel::ir

#endif  // TESSEL_PARTITIONER_IR_VERIFY_TREE_H_
