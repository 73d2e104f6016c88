// Elements attributes ↔ host tensors, bit-exact for every element type.
#include "runtime/attr_conversion.h"

#include <cstring>

#include "absl/strings/str_cat.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/APInt.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "support/status_macros.h"

namespace tessel::runtime {
namespace {

// Stores the low bytes of `bits` (the element's bit pattern) as a T.
// Stores the low bytes of `bits` (the element's bit pattern) as a T. Eigen's half types
// are not trivially copyable in C++'s sense, so the copy goes through a byte pointer.
template <typename T>
T FromBits(uint64_t bits) {
  T value{};
  std::memcpy(static_cast<void*>(&value), &bits, sizeof(T));  // little-endian: low bytes
  return value;
}

template <typename T>
uint64_t ToBits(T value) {
  uint64_t bits = 0;
  std::memcpy(&bits, static_cast<const void*>(&value), sizeof(T));
  return bits;
}

}  // namespace

absl::StatusOr<Tensor> TensorFromElementsAttr(mlir::ElementsAttr attr) {
  auto dense = llvm::dyn_cast<mlir::DenseElementsAttr>(attr);
  if (!dense) return absl::InvalidArgumentError("only dense elements attributes are supported");
  auto type = llvm::cast<mlir::RankedTensorType>(dense.getType());
  TESSEL_ASSIGN_OR_RETURN(ElementType elementType, ElementTypeFromMlir(type.getElementType()));
  Tensor tensor = Tensor::Zeros(elementType, Shape(type.getShape().begin(), type.getShape().end()));
  DispatchElementType(elementType, [&](auto tag) {
    using T = typename decltype(tag)::type;
    absl::Span<T> out = tensor.data<T>();
    int64_t i = 0;
    if constexpr (kIsComplex<T>) {
      // MLIR stores complex<f32> / complex<f64> elements as std::complex values.
      for (const T& value : dense.getValues<T>()) out[i++] = value;
    } else if (IsFloat(elementType)) {
      for (const llvm::APFloat& value : dense.getValues<llvm::APFloat>()) {
        out[i++] = FromBits<T>(value.bitcastToAPInt().getZExtValue());
      }
    } else if constexpr (std::is_same_v<T, bool>) {
      for (bool value : dense.getValues<bool>()) out[i++] = value;
    } else {
      for (const llvm::APInt& value : dense.getValues<llvm::APInt>()) {
        out[i++] = FromBits<T>(value.getZExtValue());
      }
    }
  });
  return tensor;
}

mlir::DenseElementsAttr TensorToElementsAttr(const Tensor& tensor, mlir::MLIRContext* context) {
  mlir::Type elementType = ElementTypeToMlir(tensor.type(), context);
  auto type = mlir::RankedTensorType::get(tensor.shape(), elementType);
  return DispatchElementType(tensor.type(), [&](auto tag) -> mlir::DenseElementsAttr {
    using T = typename decltype(tag)::type;
    absl::Span<const T> values = tensor.data<T>();
    if constexpr (std::is_same_v<T, bool>) {
      llvm::SmallVector<bool> bits(values.begin(), values.end());
      return mlir::DenseElementsAttr::get(type, llvm::ArrayRef<bool>(bits));
    } else if constexpr (kIsComplex<T>) {
      return mlir::DenseElementsAttr::get(type, llvm::ArrayRef<T>(values.data(), values.size()));
    } else {
      unsigned width = elementType.getIntOrFloatBitWidth();
      llvm::SmallVector<llvm::APInt> ints;
      for (T value : values) ints.emplace_back(width, ToBits(value));
      if (IsFloat(tensor.type())) {
        llvm::SmallVector<llvm::APFloat> floats;
        auto& semantics = llvm::cast<mlir::FloatType>(elementType).getFloatSemantics();
        for (const llvm::APInt& bits : ints) floats.emplace_back(semantics, bits);
        return mlir::DenseElementsAttr::get(type, floats);
      }
      return mlir::DenseElementsAttr::get(type, ints);
    }
  });
}

}  // namespace tessel::runtime
