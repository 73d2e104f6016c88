// How many ops and SSA values a piece of IR holds, counted in one walk: passes that keep
// something per value or per op size their tables and vectors from it once, instead of
// growing them (rehashing or moving every entry) as the program is read.
//
//   ir::IrCounts counts = ir::countOpsAndValues(module);
//   table.reserve(counts.values);
#ifndef TESSEL_PARTITIONER_IR_IR_COUNTS_H_
#define TESSEL_PARTITIONER_IR_IR_COUNTS_H_

#include <cstddef>

#include "mlir/IR/Operation.h"

namespace tessel::ir {

struct IrCounts {
  size_t ops = 0;     // `root` and every op nested in it
  size_t values = 0;  // their results and the arguments of every block in their regions
};

IrCounts countOpsAndValues(mlir::Operation* root);

}  // namespace tessel::ir

#endif  // TESSEL_PARTITIONER_IR_IR_COUNTS_H_
