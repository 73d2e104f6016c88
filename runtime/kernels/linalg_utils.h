// Numeric helpers of the dot_general and convolution kernels: the accumulation type, element
// conversion with XLA's convert semantics, reading a tensor as (and writing one from) a
// transposed buffer of the accumulation type — without a copy when the layout and type
// already match — and a row-major matrix product on Eigen.
//
//   DispatchAccumulationType(lhs.type(), rhs.type(), resultType, [&](auto tag) {
//     using C = typename decltype(tag)::type;
//     ComputeOperand<C> a(lhs, {0, 1}), b(rhs, {0, 1});
//     ComputeResult<C> out(resultType, {m, n}, {0, 1});
//     MatMul<C>(a.data(), b.data(), out.data(), m, k, n);
//     return out.Finish();
//   });
#ifndef TESSEL_RUNTIME_KERNELS_LINALG_UTILS_H_
#define TESSEL_RUNTIME_KERNELS_LINALG_UTILS_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <type_traits>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "runtime/element_type.h"
#include "runtime/kernels/index_utils.h"
#include "runtime/tensor.h"

namespace tessel::runtime {

// Calls fn(TypeTag<C>{}) with the type products are accumulated in (real types; complex
// products accumulate in their own type, see DispatchComplexAccumulationType):
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

// Calls fn(TypeTag<C>{}) with C the complex type of `result` (c64 or c128), for dot_general
// on complex operands (the verifier requires operands and result of one complex type).
template <typename Fn>
decltype(auto) DispatchComplexAccumulationType(ElementType result, Fn&& fn) {
  if (result == ElementType::kC128) return fn(TypeTag<c128>{});
  return fn(TypeTag<c64>{});
}

// Converts one element with hlo.convert's semantics: to pred is x != 0; from pred is 0 or
// 1; float to integer rounds toward zero and saturates, NaN giving 0; integer to integer
// keeps the low bits (two's complement); anything to float rounds to nearest even.
template <typename To, typename From>
To ConvertScalar(From x) {
  if constexpr (std::is_same_v<To, From>) {
    return x;
  } else if constexpr (kIsComplex<To> && kIsComplex<From>) {
    return To(x);
  } else if constexpr (kIsComplex<To>) {
    return To(ConvertScalar<typename To::value_type>(x), 0);
  } else if constexpr (kIsComplex<From>) {
    // Unreachable: complex results accumulate in complex (DispatchAccumulationType).
    return ConvertScalar<To>(x.real());
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

// A buffer of n elements of C that is not cleared: every user overwrites it entirely.
// (std::complex's constructor zeroes its parts: complex buffers are cleared regardless.)
template <typename C>
std::unique_ptr<C[]> UninitializedBuffer(int64_t n) {
  static_assert(std::is_trivially_default_constructible_v<C> || kIsComplex<C>);
  return std::unique_ptr<C[]>(new C[static_cast<size_t>(n)]);
}

// The elements of transpose(tensor, perm), row-major, converted to C (result dimension i is
// tensor dimension perm[i]). When the tensor already has that layout and type, this is a
// view of the tensor's own buffer and copies nothing; otherwise it owns a converted copy.
// The tensor must outlive the view.
template <typename C>
class ComputeOperand {
 public:
  ComputeOperand(const Tensor& tensor, absl::Span<const int64_t> perm) {
    if (tensor.type() == ElementTypeOf<C>() && IsIdentity(perm)) {
      data_ = tensor.data<C>().data();
      return;
    }
    storage_ = UninitializedBuffer<C>(tensor.num_elements());
    C* out = storage_.get();
    DispatchElementType(tensor.type(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T* in = tensor.data<T>().data();
      ForEachPermuted(tensor.shape(), perm, [&](int64_t dst, int64_t src) {
        out[dst] = ConvertScalar<C>(in[src]);
      });
    });
    data_ = out;
  }

  const C* data() const { return data_; }

 private:
  std::unique_ptr<C[]> storage_;
  const C* data_ = nullptr;
};

// Where a kernel writes its result in C, in a canonical layout `shape`, before it becomes a
// tensor of `type` laid out as transpose(canonical, perm). When the result tensor has C's
// type and the canonical layout, the kernel writes straight into it; otherwise into a
// scratch buffer that Finish() transposes and converts.
template <typename C>
class ComputeResult {
 public:
  ComputeResult(ElementType type, absl::Span<const int64_t> shape,
                absl::Span<const int64_t> perm)
      : type_(type), shape_(shape.begin(), shape.end()), perm_(perm.begin(), perm.end()) {
    if (type == ElementTypeOf<C>() && IsIdentity(perm)) {
      result_ = Tensor::Uninitialized(type, shape_);
      data_ = result_.data<C>().data();
    } else {
      storage_ = UninitializedBuffer<C>(NumElements(shape_));
      data_ = storage_.get();
    }
  }

  C* data() { return data_; }

  // The result tensor. Call once, after every element of data() has been written.
  Tensor Finish() {
    if (!storage_) return std::move(result_);
    Shape outShape;
    for (int64_t d : perm_) outShape.push_back(shape_[d]);
    Tensor result = Tensor::Uninitialized(type_, outShape);
    DispatchElementType(type_, [&](auto tag) {
      using T = typename decltype(tag)::type;
      T* out = result.data<T>().data();
      const C* values = storage_.get();
      ForEachPermuted(shape_, perm_, [&](int64_t dst, int64_t src) {
        out[dst] = ConvertScalar<T>(values[src]);
      });
    });
    return result;
  }

 private:
  ElementType type_;
  Shape shape_;
  std::vector<int64_t> perm_;
  Tensor result_;
  std::unique_ptr<C[]> storage_;
  C* data_ = nullptr;
};

// out[m, n] = sum over k of a[m, k] * b[k, n], all row-major and contiguous. f32 uses the
// vector kernel of the chosen instruction set (below); f64 Eigen's tensor contraction;
// complex a plain loop, and uint64_t one that wraps. Large real products run on a thread
// pool.
// Defined for C = float, double, c64, c128 and uint64_t.
template <typename C>
void MatMul(const C* a, const C* b, C* out, int64_t m, int64_t k, int64_t n);

// The instruction sets f32 products can run on, in increasing order. kBaseline is any
// x86-64 (SSE2, through Eigen); kAvx2 needs AVX2 and FMA; kAvx512 needs AVX-512 F, DQ, BW
// and VL as well. On kAvx2 and kAvx512 every element of a product is the chain of fused
// multiply-adds over k in order, so the two give the same bits; kBaseline rounds each
// product and sum separately and adds in Eigen's order, so its results may differ from
// theirs in the last bits.
enum class MatMulIsa { kBaseline, kAvx2, kAvx512 };

const char* MatMulIsaName(MatMulIsa isa);

// Whether this CPU (and its operating system, for the wider registers) supports `isa`.
bool CpuSupports(MatMulIsa isa);

// The best instruction set the CPU supports, at most `cap`: the value of the TESSEL_ISA
// environment variable ("baseline", "avx2" or "avx512"; unset or empty means no cap).
// An unknown value is an error.
absl::StatusOr<MatMulIsa> ChooseMatMulIsa(const char* cap);

// The instruction set f32 products use in this process, chosen on first use from
// TESSEL_ISA (an unknown value warns once on stderr and is ignored).
MatMulIsa ChosenMatMulIsa();

// MatMul<float> on `isa`, which the CPU must support: for tests and benchmarks that compare
// instruction sets in one process.
void MatMulWithIsa(MatMulIsa isa, const float* a, const float* b, float* out, int64_t m,
                   int64_t k, int64_t n);

}  // namespace tessel::runtime

#endif  // TESSEL_RUNTIME_KERNELS_LINALG_UTILS_H_
