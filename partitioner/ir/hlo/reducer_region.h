// Recognizing the simplest reducer regions: those that combine each accumulator with its
// new element by one binary op and return the results, e.g.
//
//   ^bb0(%acc: tensor<f32>, %x: tensor<f32>):
//     %s = hlo.add %acc, %x : tensor<f32>
//     hlo.return %s : tensor<f32>
//
// Sharding rules and the partitioner ask this to know whether partial reductions (or
// partial scatters) can be combined with the same op, e.g. by an all_reduce of that kind.
#ifndef TESSEL_PARTITIONER_IR_HLO_REDUCER_REGION_H_
#define TESSEL_PARTITIONER_IR_HLO_REDUCER_REGION_H_

#include <cstdint>
#include <optional>

#include "llvm/ADT/SmallVector.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/Region.h"

namespace tessel::hlo {

// For a region of `numInputs` accumulators followed by `numInputs` elements as block
// arguments (reduce's reducer, scatter's update region), the op that combines accumulator i
// with element i (in either operand order) and whose result the region returns in place i,
// when the region holds nothing but those ops and the return. nullopt otherwise.
std::optional<llvm::SmallVector<mlir::Operation*>> getSingleOpCombiners(mlir::Region& region,
                                                                      int64_t numInputs);

}  // namespace tessel::hlo

#endif  // TESSEL_PARTITIONER_IR_HLO_REDUCER_REGION_H_
