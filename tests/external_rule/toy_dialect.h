// A dialect that stands for a compiler's own ops: `toy.matmul`, a matrix product of two
// rank-2 tensors, written in C++ without ODS and in MLIR's generic form:
//   %c = "toy.matmul"(%a, %b) : (tensor<8x6xf32>, tensor<6x4xf32>) -> tensor<8x4xf32>
// Tessel knows nothing of it; toy_sharding_rule.h gives it a rule from outside.
#ifndef TESSEL_TESTS_EXTERNAL_RULE_TOY_DIALECT_H_
#define TESSEL_TESTS_EXTERNAL_RULE_TOY_DIALECT_H_

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"

namespace toy {

class ToyDialect : public mlir::Dialect {
 public:
  explicit ToyDialect(mlir::MLIRContext* context);
  static constexpr llvm::StringLiteral getDialectNamespace() { return "toy"; }
};

// result[i, j] = sum over k of lhs[i, k] * rhs[k, j].
class MatmulOp : public mlir::Op<MatmulOp, mlir::OpTrait::ZeroRegions, mlir::OpTrait::OneResult,
                                 mlir::OpTrait::OneTypedResult<mlir::RankedTensorType>::Impl,
                                 mlir::OpTrait::ZeroSuccessors, mlir::OpTrait::NOperands<2>::Impl> {
 public:
  using Op::Op;
  static constexpr llvm::StringLiteral getOperationName() { return "toy.matmul"; }
  static llvm::ArrayRef<llvm::StringRef> getAttributeNames() { return {}; }
  // Static rank-2 shapes (m x k) and (k x n) giving (m x n), one element type.
  mlir::LogicalResult verify();
};

}  // namespace toy

MLIR_DECLARE_EXPLICIT_TYPE_ID(toy::ToyDialect)
MLIR_DECLARE_EXPLICIT_TYPE_ID(toy::MatmulOp)

#endif  // TESSEL_TESTS_EXTERNAL_RULE_TOY_DIALECT_H_
