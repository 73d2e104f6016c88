// Kernels of the ops that work on the bits of elements: popcnt, count_leading_zeros,
// reduce_precision and bitcast_convert.
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "llvm/ADT/bit.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "runtime/kernels/element_convert.h"
#include "runtime/kernels/elementwise_util.h"
#include "runtime/kernels/kernels.h"
#include "support/status_macros.h"

namespace tessel::runtime {
namespace {

struct PopcntFn {
  template <typename T>
  static constexpr bool kAccepts = kIsInt<T>;
  template <typename T>
  T operator()(T x) const {
    return static_cast<T>(llvm::popcount(static_cast<std::make_unsigned_t<T>>(x)));
  }
};

struct CountLeadingZerosFn {
  template <typename T>
  static constexpr bool kAccepts = kIsInt<T>;
  template <typename T>
  T operator()(T x) const {
    return static_cast<T>(llvm::countl_zero(static_cast<std::make_unsigned_t<T>>(x)));
  }
};

// The unsigned integer of a float type's width, and the float's field widths.
template <typename T>
struct FloatBits;
template <>
struct FloatBits<f16> {
  using U = uint16_t;
  static constexpr int kExponent = 5, kMantissa = 10;
};
template <>
struct FloatBits<bf16> {
  using U = uint16_t;
  static constexpr int kExponent = 8, kMantissa = 7;
};
template <>
struct FloatBits<float> {
  using U = uint32_t;
  static constexpr int kExponent = 8, kMantissa = 23;
};
template <>
struct FloatBits<double> {
  using U = uint64_t;
  static constexpr int kExponent = 11, kMantissa = 52;
};

// Rounds to the format with `exponent_bits` and `mantissa_bits` by integer arithmetic on
// the value's bits, so that the result is exact and the same on every machine: the
// mantissa is rounded to nearest even by adding a bias and truncating (a carry into the
// exponent is the correct rounding up), then exponents the narrow format cannot hold
// become a signed infinity (too large) or a signed zero (below its smallest normal).
struct ReducePrecisionFn {
  int exponent_bits;
  int mantissa_bits;

  template <typename T>
  static constexpr bool kAccepts = kIsFloat<T>;
  template <typename T>
  T operator()(T x) const {
    using Bits = FloatBits<T>;
    using U = typename Bits::U;
    constexpr int kWidth = sizeof(U) * 8;
    U bits = Eigen::numext::bit_cast<U>(x);
    const bool isNaN = std::isnan(static_cast<ComputeType<T>>(x));
    if (mantissa_bits < Bits::kMantissa) {
      const int dropped = Bits::kMantissa - mantissa_bits;
      const U lastKept = U(1) << dropped;
      const U keptLowBit = (bits & lastKept) >> dropped;
      const U bias = static_cast<U>((lastKept >> 1) - 1 + keptLowBit);
      bits = static_cast<U>((bits + bias) & ~static_cast<U>(lastKept - 1));
    }
    if (exponent_bits < Bits::kExponent) {
      const U signMask = U(1) << (kWidth - 1);
      const U exponentMask = static_cast<U>(((U(1) << Bits::kExponent) - 1) << Bits::kMantissa);
      const U bias = (U(1) << (Bits::kExponent - 1)) - 1;
      const U reducedBias = (U(1) << (exponent_bits - 1)) - 1;
      const U exponent = bits & exponentMask;
      const U maxExponent = static_cast<U>((bias + reducedBias) << Bits::kMantissa);
      const U minExponent = static_cast<U>((bias - reducedBias) << Bits::kMantissa);
      if (exponent > maxExponent) {
        bits = static_cast<U>((bits & signMask) | exponentMask);
      } else if (exponent <= minExponent) {
        bits = bits & signMask;
      }
    }
    if (isNaN) {
      // Rounding may have carried a NaN's mantissa into infinity; NaN stays NaN unless the
      // format has no mantissa to hold one.
      if (mantissa_bits > 0) return x;
      bits = static_cast<U>(((U(1) << Bits::kExponent) - 1) << Bits::kMantissa);
    }
    return Eigen::numext::bit_cast<T>(bits);
  }
};

// The operand's bytes, read as the result's element type: the two tensors have the same
// byte size (the verifier checks the shapes), and both are row-major, so a narrower result's
// new minor dimension holds each wide element's parts from least significant up, as on the
// little-endian machines this runs on.
absl::StatusOr<Tensor> BitcastConvert(const Tensor& x, ElementType to, Shape shape) {
  Tensor result = Tensor::Uninitialized(to, std::move(shape));
  if (result.byte_size() != x.byte_size()) {
    return absl::InvalidArgumentError(absl::StrCat("bitcast_convert of ", x.ShapeString(),
                                                   " to ", result.ShapeString(),
                                                   " changes the byte size"));
  }
  static_assert(llvm::endianness::native == llvm::endianness::little,
                "bitcast_convert assumes a little-endian host");
  if (x.byte_size() > 0) std::memcpy(result.bytes().data(), x.bytes().data(), x.byte_size());
  return result;
}

}  // namespace

void RegisterBitKernels(KernelRegistry& registry) {
  registry.Register<hlo::PopcntOp>(
      [](hlo::PopcntOp, KernelArgs args) -> absl::StatusOr<std::vector<Tensor>> {
        return OneResult(MapUnary<PopcntFn>(*args.operands[0], PopcntFn(), args.Overwritable(0)));
      });
  registry.Register<hlo::CountLeadingZerosOp>(
      [](hlo::CountLeadingZerosOp, KernelArgs args) -> absl::StatusOr<std::vector<Tensor>> {
        return OneResult(MapUnary<CountLeadingZerosFn>(*args.operands[0], CountLeadingZerosFn(),
                                                       args.Overwritable(0)));
      });
  registry.Register<hlo::ReducePrecisionOp>(
      [](hlo::ReducePrecisionOp op, KernelArgs args) -> absl::StatusOr<std::vector<Tensor>> {
        ReducePrecisionFn fn{static_cast<int>(op.getExponentBits()),
                             static_cast<int>(op.getMantissaBits())};
        return OneResult(MapUnary(*args.operands[0], fn, args.Overwritable(0)));
      });
  registry.Register<hlo::BitcastConvertOp>(
      [](hlo::BitcastConvertOp op, KernelArgs args) -> absl::StatusOr<std::vector<Tensor>> {
        TESSEL_ASSIGN_OR_RETURN(ElementType to,
                                ElementTypeFromMlir(op.getResult().getType().getElementType()));
        return OneResult(BitcastConvert(*args.operands[0], to, ResultShape(op)));
      });
}

}  // namespace tessel::runtime
