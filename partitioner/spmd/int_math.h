// Integer division rounding down and up, for offsets that may be negative (a window that
// starts in the padding before a dimension).
#ifndef TESSEL_PARTITIONER_SPMD_INT_MATH_H_
#define TESSEL_PARTITIONER_SPMD_INT_MATH_H_

#include <cstdint>

namespace tessel::spmd {

// floor(a / b) and ceil(a / b) for b > 0 and any sign of a.
inline int64_t floorDiv(int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }
inline int64_t ceilDiv(int64_t a, int64_t b) { return -floorDiv(-a, b); }

}  // namespace tessel::spmd

#endif  // TESSEL_PARTITIONER_SPMD_INT_MATH_H_
