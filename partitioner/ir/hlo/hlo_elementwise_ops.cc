// Type inference and verifiers of the elementwise ops whose types are not all one
// (is_finite, compare, select, clamp, complex, real, imag). ODS infers the result of select and
// clamp from their AllTypesMatch traits; the other elementwise ops are fully described by their ODS
// traits.
#include "mlir/IR/TypeUtilities.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/ir/hlo/hlo_verify_utils.h"

namespace tessel::hlo {
namespace {

// Succeeds if `type` is rank-0 or has the shape of `like`; `what` names the operand. Used
// for operands that either apply to every element or give one value per element.
mlir::LogicalResult verifyScalarOrSameShape(EmitErrorFn emitError, mlir::RankedTensorType type,
                                            mlir::RankedTensorType like,
                                            llvm::StringRef what, llvm::StringRef likeWhat) {
  if (type.getRank() == 0 || type.getShape() == like.getShape()) return mlir::success();
  return emitError() << what << " must be rank-0 or have the shape of " << likeWhat << " "
                     << like << ", got " << type;
}

// The pred tensor of `type`'s shape. Any other type is returned unchanged: the parser
// infers before the operand's type constraint has run, and that constraint then rejects
// the op with a clearer message than inference could.
mlir::Type predTensorLike(mlir::Type type) {
  auto tensor = mlir::dyn_cast<mlir::RankedTensorType>(type);
  if (!tensor) return type;
  return mlir::RankedTensorType::get(tensor.getShape(),
                                     mlir::IntegerType::get(type.getContext(), 1));
}

}  // namespace

mlir::LogicalResult IsFiniteOp::inferReturnTypes(
    mlir::MLIRContext*, std::optional<mlir::Location>, mlir::ValueRange operands,
    mlir::DictionaryAttr, mlir::OpaqueProperties, mlir::RegionRange,
    llvm::SmallVectorImpl<mlir::Type>& inferred) {
  if (operands.empty()) return mlir::failure();  // rejected by the operand count check
  inferred.push_back(predTensorLike(operands[0].getType()));
  return mlir::success();
}

mlir::LogicalResult CompareOp::inferReturnTypes(
    mlir::MLIRContext*, std::optional<mlir::Location>, mlir::ValueRange operands,
    mlir::DictionaryAttr, mlir::OpaqueProperties, mlir::RegionRange,
    llvm::SmallVectorImpl<mlir::Type>& inferred) {
  if (operands.empty()) return mlir::failure();  // rejected by the operand count check
  inferred.push_back(predTensorLike(operands[0].getType()));
  return mlir::success();
}

mlir::LogicalResult CompareOp::verify() {
  std::optional<ComparisonType> compareType = getCompareType();
  if (!compareType) return mlir::success();
  mlir::Type element = getLhs().getType().getElementType();
  bool fits = false;
  switch (*compareType) {
    case ComparisonType::FLOAT:
    case ComparisonType::TOTALORDER:
      fits = mlir::isa<mlir::FloatType>(element);
      break;
    case ComparisonType::SIGNED:
      fits = element.isSignlessInteger() && !element.isInteger(1);
      break;
    case ComparisonType::UNSIGNED:
      // pred orders false < true, which is the unsigned order of its one bit.
      fits = element.isUnsignedInteger() || element.isInteger(1);
      break;
  }
  if (fits) return mlir::success();
  return emitOpError() << "comparison type " << stringifyComparisonType(*compareType)
                       << " does not fit element type " << element;
}

mlir::LogicalResult SelectOp::verify() {
  return verifyScalarOrSameShape([&] { return emitOpError(); }, getPred().getType(),
                                 getOnTrue().getType(), "pred", "on_true");
}

mlir::LogicalResult ClampOp::verify() {
  auto operandType = getOperand().getType();
  for (auto [bound, name] : {std::pair{getMin(), "min"}, std::pair{getMax(), "max"}}) {
    auto boundType = mlir::cast<mlir::RankedTensorType>(bound.getType());
    if (failed(verifyScalarOrSameShape([&] { return emitOpError(); }, boundType, operandType,
                                       name, "operand"))) {
      return mlir::failure();
    }
    if (boundType.getElementType() != operandType.getElementType()) {
      return emitOpError() << name << " element type " << boundType.getElementType()
                           << " differs from operand element type "
                           << operandType.getElementType();
    }
  }
  return mlir::success();
}

mlir::LogicalResult ReducePrecisionOp::verify() {
  // The attributes are signless; read them signed so that -1 is not 4294967295.
  const int64_t exponentBits = getExponentBitsAttr().getInt();
  const int64_t mantissaBits = getMantissaBitsAttr().getInt();
  if (exponentBits < 1) {
    return emitOpError() << "exponent_bits must be at least 1, got " << exponentBits;
  }
  if (mantissaBits < 0) {
    return emitOpError() << "mantissa_bits must not be negative, got " << mantissaBits;
  }
  return mlir::success();
}

// The shapes of the two sides follow from their bit widths (see the op's description).
mlir::LogicalResult ComplexOp::verify() {
  mlir::Type part = mlir::getElementTypeOrSelf(getLhs().getType());
  if (getLhs().getType() != getRhs().getType()) {
    return emitOpError() << "real and imaginary parts differ in type: " << getLhs().getType()
                         << " and " << getRhs().getType();
  }
  mlir::Type expected = mlir::ComplexType::get(part);
  if (mlir::getElementTypeOrSelf(getResult().getType()) != expected) {
    return emitOpError() << "result elements must be " << expected << " for parts of type " << part;
  }
  return mlir::success();
}

// Real and imaginary parts have the complex type's part type (f32 for complex<f32>).
static mlir::LogicalResult verifyComplexPart(mlir::Operation* op, mlir::Value operand,
                                             mlir::Value result) {
  auto complex = mlir::cast<mlir::ComplexType>(mlir::getElementTypeOrSelf(operand.getType()));
  if (mlir::getElementTypeOrSelf(result.getType()) != complex.getElementType()) {
    return op->emitOpError() << "result elements must be " << complex.getElementType()
                             << " for operand elements " << complex;
  }
  return mlir::success();
}

mlir::LogicalResult RealOp::verify() {
  return verifyComplexPart(getOperation(), getOperand(), getResult());
}

mlir::LogicalResult ImagOp::verify() {
  return verifyComplexPart(getOperation(), getOperand(), getResult());
}

mlir::LogicalResult BitcastConvertOp::verify() {
  auto operandType = mlir::cast<mlir::RankedTensorType>(getOperand().getType());
  auto resultType = mlir::cast<mlir::RankedTensorType>(getResult().getType());
  for (mlir::Type element : {operandType.getElementType(), resultType.getElementType()}) {
    if (element.isInteger(1)) return emitOpError() << "does not take pred (i1) elements";
  }
  const unsigned inBits = operandType.getElementTypeBitWidth();
  const unsigned outBits = resultType.getElementTypeBitWidth();
  llvm::SmallVector<int64_t> expected(operandType.getShape());
  if (inBits > outBits) {
    expected.push_back(inBits / outBits);
  } else if (inBits < outBits) {
    if (expected.empty() || expected.back() != outBits / inBits) {
      return emitOpError() << "from " << inBits << "-bit to " << outBits
                           << "-bit elements needs an operand whose minor dimension is "
                           << outBits / inBits << ", got " << operandType;
    }
    expected.pop_back();
  }
  if (llvm::ArrayRef<int64_t>(expected) != resultType.getShape()) {
    std::string shape;
    llvm::raw_string_ostream os(shape);
    llvm::interleave(expected, os, "x");
    return emitOpError() << "result shape must be " << (expected.empty() ? "rank-0" : shape)
                         << " for " << operandType << " to " << resultType.getElementType()
                         << ", got " << resultType;
  }
  return mlir::success();
}

}  // namespace tessel::hlo
