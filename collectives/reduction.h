// How collectives combine values, elementwise, independent of any backend.
//
//   // acc[i] = max(acc[i], src[i]) for 16 floats:
//   Accumulate(DataType::kF32, ReductionKind::kMax, acc, src, 16);
#ifndef TESSEL_COLLECTIVES_REDUCTION_H_
#define TESSEL_COLLECTIVES_REDUCTION_H_

#include <cstdint>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "collectives/data_type.h"

namespace tessel::collectives {

// The reductions all_reduce and reduce_scatter offer. On pred, sum and max are logical or,
// prod and min logical and. Integer sums and products wrap around (two's complement). max
// and min of floats return NaN if either value is NaN, as XLA's maximum and minimum do.
enum class ReductionKind { kSum, kProd, kMax, kMin };

// "sum", "prod", "max", "min".
absl::string_view ReductionKindName(ReductionKind kind);

// OK if `kind` applies to `type`; InvalidArgument for max and min of complex types, which
// have no order. Every backend checks this before it moves data.
absl::Status ValidateReduction(DataType type, ReductionKind kind);

// Combines `count` elements of `src` into `acc`: acc[i] = acc[i] (kind) src[i].
// REQUIRES: both point to `count` elements of `type`; they may be the same buffer;
// ValidateReduction(type, kind) is OK.
void Accumulate(DataType type, ReductionKind kind, void* acc, const void* src, int64_t count);

}  // namespace tessel::collectives

#endif  // TESSEL_COLLECTIVES_REDUCTION_H_
