// Template definitions for element_type.h; include element_type.h instead.
#ifndef TESSEL_RUNTIME_ELEMENT_TYPE_INL_H_
#define TESSEL_RUNTIME_ELEMENT_TYPE_INL_H_

#include <type_traits>

namespace tessel::runtime {

template <typename T>
constexpr ElementType ElementTypeOf() {
  if constexpr (std::is_same_v<T, bool>) return ElementType::kPred;
  else if constexpr (std::is_same_v<T, int8_t>) return ElementType::kS8;
  else if constexpr (std::is_same_v<T, int16_t>) return ElementType::kS16;
  else if constexpr (std::is_same_v<T, int32_t>) return ElementType::kS32;
  else if constexpr (std::is_same_v<T, int64_t>) return ElementType::kS64;
  else if constexpr (std::is_same_v<T, uint8_t>) return ElementType::kU8;
  else if constexpr (std::is_same_v<T, uint16_t>) return ElementType::kU16;
  else if constexpr (std::is_same_v<T, uint32_t>) return ElementType::kU32;
  else if constexpr (std::is_same_v<T, uint64_t>) return ElementType::kU64;
  else if constexpr (std::is_same_v<T, f16>) return ElementType::kF16;
  else if constexpr (std::is_same_v<T, bf16>) return ElementType::kBF16;
  else if constexpr (std::is_same_v<T, float>) return ElementType::kF32;
  else {
    static_assert(std::is_same_v<T, double>, "not a runtime element type");
    return ElementType::kF64;
  }
}

}  // namespace tessel::runtime

#endif  // TESSEL_RUNTIME_ELEMENT_TYPE_INL_H_
