// Peak live bytes on one device: the program's values are walked in order, each live from
// the op that defines it to the last op that uses it (both included: an op's operands are
// still held while it writes its results). Arguments are live throughout. A value defined but
// never used is live only at its op.
//
// Ops with regions are counted at their op: a use inside a region is a use by the op that
// holds the region, and the values defined inside add their own peak (the largest over the
// regions, computed the same way) at that op; a func.call adds its callee's. Region arguments
// are not counted (they alias the op's operands). Sizes are those of the function's types, so
// for a partitioned function they are per device.
//
//   PeakMemory memory = EstimatePeakMemory(main);
//   // memory.peak_bytes at memory.peak_op, memory.argument_bytes of it the arguments'
#ifndef TESSEL_COST_MODEL_PEAK_MEMORY_H_
#define TESSEL_COST_MODEL_PEAK_MEMORY_H_

#include <cstdint>

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace tessel::cost_model {

struct PeakMemory {
  int64_t argument_bytes = 0;
  int64_t result_bytes = 0;
  // The largest live total, arguments included.
  int64_t peak_bytes = 0;
  // The first top-level op of the function at which the total is peak_bytes. Null for a
  // function without a body.
  mlir::Operation* peak_op = nullptr;
};

PeakMemory EstimatePeakMemory(mlir::func::FuncOp func);

}  // namespace tessel::cost_model

#endif  // TESSEL_COST_MODEL_PEAK_MEMORY_H_
