// Loops shared by the elementwise kernels: apply a functor to every element of one or two
// tensors. A functor says which C++ element types it accepts (`kAccepts<T>`) so that the
// generic dispatch over all element types only instantiates what makes sense, and an
// unexpected type becomes an error instead of a crash.
//
//   struct Negate {
//     template <typename T> static constexpr bool kAccepts = kIsFloat<T>;
//     template <typename T> T operator()(T x) const { return -x; }
//   };
//   TESSEL_ASSIGN_OR_RETURN(Tensor y, MapUnary<Negate>(x));
#ifndef TESSEL_RUNTIME_KERNELS_ELEMENTWISE_UTIL_H_
#define TESSEL_RUNTIME_KERNELS_ELEMENTWISE_UTIL_H_

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"
#include "runtime/kernels/element_convert.h"
#include "runtime/kernels/parallel_for.h"
#include "runtime/tensor.h"

namespace tessel::runtime {

// The error for an element type a kernel does not handle (the verifier normally keeps such
// programs out).
inline absl::Status UnsupportedElementType(ElementType type) {
  return absl::InvalidArgumentError(
      absl::StrCat("element type ", ElementTypeName(type), " is not supported"));
}

// The static shape of result `index` of `op`. REQUIRES: a ranked tensor result.
inline Shape ResultShape(mlir::Operation* op, unsigned index = 0) {
  auto type = llvm::cast<mlir::RankedTensorType>(op->getResult(index).getType());
  return Shape(type.getShape().begin(), type.getShape().end());
}

// The loops behind MapUnary and MapBinary, on raw pointers: absl::Span's operator[] is
// bounds-checked in the hardened Abseil the project builds against, and a check per element
// keeps the loop scalar. The fixed-length inner loop is what lets GCC vectorise at -O2, whose
// cost model only vectorises loops that need no scalar remainder; `__restrict` rules out the
// overlap checks (results are fresh tensors, or the InPlace loops' operand itself).
constexpr size_t kElementwiseBlock = 16;

template <typename R, typename T, typename Fn>
void MapUnaryLoop(const T* __restrict in, R* __restrict out, size_t n, Fn& fn) {
  size_t i = 0;
  for (; i + kElementwiseBlock <= n; i += kElementwiseBlock) {
    for (size_t j = 0; j < kElementwiseBlock; ++j) out[i + j] = fn(in[i + j]);
  }
  for (; i < n; ++i) out[i] = fn(in[i]);
}

template <typename R, typename T, typename Fn>
void MapBinaryLoop(const T* __restrict a, const T* __restrict b, R* __restrict out, size_t n,
                   Fn& fn) {
  size_t i = 0;
  for (; i + kElementwiseBlock <= n; i += kElementwiseBlock) {
    for (size_t j = 0; j < kElementwiseBlock; ++j) out[i + j] = fn(a[i + j], b[i + j]);
  }
  for (; i < n; ++i) out[i] = fn(a[i], b[i]);
}

// The same loops writing over an operand that nothing reads afterwards: each element is
// read before it is written, at the same index.
template <typename T, typename Fn>
void MapUnaryInPlaceLoop(T* inout, size_t n, Fn& fn) {
  size_t i = 0;
  for (; i + kElementwiseBlock <= n; i += kElementwiseBlock) {
    for (size_t j = 0; j < kElementwiseBlock; ++j) inout[i + j] = fn(inout[i + j]);
  }
  for (; i < n; ++i) inout[i] = fn(inout[i]);
}

// `inout` is the left operand when kIntoLhs, else the right one.
template <bool kIntoLhs, typename T, typename Fn>
void MapBinaryInPlaceLoop(T* inout, const T* __restrict other, size_t n, Fn& fn) {
  auto apply = [&fn](T own, T theirs) { return kIntoLhs ? fn(own, theirs) : fn(theirs, own); };
  size_t i = 0;
  for (; i + kElementwiseBlock <= n; i += kElementwiseBlock) {
    for (size_t j = 0; j < kElementwiseBlock; ++j) {
      inout[i + j] = apply(inout[i + j], other[i + j]);
    }
  }
  for (; i < n; ++i) inout[i] = apply(inout[i], other[i]);
}

// Loops over at least kParallelElements elements run in chunks of kElementwiseChunk on the
// kernels' thread pool; below that, waking the threads costs more than they save. Each
// element is computed alone, so the split changes no result.
constexpr size_t kParallelElements = size_t{1} << 18;
constexpr size_t kElementwiseChunk = size_t{1} << 16;

// loop(begin, count) over [0, n), in chunks on the pool when n is large.
template <typename Loop>
void ForElementChunks(size_t n, const Loop& loop) {
  if (n < kParallelElements) {
    loop(size_t{0}, n);
    return;
  }
  const size_t chunks = (n + kElementwiseChunk - 1) / kElementwiseChunk;
  ParallelFor(static_cast<int64_t>(chunks), [&](int64_t chunk) {
    const size_t begin = static_cast<size_t>(chunk) * kElementwiseChunk;
    loop(begin, std::min(kElementwiseChunk, n - begin));
  });
}

// fn(x) for every element of `x`; the result has x's type and shape. When `overwritable`
// is `x` itself (KernelArgs::Overwritable), the result is computed in x's buffer and takes
// it over, so no buffer is allocated.
template <typename Fn>
absl::StatusOr<Tensor> MapUnary(const Tensor& x, Fn fn = Fn(), Tensor* overwritable = nullptr) {
  return DispatchElementType(x.type(), [&](auto tag) -> absl::StatusOr<Tensor> {
    using T = typename decltype(tag)::type;
    if constexpr (Fn::template kAccepts<T>) {
      using R = decltype(fn(T()));
      if constexpr (std::is_same_v<R, T>) {
        if (overwritable == &x) {
          T* inout = overwritable->data<T>().data();
          ForElementChunks(static_cast<size_t>(x.num_elements()), [&](size_t begin, size_t n) {
            MapUnaryInPlaceLoop(inout + begin, n, fn);
          });
          return std::move(*overwritable);
        }
      }
      Tensor result = Tensor::Uninitialized(x.type(), x.shape());
      const T* in = x.data<T>().data();
      T* out = result.data<T>().data();
      ForElementChunks(static_cast<size_t>(x.num_elements()), [&](size_t begin, size_t n) {
        MapUnaryLoop(in + begin, out + begin, n, fn);
      });
      return result;
    } else {
      return UnsupportedElementType(x.type());
    }
  });
}

// fn(a[i], b[i]) for every element; REQUIRES: lhs and rhs have one type and shape. The
// result has the element type `R` of fn's return (the operands' type, or pred for compare).
// When `overwritable` is lhs or rhs and R is their type, the result is computed in that
// operand's buffer and takes it over.
template <typename Fn>
absl::StatusOr<Tensor> MapBinary(const Tensor& lhs, const Tensor& rhs, Fn fn = Fn(),
                                 Tensor* overwritable = nullptr) {
  if (lhs.type() != rhs.type() || lhs.shape() != rhs.shape()) {
    return absl::InvalidArgumentError(
        absl::StrCat("operands ", lhs.ShapeString(), " and ", rhs.ShapeString(), " differ"));
  }
  return DispatchElementType(lhs.type(), [&](auto tag) -> absl::StatusOr<Tensor> {
    using T = typename decltype(tag)::type;
    if constexpr (Fn::template kAccepts<T>) {
      using R = decltype(fn(T(), T()));
      const size_t count = static_cast<size_t>(lhs.num_elements());
      const T* a = lhs.data<T>().data();
      const T* b = rhs.data<T>().data();
      if constexpr (std::is_same_v<R, T>) {
        if (overwritable == &lhs) {
          T* inout = overwritable->data<T>().data();
          ForElementChunks(count, [&](size_t begin, size_t n) {
            MapBinaryInPlaceLoop<true>(inout + begin, b + begin, n, fn);
          });
          return std::move(*overwritable);
        }
        if (overwritable == &rhs) {
          T* inout = overwritable->data<T>().data();
          ForElementChunks(count, [&](size_t begin, size_t n) {
            MapBinaryInPlaceLoop<false>(inout + begin, a + begin, n, fn);
          });
          return std::move(*overwritable);
        }
      }
      Tensor result = Tensor::Uninitialized(ElementTypeOf<R>(), lhs.shape());
      R* out = result.data<R>().data();
      ForElementChunks(count, [&](size_t begin, size_t n) {
        MapBinaryLoop(a + begin, b + begin, out + begin, n, fn);
      });
      return result;
    } else {
      return UnsupportedElementType(lhs.type());
    }
  });
}

// The signed integer of the same width whose order is IEEE totalOrder on the float's bits:
// -NaN < -Inf < ... < -0 < +0 < ... < +Inf < +NaN. Non-negative floats order like their
// bits; for negative ones flipping every bit but the sign reverses the order of magnitudes
// (and puts -0 at -1, just below +0 at 0).
template <typename T>
auto TotalOrderKey(T value) {
  using Key = std::conditional_t<sizeof(T) == 2, int16_t,
                                 std::conditional_t<sizeof(T) == 4, int32_t, int64_t>>;
  static_assert(sizeof(Key) == sizeof(T));
  Key bits;
  std::memcpy(&bits, &value, sizeof(bits));
  return bits < 0 ? static_cast<Key>(bits ^ std::numeric_limits<Key>::max()) : bits;
}

// Maximum and minimum, shared by hlo.max/hlo.min and hlo.clamp. For floats they follow IEEE
// 754-2019 maximum/minimum: a NaN operand gives NaN, and -0 counts as less than +0, so the
// result does not depend on the operand order (a partitioned program may combine values in
// another order than the single-device one). pred orders false < true. Complex numbers have
// no order and are refused.
struct MaxFn {
  template <typename T>
  static constexpr bool kAccepts = !kIsComplex<T>;
  template <typename T>
  T operator()(T a, T b) const {
    if constexpr (kIsFloat<T>) {
      using C = ComputeType<T>;
      C x = static_cast<C>(a), y = static_cast<C>(b);
      if (std::isnan(x)) return a;
      if (std::isnan(y)) return b;
      if (x == y) return std::signbit(x) ? b : a;  // equal: only the zeros' signs can differ
      return x > y ? a : b;
    } else {
      return a > b ? a : b;
    }
  }
};

struct MinFn {
  template <typename T>
  static constexpr bool kAccepts = !kIsComplex<T>;
  template <typename T>
  T operator()(T a, T b) const {
    if constexpr (kIsFloat<T>) {
      using C = ComputeType<T>;
      C x = static_cast<C>(a), y = static_cast<C>(b);
      if (std::isnan(x)) return a;
      if (std::isnan(y)) return b;
      if (x == y) return std::signbit(x) ? a : b;
      return x < y ? a : b;
    } else {
      return a < b ? a : b;
    }
  }
};


// The arithmetic that hlo.add, hlo.mul, hlo.and and hlo.or compute, shared by their kernels
// and by the native path of reducer regions (combiner.cc), so a reduce gives the same bits
// whether its region is interpreted or recognised.

// The unsigned type integer arithmetic on T runs in: at least `unsigned int`, so that the
// promotion of narrow types to (signed) int cannot overflow in a multiplication.
template <typename T>
using WrapType =
    std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, std::make_unsigned_t<T>>;

template <typename T>
T WrapAdd(T a, T b) {
  return static_cast<T>(static_cast<WrapType<T>>(a) + static_cast<WrapType<T>>(b));
}
template <typename T>
T WrapSub(T a, T b) {
  return static_cast<T>(static_cast<WrapType<T>>(a) - static_cast<WrapType<T>>(b));
}
template <typename T>
T WrapMul(T a, T b) {
  return static_cast<T>(static_cast<WrapType<T>>(a) * static_cast<WrapType<T>>(b));
}

// Runs a float op in ComputeType and rounds once.
template <typename T, typename F>
T InCompute(T a, T b, F f) {
  using C = ComputeType<T>;
  return static_cast<T>(f(static_cast<C>(a), static_cast<C>(b)));
}

// add of pred is logical or, mul of pred is logical and.
struct AddFn {
  template <typename T>
  static constexpr bool kAccepts = true;
  template <typename T>
  T operator()(T a, T b) const {
    if constexpr (kIsPred<T>) {
      return a || b;
    } else if constexpr (kIsInt<T>) {
      return WrapAdd(a, b);
    } else {
      return InCompute(a, b, [](auto x, auto y) { return x + y; });
    }
  }
};

struct MulFn {
  template <typename T>
  static constexpr bool kAccepts = true;
  template <typename T>
  T operator()(T a, T b) const {
    if constexpr (kIsPred<T>) {
      return a && b;
    } else if constexpr (kIsInt<T>) {
      return WrapMul(a, b);
    } else {
      return InCompute(a, b, [](auto x, auto y) { return x * y; });
    }
  }
};

struct SubFn {
  template <typename T>
  static constexpr bool kAccepts = kIsInt<T> || kIsFloat<T> || kIsComplex<T>;
  template <typename T>
  T operator()(T a, T b) const {
    if constexpr (kIsInt<T>) {
      return WrapSub(a, b);
    } else {
      return InCompute(a, b, [](auto x, auto y) { return x - y; });
    }
  }
};


// Integer division by zero gives -1 (signed) or the maximum (unsigned), and INT_MIN / -1
// gives INT_MIN, as XLA defines them.
struct DivFn {
  template <typename T>
  static constexpr bool kAccepts = kIsInt<T> || kIsFloat<T>;
  template <typename T>
  T operator()(T a, T b) const {
    if constexpr (kIsInt<T>) {
      if (b == 0) return kIsSignedInt<T> ? T(-1) : std::numeric_limits<T>::max();
      if constexpr (kIsSignedInt<T>) {
        if (a == std::numeric_limits<T>::min() && b == T(-1)) return a;
      }
      return static_cast<T>(a / b);
    } else {
      return InCompute(a, b, [](auto x, auto y) { return x / y; });
    }
  }
};

// Logical for pred, bitwise for integers.
struct AndFn {
  template <typename T>
  static constexpr bool kAccepts = kIsPred<T> || kIsInt<T>;
  template <typename T>
  T operator()(T a, T b) const {
    return static_cast<T>(a & b);
  }
};
struct OrFn {
  template <typename T>
  static constexpr bool kAccepts = kIsPred<T> || kIsInt<T>;
  template <typename T>
  T operator()(T a, T b) const {
    return static_cast<T>(a | b);
  }
};

}  // namespace tessel::runtime

#endif  // TESSEL_RUNTIME_KERNELS_ELEMENTWISE_UTIL_H_
