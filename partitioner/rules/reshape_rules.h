// The factor decomposition of a reshape, exposed for hlo.reshape's rule and for tests.
#ifndef TESSEL_PARTITIONER_RULES_RESHAPE_RULES_H_
#define TESSEL_PARTITIONER_RULES_RESHAPE_RULES_H_

#include <cstdint>

#include "llvm/ADT/ArrayRef.h"
#include "partitioner/rules/op_sharding_rule.h"

namespace tessel::rules {

// Returns the rule of a reshape from `inShape` to `outShape` (one operand, one result).
//
// Both shapes are walked major to minor in row-major order, keeping the product of the
// factors given to each side so far. Every size-1 dimension gets a size-1 factor of its own.
// While the two products are equal, the next factor is the gcd of what remains of the
// current input and output dimensions, shared by both; if that gcd is 1, each side takes its
// remainder as a factor of its own. While one side's product is behind, that side takes the
// largest factor that moves it toward the least common multiple of the two products (or its
// whole remainder, if no such factor exists), until the products meet again.
//
//   2x4x32 -> 8x32: ([i, j, k])->([ij, k])   {i=2, j=4, k=32}
//   8x4    -> 2x16: ([ij, k])->([i, jk])     {i=2, j=4, k=4}
//   4x6    -> 24:   ([i, j])->([ij])         {i=4, j=6}
//   3x2    -> 2x3:  ([i, l])->([j, k])       {i=3, j=2, k=3, l=2}: nothing shared, so a
//                                            sharding cannot cross (it needs an all-to-all)
//   1x4    -> 4:    ([i, j])->([j])          {i=1, j=4}
//
// A shape with a zero-size dimension has no elements to move: every dimension then gets a
// factor of its own. REQUIRES: both shapes are static and have the same element count.
OpShardingRule buildReshapeRule(llvm::ArrayRef<int64_t> inShape,
                                llvm::ArrayRef<int64_t> outShape);

}  // namespace tessel::rules

#endif  // TESSEL_PARTITIONER_RULES_RESHAPE_RULES_H_
