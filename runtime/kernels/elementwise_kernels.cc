// Kernels of the elementwise ops.
#include "partitioner/ir/hlo/hlo_ops.h"
#include "runtime/kernels/kernels.h"

namespace tessel::runtime {
namespace {

// Applies `fn` to each pair of elements of two same-shaped tensors.
template <typename Fn>
Tensor MapBinary(const Tensor& lhs, const Tensor& rhs, Fn fn) {
  Tensor result = Tensor::Zeros(lhs.type(), lhs.shape());
  DispatchElementType(lhs.type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    absl::Span<const T> a = lhs.data<T>(), b = rhs.data<T>();
    absl::Span<T> out = result.data<T>();
    for (int64_t i = 0; i < result.num_elements(); ++i) out[i] = fn(a[i], b[i]);
  });
  return result;
}

}  // namespace

void RegisterElementwiseKernels(KernelRegistry& registry) {
  registry.Register<hlo::AddOp>(
      [](hlo::AddOp, KernelArgs args) -> absl::StatusOr<std::vector<Tensor>> {
        return std::vector<Tensor>{MapBinary(
            *args.operands[0], *args.operands[1], [](auto a, auto b) -> decltype(a) {
              using T = decltype(a);
              if constexpr (std::is_same_v<T, bool>) {
                return a || b;  // pred add is logical or
              } else if constexpr (std::is_integral_v<T>) {
                // Integer add wraps around: compute in the unsigned type of the same width.
                using U = std::make_unsigned_t<T>;
                return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
              } else {
                return static_cast<T>(a + b);
              }
            })};
      });
}

}  // namespace tessel::runtime
