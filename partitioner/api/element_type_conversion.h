// Inside the library: the API's ElementType and the runtime's element type (the collectives'
// DataType) are two enums with one list, so that the API's headers need neither Eigen nor
// MLIR. These conversions are casts; the static_asserts in element_type.cc keep the two lists
// in step. Also the Eigen specializations of ElementTypeTraits, for the library's own code.
#ifndef TESSEL_PARTITIONER_API_ELEMENT_TYPE_CONVERSION_H_
#define TESSEL_PARTITIONER_API_ELEMENT_TYPE_CONVERSION_H_

#include "Eigen/Core"
#include "partitioner/api/element_type.h"
#include "runtime/element_type.h"

namespace tessel {

template <>
struct ElementTypeTraits<Eigen::half> {
  static constexpr ElementType value = ElementType::kF16;
};
template <>
struct ElementTypeTraits<Eigen::bfloat16> {
  static constexpr ElementType value = ElementType::kBF16;
};

inline runtime::ElementType ToRuntime(ElementType type) {
  return static_cast<runtime::ElementType>(type);
}

inline ElementType FromRuntime(runtime::ElementType type) {
  return static_cast<ElementType>(type);
}

}  // namespace tessel

#endif  // TESSEL_PARTITIONER_API_ELEMENT_TYPE_CONVERSION_H_
