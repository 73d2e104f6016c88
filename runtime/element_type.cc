// Classification and MLIR mapping of runtime element types.
#include "runtime/element_type.h"

#include <optional>

#include "absl/strings/str_cat.h"
#include "collectives/data_type_mlir.h"
#include "llvm/Support/raw_ostream.h"
#include "mlir/IR/BuiltinTypes.h"

namespace tessel::runtime {
bool IsFloat(ElementType type) {
  return type == ElementType::kF16 || type == ElementType::kBF16 ||
         type == ElementType::kF32 || type == ElementType::kF64;
}

bool IsComplex(ElementType type) { return collectives::IsComplexDataType(type); }

bool IsSignedInt(ElementType type) {
  return type == ElementType::kS8 || type == ElementType::kS16 || type == ElementType::kS32 ||
         type == ElementType::kS64;
}

bool IsUnsignedInt(ElementType type) {
  return type == ElementType::kU8 || type == ElementType::kU16 || type == ElementType::kU32 ||
         type == ElementType::kU64;
}

absl::StatusOr<ElementType> ElementTypeFromMlir(mlir::Type type) {
  if (type.isInteger(1)) return ElementType::kPred;
  if (auto integer = llvm::dyn_cast<mlir::IntegerType>(type)) {
    bool isUnsigned = integer.isUnsigned();
    if (integer.isSignless() || isUnsigned) {
      switch (integer.getWidth()) {
        case 8: return isUnsigned ? ElementType::kU8 : ElementType::kS8;
        case 16: return isUnsigned ? ElementType::kU16 : ElementType::kS16;
        case 32: return isUnsigned ? ElementType::kU32 : ElementType::kS32;
        case 64: return isUnsigned ? ElementType::kU64 : ElementType::kS64;
        default: break;
      }
    }
  }
  if (type.isF16()) return ElementType::kF16;
  if (type.isBF16()) return ElementType::kBF16;
  if (type.isF32()) return ElementType::kF32;
  if (type.isF64()) return ElementType::kF64;
  if (auto complex = llvm::dyn_cast<mlir::ComplexType>(type)) {
    if (complex.getElementType().isF32()) return ElementType::kC64;
    if (complex.getElementType().isF64()) return ElementType::kC128;
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  os << type;
  return absl::InvalidArgumentError(absl::StrCat("unsupported element type ", os.str()));
}

mlir::Type ElementTypeToMlir(ElementType type, mlir::MLIRContext* context) {
  return collectives::DataTypeToMlir(type, context);
}

absl::StatusOr<ElementType> ParseElementType(absl::string_view name) {
  if (std::optional<ElementType> type = collectives::DataTypeFromName(name)) return *type;
  return absl::InvalidArgumentError(absl::StrCat("unknown element type \"", name, "\""));
}

}  // namespace tessel::runtime
