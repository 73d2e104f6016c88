// The element types of Tessel's public API: what a TensorType declares and a HostTensor
// holds. This header names no MLIR, LLVM or Eigen type, so a program that uses the API
// compiles against the installed headers alone.
//
//   TensorType x(ElementType::kF32, {16, 64});
//   ElementTypeName(ElementType::kBF16);   // "bf16"
//   ElementTypeOf<int32_t>();             // ElementType::kS32
//
// The list is the runtime's (pred, s8..s64, u8..u64, f16, bf16, f32, f64, c64, c128), in the
// same order; the library converts between the two in element_type_conversion.h.
#ifndef TESSEL_PARTITIONER_API_ELEMENT_TYPE_H_
#define TESSEL_PARTITIONER_API_ELEMENT_TYPE_H_

#include <complex>
#include <cstdint>
#include <type_traits>

#include "absl/strings/string_view.h"

namespace tessel {

enum class ElementType {
  kPred,
  kS8,
  kS16,
  kS32,
  kS64,
  kU8,
  kU16,
  kU32,
  kU64,
  kF16,
  kBF16,
  kF32,
  kF64,
  kC64,
  kC128,
};

// Every element type, in the order above.
inline constexpr ElementType kAllElementTypes[] = {
    ElementType::kPred, ElementType::kS8,  ElementType::kS16, ElementType::kS32,
    ElementType::kS64,  ElementType::kU8,  ElementType::kU16, ElementType::kU32,
    ElementType::kU64,  ElementType::kF16, ElementType::kBF16, ElementType::kF32,
    ElementType::kF64,  ElementType::kC64, ElementType::kC128,
};

// The XLA spelling: "pred", "s32", "bf16", "c64", ...
absl::string_view ElementTypeName(ElementType type);

// Size of one element in bytes (pred takes one byte).
int64_t ElementTypeSize(ElementType type);

// Maps a C++ element type to its ElementType. Defined here for bool, the fixed-width
// integers, float, double and std::complex<float|double>; f16 and bf16 have no standard C++
// type, so HostTensor reaches them through bytes (FromBytes, bytes()), or a program that uses
// Eigen specializes this template for Eigen::half and Eigen::bfloat16.
template <typename T>
struct ElementTypeTraits;

#define TESSEL_ELEMENT_TYPE_TRAITS_(cpp_type, element_type)        \
  template <>                                                      \
  struct ElementTypeTraits<cpp_type> {                             \
    static constexpr ElementType value = ElementType::element_type; \
  }
TESSEL_ELEMENT_TYPE_TRAITS_(bool, kPred);
TESSEL_ELEMENT_TYPE_TRAITS_(int8_t, kS8);
TESSEL_ELEMENT_TYPE_TRAITS_(int16_t, kS16);
TESSEL_ELEMENT_TYPE_TRAITS_(int32_t, kS32);
TESSEL_ELEMENT_TYPE_TRAITS_(int64_t, kS64);
TESSEL_ELEMENT_TYPE_TRAITS_(uint8_t, kU8);
TESSEL_ELEMENT_TYPE_TRAITS_(uint16_t, kU16);
TESSEL_ELEMENT_TYPE_TRAITS_(uint32_t, kU32);
TESSEL_ELEMENT_TYPE_TRAITS_(uint64_t, kU64);
TESSEL_ELEMENT_TYPE_TRAITS_(float, kF32);
TESSEL_ELEMENT_TYPE_TRAITS_(double, kF64);
TESSEL_ELEMENT_TYPE_TRAITS_(std::complex<float>, kC64);
TESSEL_ELEMENT_TYPE_TRAITS_(std::complex<double>, kC128);
#undef TESSEL_ELEMENT_TYPE_TRAITS_

// The element type of C++ type T; fails to compile for a type without ElementTypeTraits.
template <typename T>
constexpr ElementType ElementTypeOf() {
  return ElementTypeTraits<T>::value;
}

}  // namespace tessel

#endif  // TESSEL_PARTITIONER_API_ELEMENT_TYPE_H_
