// Refusing tensor shapes whose size overflows (tensor_sizes.h).
#include "partitioner/ir/tensor_sizes.h"

#include <cstdint>

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"

namespace tessel::ir {
namespace {

// Whether `type` is a static tensor whose bytes do not fit in int64_t.
bool overflows(mlir::Type type) {
  auto tensor = llvm::dyn_cast<mlir::RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape()) return false;
  mlir::Type element = tensor.getElementType();
  int64_t bytes = element.isIntOrFloat() ? (element.getIntOrFloatBitWidth() + 7) / 8 : 1;
  if (bytes == 0) bytes = 1;
  for (int64_t dim : tensor.getShape()) {
    if (dim == 0) return false;
    if (__builtin_mul_overflow(bytes, dim, &bytes)) return true;
  }
  return false;
}

}  // namespace

mlir::LogicalResult verifyTensorSizes(mlir::Operation* root) {
  bool failed = false;
  root->walk([&](mlir::Operation* op) {
    auto report = [&](mlir::Type type, llvm::StringRef what) {
      op->emitError() << what << " of type " << type
                      << " would hold more than 2^63 - 1 bytes";
      failed = true;
    };
    for (mlir::Value result : op->getResults()) {
      if (overflows(result.getType())) report(result.getType(), "a result");
    }
    for (mlir::Region& region : op->getRegions()) {
      for (mlir::Block& block : region) {
        for (mlir::BlockArgument arg : block.getArguments()) {
          if (overflows(arg.getType())) report(arg.getType(), "an argument");
        }
      }
    }
  });
  return mlir::failure(failed);
}

}  // namespace tessel::ir
