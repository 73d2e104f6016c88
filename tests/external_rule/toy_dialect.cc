// The toy dialect's one op and its verifier.
#include "tests/external_rule/toy_dialect.h"

MLIR_DEFINE_EXPLICIT_TYPE_ID(toy::ToyDialect)
MLIR_DEFINE_EXPLICIT_TYPE_ID(toy::MatmulOp)

namespace toy {

ToyDialect::ToyDialect(mlir::MLIRContext* context)
    : mlir::Dialect(getDialectNamespace(), context, mlir::TypeID::get<ToyDialect>()) {
  addOperations<MatmulOp>();
}

mlir::LogicalResult MatmulOp::verify() {
  auto lhs = llvm::dyn_cast<mlir::RankedTensorType>(getOperand(0).getType());
  auto rhs = llvm::dyn_cast<mlir::RankedTensorType>(getOperand(1).getType());
  auto result = llvm::cast<mlir::RankedTensorType>(getType());
  if (!lhs || !rhs || lhs.getRank() != 2 || rhs.getRank() != 2 || result.getRank() != 2 ||
      !lhs.hasStaticShape() || !rhs.hasStaticShape() || !result.hasStaticShape()) {
    return emitOpError("takes and returns static rank-2 tensors");
  }
  if (lhs.getElementType() != rhs.getElementType() ||
      lhs.getElementType() != result.getElementType()) {
    return emitOpError("operands and result differ in element type");
  }
  if (lhs.getDimSize(1) != rhs.getDimSize(0) || result.getDimSize(0) != lhs.getDimSize(0) ||
      result.getDimSize(1) != rhs.getDimSize(1)) {
    return emitOpError("shapes do not make a matrix product");
  }
  return mlir::success();
}

}  // namespace toy
