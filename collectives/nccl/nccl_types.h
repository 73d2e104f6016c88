// How Tessel's element types and reductions map onto NCCL's. NCCL moves any type as bytes,
// so only reductions need a mapping:
//   - pred runs as uint8 (values 0 and 1): sum and max become max (logical or), prod and
//     min become min (logical and), as the Communicator interface defines them;
//   - s16 and u16, which NCCL lacks, are widened to s32 / u32 on the host, reduced, and
//     narrowed back. The result is exact: sign or zero extension keeps the order (max, min),
//     and the low 16 bits of a wrapped 32-bit sum or product are the wrapped 16-bit ones;
//   - c64 and c128, which NCCL lacks, sum as twice as many f32 / f64 values (a complex sum
//     is the sum of the real parts and the sum of the imaginary parts); their products are
//     refused (ValidateNcclReduction) rather than computed wrongly;
//   - every other type has a native NCCL type.
#ifndef TESSEL_COLLECTIVES_NCCL_NCCL_TYPES_H_
#define TESSEL_COLLECTIVES_NCCL_NCCL_TYPES_H_

#include <nccl.h>

#include <cstdint>

#include "absl/status/status.h"
#include "collectives/data_type.h"
#include "collectives/reduction.h"

namespace tessel::collectives::nccl {

// Whether reductions over `type` go through the 32-bit widening (s16, u16).
bool ReductionWidens(DataType type);

// The NCCL type a reduction over `type` runs in (after widening, for s16 and u16).
ncclDataType_t ReductionNcclType(DataType type);

// Bytes per element as the reduction runs (4 for widened types, else the type's size).
int64_t ReductionElementSize(DataType type);

// NCCL values per element of `type`: 2 for complex types (real and imaginary part), else 1.
int64_t ReductionValuesPerElement(DataType type);

// OK if the NCCL backend can reduce `type` with `kind`: ValidateReduction, plus
// Unimplemented for complex products, which NCCL cannot express.
absl::Status ValidateNcclReduction(DataType type, ReductionKind kind);

// The NCCL operator of `kind` over `type`.
ncclRedOp_t ReductionNcclOp(DataType type, ReductionKind kind);

// s16 -> s32 (sign extension) and u16 -> u32 (zero extension), `count` elements.
// REQUIRES: ReductionWidens(type); `wide` holds count 32-bit values.
void Widen(DataType type, const void* narrow, void* wide, int64_t count);
// The inverse: keeps the low 16 bits of each value.
void Narrow(DataType type, const void* wide, void* narrow, int64_t count);

}  // namespace tessel::collectives::nccl

#endif  // TESSEL_COLLECTIVES_NCCL_NCCL_TYPES_H_
