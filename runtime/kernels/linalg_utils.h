// Numeric helpers of the dot_general and convolution kernels: the accumulation type, element
// conversion with XLA's convert semantics, moving a tensor into (and out of) a transposed
// buffer of the accumulation type, and a row-major matrix product on Eigen.
//
//   DispatchAccumulationType(lhs.type(), rhs.type(), resultType, [&](auto tag) {
//     using C = typename decltype(tag)::type;
//     std::vector<C> a = PermuteToCompute<C>(lhs, {0, 1});
//     ...
//     MatMul<C>(a.data(), b.data(), out.data(), m, k, n);
//   });
#ifndef TESSEL_RUNTIME_KERNELS_LINALG_UTILS_H_
#define TESSEL_RUNTIME_KERNELS_LINALG_UTILS_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include "absl/types/span.h"
#include "runtime/element_type.h"
#include "runtime/kernels/index_utils.h"
#include "runtime/tensor.h"

namespace tessel::runtime {

// Calls fn(TypeTag<C>{}) with the type products are accumulated in:
// - double if any of the three types is f64;
// - float if any is another float type: f16 and bf16 widen to f32 and the result is
//   rounded to its type once, at the end, rather than after every addition;
// - uint64_t otherwise (integers and pred): arithmetic modulo 2^64 truncated to an n-bit
//   result equals arithmetic wrapping in n bits, whatever the operand widths, so this is
//   XLA's wrapping integer dot for every mix of integer types.
template <typename Fn>
decltype(auto) DispatchAccumulationType(ElementType lhs, ElementType rhs, ElementType result,
                                        Fn&& fn) {
  if (lhs == ElementType::kF64 || rhs == ElementType::kF64 || result == ElementType::kF64) {
    return fn(TypeTag<double>{});
  }
  if (IsFloat(lhs) || IsFloat(rhs) || IsFloat(result)) return fn(TypeTag<float>{});
  return fn(TypeTag<uint64_t>{});
}

// Converts one element with hlo.convert's semantics: to pred is x != 0; from pred is 0 or
// 1; float to integer rounds toward zero and saturates, NaN giving 0; integer to integer
// keeps the low bits (two's complement); anything to float rounds to nearest even.
template <typename To, typename From>
To ConvertScalar(From x) {
  if constexpr (std::is_same_v<To, From>) {
    return x;
  } else if constexpr (std::is_same_v<To, bool>) {
    if constexpr (std::is_integral_v<From>) {
      return x != 0;
    } else {
      return static_cast<float>(x) != 0.0f;
    }
  } else if constexpr (std::is_same_v<From, bool>) {
    return static_cast<To>(x ? 1 : 0);
  } else if constexpr (std::is_integral_v<To> && !std::is_integral_v<From>) {
    double value = static_cast<double>(static_cast<std::conditional_t<
        std::is_same_v<From, double>, double, float>>(x));
    if (std::isnan(value)) return 0;
    // double(max) rounds up to a power of two for 64-bit types, so >= saturates exactly.
    if (value <= static_cast<double>(std::numeric_limits<To>::lowest())) {
      return std::numeric_limits<To>::lowest();
    }
    if (value >= static_cast<double>(std::numeric_limits<To>::max())) {
      return std::numeric_limits<To>::max();
    }
    return static_cast<To>(value);
  } else if constexpr (std::is_integral_v<To>) {
    return static_cast<To>(x);
  } else if constexpr (std::is_same_v<To, float> || std::is_same_v<To, double>) {
    return static_cast<To>(x);
  } else {
    // f16 and bf16 round from float (Eigen's conversions round to nearest even).
    return static_cast<To>(static_cast<float>(x));
  }
}

// Whether perm is [0, 1, ..., n - 1].
inline bool IsIdentity(absl::Span<const int64_t> perm) {
  for (size_t i = 0; i < perm.size(); ++i) {
    if (perm[i] != static_cast<int64_t>(i)) return false;
  }
  return true;
}

// The elements of transpose(tensor, perm) (result dimension i is tensor dimension perm[i]),
// row-major, converted to C.
template <typename C>
std::vector<C> PermuteToCompute(const Tensor& tensor, absl::Span<const int64_t> perm) {
  std::vector<C> out(tensor.num_elements());
  DispatchElementType(tensor.type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    absl::Span<const T> in = tensor.data<T>();
    if constexpr (std::is_same_v<T, C>) {
      if (IsIdentity(perm)) {
        std::copy(in.begin(), in.end(), out.begin());
        return;
      }
    }
    ForEachPermuted(tensor.shape(), perm, [&](int64_t dst, int64_t src) {
      out[dst] = ConvertScalar<C>(in[src]);
    });
  });
  return out;
}

// The tensor transpose(values viewed as `shape`, perm), converted to `type`.
template <typename C>
Tensor PermuteFromCompute(const std::vector<C>& values, absl::Span<const int64_t> shape,
                          absl::Span<const int64_t> perm, ElementType type) {
  Shape outShape;
  for (int64_t d : perm) outShape.push_back(shape[d]);
  Tensor result = Tensor::Zeros(type, outShape);
  DispatchElementType(type, [&](auto tag) {
    using T = typename decltype(tag)::type;
    absl::Span<T> out = result.data<T>();
    if constexpr (std::is_same_v<T, C>) {
      if (IsIdentity(perm)) {
        std::copy(values.begin(), values.end(), out.begin());
        return;
      }
    }
    ForEachPermuted(shape, perm, [&](int64_t dst, int64_t src) {
      out[dst] = ConvertScalar<T>(values[src]);
    });
  });
  return result;
}

// out[m, n] = sum over k of a[m, k] * b[k, n], all row-major and contiguous. Floats use
// Eigen's tensor contraction (single-threaded); uint64_t a plain loop that wraps.
// Defined for C = float, double and uint64_t.
template <typename C>
void MatMul(const C* a, const C* b, C* out, int64_t m, int64_t k, int64_t n);

}  // namespace tessel::runtime

#endif  // TESSEL_RUNTIME_KERNELS_LINALG_UTILS_H_
