// The strided box copy of strided_copy.h.
#include "runtime/kernels/strided_copy.h"

#include <vector>

namespace tessel::runtime {
namespace {

template <typename T>
void CopyStridedTyped(const T* src, int64_t srcOffset, absl::Span<const int64_t> srcStrides, T* dst,
                      int64_t dstOffset, absl::Span<const int64_t> dstStrides,
                      absl::Span<const int64_t> shape) {
  int64_t rank = static_cast<int64_t>(shape.size());
  if (NumElements(shape) == 0) return;
  if (rank == 0) {
    dst[dstOffset] = src[srcOffset];
    return;
  }
  // An odometer over the outer dimensions; the innermost one is a plain strided loop.
  int64_t inner = shape[rank - 1];
  int64_t srcInner = srcStrides[rank - 1], dstInner = dstStrides[rank - 1];
  std::vector<int64_t> index(rank - 1, 0);
  int64_t s = srcOffset, d = dstOffset;
  while (true) {
    for (int64_t k = 0; k < inner; ++k) dst[d + k * dstInner] = src[s + k * srcInner];
    int64_t dim = rank - 2;
    for (; dim >= 0; --dim) {
      s += srcStrides[dim];
      d += dstStrides[dim];
      if (++index[dim] < shape[dim]) break;
      s -= srcStrides[dim] * shape[dim];
      d -= dstStrides[dim] * shape[dim];
      index[dim] = 0;
    }
    if (dim < 0) return;
  }
}

}  // namespace

void CopyStrided(const Tensor& src, int64_t srcOffset, absl::Span<const int64_t> srcStrides,
                 Tensor& dst, int64_t dstOffset, absl::Span<const int64_t> dstStrides,
                 absl::Span<const int64_t> shape) {
  DispatchElementType(src.type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    CopyStridedTyped<T>(src.data<T>().data(), srcOffset, srcStrides, dst.data<T>().data(),
                        dstOffset, dstStrides, shape);
  });
}

}  // namespace tessel::runtime
