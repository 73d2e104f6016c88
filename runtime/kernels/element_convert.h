// Element type traits of the kernels and the conversion of one element between runtime
// element types with XLA's rules. hlo.convert and hlo.iota use ConvertElement; the other
// kernels use the traits to pick what an op accepts and how it computes.
//
//   f16 h = ConvertElement<f16>(int64_t{2049});   // 2048: one rounding, to nearest even
//   int8_t i = ConvertElement<int8_t>(300.5f);     // 127: float to int saturates
#ifndef TESSEL_RUNTIME_KERNELS_ELEMENT_CONVERT_H_
#define TESSEL_RUNTIME_KERNELS_ELEMENT_CONVERT_H_

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "runtime/element_type.h"

namespace tessel::runtime {

template <typename T>
inline constexpr bool kIsPred = std::is_same_v<T, bool>;
template <typename T>
inline constexpr bool kIsHalfFloat = std::is_same_v<T, f16> || std::is_same_v<T, bf16>;
template <typename T>
inline constexpr bool kIsFloat = kIsHalfFloat<T> || std::is_floating_point_v<T>;
template <typename T>
inline constexpr bool kIsInt = std::is_integral_v<T> && !kIsPred<T>;
template <typename T>
inline constexpr bool kIsSignedInt = kIsInt<T>&& std::is_signed_v<T>;

// f16 and bf16 math runs in float and is rounded once to the narrow type at the end, which
// is what XLA's CPU backend does; every other type computes in itself.
template <typename T>
using ComputeType = std::conditional_t<kIsHalfFloat<T>, float, T>;

namespace convert_internal {

// `value` rounded to float "to odd": exact values stay, an inexact one becomes the
// neighbouring float whose last significand bit is 1. Rounding that result to nearest even
// in a type with at least two fewer significand bits (f16, bf16) gives the same answer as
// rounding `value` directly, so double → f16 does not suffer from double rounding.
inline float RoundToOddFloat(double value) {
  float nearest = static_cast<float>(value);
  if (std::isnan(value) || static_cast<double>(nearest) == value) return nearest;
  // A finite value beyond the float range: its truncation is the largest float, which is
  // odd and still overflows in the narrow type.
  if (std::isinf(nearest)) return std::copysign(std::numeric_limits<float>::max(), nearest);
  uint32_t bits;
  std::memcpy(&bits, &nearest, sizeof(bits));
  if (bits & 1) return nearest;
  // `value` lies strictly between `nearest` and its other neighbour, which is odd.
  float toward = static_cast<double>(nearest) < value ? std::numeric_limits<float>::infinity()
                                                      : -std::numeric_limits<float>::infinity();
  return std::nextafter(nearest, toward);
}

// `value` as a double, rounded to odd (see above) when it has more than 53 significant bits.
template <typename I>
double RoundToOddDouble(I value) {
  if constexpr (sizeof(I) < sizeof(uint64_t)) {
    return static_cast<double>(value);
  } else {
    uint64_t magnitude =
        value < 0 ? uint64_t{0} - static_cast<uint64_t>(value) : static_cast<uint64_t>(value);
    if (magnitude < (uint64_t{1} << 53)) return static_cast<double>(value);
    int width = 64 - __builtin_clzll(magnitude);
    int dropped = width - 53;
    uint64_t kept = magnitude >> dropped;
    if (magnitude & ((uint64_t{1} << dropped) - 1)) kept |= 1;  // sticky bit
    double result = std::ldexp(static_cast<double>(kept), dropped);
    return value < 0 ? -result : result;
  }
}

// Float to integer: rounds toward zero and saturates at the type's bounds; NaN gives 0.
template <typename To>
To SaturatingFloatToInt(double value) {
  if (std::isnan(value)) return To{0};
  constexpr double kLowest = static_cast<double>(std::numeric_limits<To>::min());
  // 2^digits is the first value past the largest one, and exactly representable.
  const double kPastHighest = std::ldexp(1.0, std::numeric_limits<To>::digits);
  if (value <= kLowest) return std::numeric_limits<To>::min();
  if (value >= kPastHighest) return std::numeric_limits<To>::max();
  return static_cast<To>(value);  // truncates toward zero
}

}  // namespace convert_internal

// Converts `value` to element type `To` the way hlo.convert does:
//   - to pred: value != 0 (NaN gives true, like any nonzero);
//   - from pred: 0 or 1;
//   - integer to integer: two's complement wrap (truncation or sign/zero extension);
//   - float to integer: toward zero, saturating, NaN → 0;
//   - to a float type: round to nearest even, with exactly one rounding (so f64 → bf16 and
//     s64 → f16 do not round twice through f32).
template <typename To, typename From>
To ConvertElement(From value) {
  if constexpr (std::is_same_v<To, From>) {
    return value;
  } else if constexpr (kIsPred<To>) {
    return static_cast<ComputeType<From>>(value) != ComputeType<From>(0);
  } else if constexpr (kIsPred<From>) {
    return value ? To(1) : To(0);
  } else if constexpr (kIsInt<To>) {
    if constexpr (kIsInt<From>) {
      return static_cast<To>(value);
    } else {
      return convert_internal::SaturatingFloatToInt<To>(
          static_cast<double>(static_cast<ComputeType<From>>(value)));
    }
  } else if constexpr (kIsHalfFloat<To>) {
    if constexpr (kIsInt<From>) {
      return To(convert_internal::RoundToOddFloat(convert_internal::RoundToOddDouble(value)));
    } else if constexpr (std::is_same_v<From, double>) {
      return To(convert_internal::RoundToOddFloat(value));
    } else {
      return To(static_cast<float>(value));  // float, f16, bf16 are exact in float
    }
  } else if constexpr (kIsHalfFloat<From>) {
    return static_cast<To>(static_cast<float>(value));  // widening: exact
  } else {
    // Integer or double to float/double: the hardware conversion rounds once, to nearest
    // even.
    return static_cast<To>(value);
  }
}

}  // namespace tessel::runtime

#endif  // TESSEL_RUNTIME_KERNELS_ELEMENT_CONVERT_H_
