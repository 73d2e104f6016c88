// The one loop behind the data-movement kernels (broadcast_in_dim, transpose, reverse,
// slice, dynamic slices, pad, concatenate): copy a box of elements between two tensors,
// each side addressed by an offset and one stride per box dimension.
//
//   // result = transpose(x, [1, 0]) for x of shape [2, 3]:
//   CopyStrided(x, 0, {1, 3}, result, 0, {2, 1}, {3, 2});
#ifndef TESSEL_RUNTIME_KERNELS_STRIDED_COPY_H_
#define TESSEL_RUNTIME_KERNELS_STRIDED_COPY_H_

#include <cstdint>

#include "absl/types/span.h"
#include "runtime/tensor.h"

namespace tessel::runtime {

// For every index j of a box of `shape`, copies
//   src[srcOffset + sum_d j[d] * srcStrides[d]]  to  dst[dstOffset + sum_d j[d] * dstStrides[d]]
// (offsets and strides in elements). A stride of 0 repeats an element (broadcast), a
// negative one walks backwards (reverse). Does nothing for a box with a zero-sized dimension.
// REQUIRES: src and dst have one element type; every addressed element is in bounds; the
// spans have the rank of `shape`.
void CopyStrided(const Tensor& src, int64_t srcOffset, absl::Span<const int64_t> srcStrides,
                 Tensor& dst, int64_t dstOffset, absl::Span<const int64_t> dstStrides,
                 absl::Span<const int64_t> shape);

}  // namespace tessel::runtime

#endif  // TESSEL_RUNTIME_KERNELS_STRIDED_COPY_H_
