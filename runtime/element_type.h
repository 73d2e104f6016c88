// The element types a runtime tensor can hold, their C++ representations, and their mapping
// to and from MLIR types (pred → i1, sN → iN, uN → uiN, f16, bf16, f32, f64,
// c64 → complex<f32>, c128 → complex<f64>).
//
//   TESSEL_ASSIGN_OR_RETURN(ElementType type, ElementTypeFromMlir(tensorType.getElementType()));
//   DispatchElementType(type, [&](auto tag) {
//     using T = typename decltype(tag)::type;
//     ...  // code generic over T
//   });
#ifndef TESSEL_RUNTIME_ELEMENT_TYPE_H_
#define TESSEL_RUNTIME_ELEMENT_TYPE_H_

#include <complex>
#include <cstdint>
#include <utility>
#include "absl/strings/string_view.h"

#include "Eigen/Core"
#include "collectives/data_type.h"
#include "absl/status/statusor.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Types.h"

namespace tessel::runtime {

// f16 and bf16 come from Eigen, whose conversions round to nearest even as XLA's do.
using f16 = Eigen::half;
using bf16 = Eigen::bfloat16;
using c64 = std::complex<float>;
using c128 = std::complex<double>;

// The runtime's element types are the collectives' data types: one list, so that tensors
// go to a Communicator without translation. This header adds the MLIR mapping.
using ElementType = collectives::DataType;

// The XLA spelling: "pred", "s32", "bf16", ...
inline absl::string_view ElementTypeName(ElementType type) {
  return collectives::DataTypeName(type);
}

// Size of one element in bytes (pred takes one byte).
inline int64_t ElementTypeSize(ElementType type) { return collectives::DataTypeSize(type); }

bool IsFloat(ElementType type);
bool IsSignedInt(ElementType type);
bool IsUnsignedInt(ElementType type);  // pred is not an integer
bool IsComplex(ElementType type);      // c64, c128 (not IsFloat)

// Fails with InvalidArgument for a type outside the list above (e.g. i7, complex<f16>).
absl::StatusOr<ElementType> ElementTypeFromMlir(mlir::Type type);
mlir::Type ElementTypeToMlir(ElementType type, mlir::MLIRContext* context);

// Parses an XLA spelling ("f32"); fails with InvalidArgument otherwise.
absl::StatusOr<ElementType> ParseElementType(absl::string_view name);

// True for c64 and c128's C++ types (std::complex<float>, std::complex<double>).
using collectives::kIsComplex;

// A tag carrying the C++ type of an element type into a generic lambda.
template <typename T>
using TypeTag = collectives::DataTypeTag<T>;

// Calls `fn(TypeTag<T>{})` with the C++ type T of `type` (bool for pred, std::complex for
// c64 and c128) and returns what it returns.
template <typename Fn>
decltype(auto) DispatchElementType(ElementType type, Fn&& fn) {
  return collectives::DispatchDataType(type, std::forward<Fn>(fn));
}

// The element type of C++ type T.
template <typename T>
constexpr ElementType ElementTypeOf() {
  return collectives::DataTypeOf<T>();
}

}  // namespace tessel::runtime


#endif  // TESSEL_RUNTIME_ELEMENT_TYPE_H_
