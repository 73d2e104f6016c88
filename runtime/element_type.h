// The element types a runtime tensor can hold, their C++ representations, and their mapping
// to and from MLIR types (pred → i1, sN → iN, uN → uiN, f16, bf16, f32, f64).
//
//   TESSEL_ASSIGN_OR_RETURN(ElementType type, ElementTypeFromMlir(tensorType.getElementType()));
//   DispatchElementType(type, [&](auto tag) {
//     using T = typename decltype(tag)::type;
//     ...  // code generic over T
//   });
#ifndef TESSEL_RUNTIME_ELEMENT_TYPE_H_
#define TESSEL_RUNTIME_ELEMENT_TYPE_H_

#include <cstdint>
#include "absl/strings/string_view.h"

#include "Eigen/Core"
#include "absl/status/statusor.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Types.h"

namespace tessel::runtime {

// f16 and bf16 come from Eigen, whose conversions round to nearest even as XLA's do.
using f16 = Eigen::half;
using bf16 = Eigen::bfloat16;

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
};

// The XLA spelling: "pred", "s32", "bf16", ...
absl::string_view ElementTypeName(ElementType type);

// Size of one element in bytes (pred takes one byte).
int64_t ElementTypeSize(ElementType type);

bool IsFloat(ElementType type);
bool IsSignedInt(ElementType type);
bool IsUnsignedInt(ElementType type);  // pred is not an integer

// Fails with InvalidArgument for a type outside the list above (e.g. i7, complex).
absl::StatusOr<ElementType> ElementTypeFromMlir(mlir::Type type);
mlir::Type ElementTypeToMlir(ElementType type, mlir::MLIRContext* context);

// Parses an XLA spelling ("f32"); fails with InvalidArgument otherwise.
absl::StatusOr<ElementType> ParseElementType(absl::string_view name);

// A tag carrying the C++ type of an element type into a generic lambda.
template <typename T>
struct TypeTag {
  using type = T;
};

// Calls `fn(TypeTag<T>{})` with the C++ type T of `type` (bool for pred) and returns what
// it returns.
template <typename Fn>
decltype(auto) DispatchElementType(ElementType type, Fn&& fn) {
  switch (type) {
    case ElementType::kPred: return fn(TypeTag<bool>{});
    case ElementType::kS8: return fn(TypeTag<int8_t>{});
    case ElementType::kS16: return fn(TypeTag<int16_t>{});
    case ElementType::kS32: return fn(TypeTag<int32_t>{});
    case ElementType::kS64: return fn(TypeTag<int64_t>{});
    case ElementType::kU8: return fn(TypeTag<uint8_t>{});
    case ElementType::kU16: return fn(TypeTag<uint16_t>{});
    case ElementType::kU32: return fn(TypeTag<uint32_t>{});
    case ElementType::kU64: return fn(TypeTag<uint64_t>{});
    case ElementType::kF16: return fn(TypeTag<f16>{});
    case ElementType::kBF16: return fn(TypeTag<bf16>{});
    case ElementType::kF32: return fn(TypeTag<float>{});
    case ElementType::kF64: return fn(TypeTag<double>{});
  }
  return fn(TypeTag<bool>{});  // unreachable: every enumerator is handled above
}

// The element type of C++ type T.
template <typename T>
constexpr ElementType ElementTypeOf();

}  // namespace tessel::runtime

#include "runtime/element_type_inl.h"

#endif  // TESSEL_RUNTIME_ELEMENT_TYPE_H_
