// Tensor sizes in bytes (see tensor_bytes.h).
#include "cost_model/tensor_bytes.h"

#include "mlir/IR/BuiltinTypes.h"

namespace tessel::cost_model {

int64_t ElementBytes(mlir::Type element_type) {
  if (!element_type.isIntOrFloat()) return 0;
  return (static_cast<int64_t>(element_type.getIntOrFloatBitWidth()) + 7) / 8;
}

int64_t ElementCount(mlir::Type type) {
  auto tensor = llvm::dyn_cast<mlir::RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape()) return 0;
  return tensor.getNumElements();
}

int64_t TensorBytes(mlir::Type type) {
  auto tensor = llvm::dyn_cast<mlir::RankedTensorType>(type);
  if (!tensor) return 0;
  return ElementCount(type) * ElementBytes(tensor.getElementType());
}

int64_t TotalBytes(mlir::ValueRange values) {
  int64_t total = 0;
  for (mlir::Value value : values) total += TensorBytes(value.getType());
  return total;
}

}  // namespace tessel::cost_model
