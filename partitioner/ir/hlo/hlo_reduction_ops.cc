// Verification, type inference and custom assembly of the reductions: hlo.reduce,
// hlo.reduce_window and hlo.select_and_scatter.
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "mlir/IR/BuiltinTypes.h"
#include "partitioner/ir/hlo/hlo_clause_format.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/ir/hlo/hlo_verify_utils.h"

namespace tessel::hlo {
namespace {

// Checks what reduce and reduce_window share: at least one input, all inputs of one shape,
// and one rank-0 init value per input with that input's element type.
mlir::LogicalResult verifyInputsAndInits(EmitErrorFn emitError, mlir::TypeRange inputs,
                                         mlir::TypeRange inits) {
  if (inputs.empty()) return emitError() << "must have at least one input";
  if (inputs.size() != inits.size()) {
    return emitError() << "has " << inputs.size() << " inputs but " << inits.size()
                       << " init values";
  }
  auto first = llvm::cast<mlir::RankedTensorType>(inputs.front());
  for (auto [index, type] : llvm::enumerate(inputs)) {
    auto input = llvm::cast<mlir::RankedTensorType>(type);
    if (input.getShape() != first.getShape()) {
      return emitError() << "input " << index << " has type " << input
                         << ", but all inputs must have the shape of input 0 (" << first << ")";
    }
  }
  for (auto [index, init, expected] : llvm::enumerate(inits, getScalarTensorTypes(inputs))) {
    if (init != expected) {
      return emitError() << "init value " << index << " must be " << expected << ", got " << init;
    }
  }
  return mlir::success();
}

// The reducer of reduce and reduce_window takes (acc_0..acc_{N-1}, x_0..x_{N-1}) and
// returns N values, all rank-0 with the element types of the inputs.
mlir::LogicalResult verifyReducer(EmitErrorFn emitError, mlir::Region& body,
                                  mlir::TypeRange inputs) {
  llvm::SmallVector<mlir::Type> scalars = getScalarTensorTypes(inputs);
  llvm::SmallVector<mlir::Type> args(scalars);
  args.append(scalars.begin(), scalars.end());
  return verifyRegionSignature(emitError, body, args, scalars, "reducer");
}

// Results of shape `shape` with the element types of `inputs`.
void appendResultTypes(mlir::TypeRange inputs, llvm::ArrayRef<int64_t> shape,
                       llvm::SmallVectorImpl<mlir::Type>& results) {
  for (mlir::Type input : inputs) {
    results.push_back(
        mlir::RankedTensorType::get(shape, llvm::cast<mlir::ShapedType>(input).getElementType()));
  }
}

std::optional<llvm::ArrayRef<int64_t>> toOptional(mlir::DenseI64ArrayAttr attr) {
  if (!attr) return std::nullopt;
  return attr.asArrayRef();
}

}  // namespace

//===----------------------------------------------------------------------===//
// ReduceOp
//===----------------------------------------------------------------------===//

mlir::LogicalResult ReduceOp::inferReturnTypes(mlir::MLIRContext* context,
                                               std::optional<mlir::Location> location,
                                               Adaptor adaptor,
                                               llvm::SmallVectorImpl<mlir::Type>& inferred) {
  InferenceErrorEmitter errors(context, location, getOperationName());
  mlir::TypeRange inputs = adaptor.getInputs().getTypes();
  if (mlir::failed(verifyInputsAndInits(errors, inputs, adaptor.getInitValues().getTypes())))
    return mlir::failure();
  llvm::ArrayRef<int64_t> shape = llvm::cast<mlir::ShapedType>(inputs.front()).getShape();
  llvm::ArrayRef<int64_t> dims = adaptor.getDimensions();
  if (mlir::failed(verifyDimsInRangeAndUnique(errors, dims, shape.size(), "dimensions")))
    return mlir::failure();
  llvm::SmallVector<int64_t> resultShape;
  for (auto [dim, size] : llvm::enumerate(shape)) {
    if (!llvm::is_contained(dims, static_cast<int64_t>(dim))) resultShape.push_back(size);
  }
  appendResultTypes(inputs, resultShape, inferred);
  return mlir::success();
}

mlir::LogicalResult ReduceOp::verifyRegions() {
  return verifyReducer([&] { return emitOpError(); }, getBody(), getInputs().getTypes());
}

//===----------------------------------------------------------------------===//
// ReduceWindowOp
//===----------------------------------------------------------------------===//

mlir::LogicalResult ReduceWindowOp::inferReturnTypes(mlir::MLIRContext* context,
                                                     std::optional<mlir::Location> location,
                                                     Adaptor adaptor,
                                                     llvm::SmallVectorImpl<mlir::Type>& inferred) {
  InferenceErrorEmitter errors(context, location, getOperationName());
  mlir::TypeRange inputs = adaptor.getInputs().getTypes();
  if (mlir::failed(verifyInputsAndInits(errors, inputs, adaptor.getInitValues().getTypes())))
    return mlir::failure();
  llvm::ArrayRef<int64_t> shape = llvm::cast<mlir::ShapedType>(inputs.front()).getShape();
  mlir::FailureOr<WindowSpec> window = resolveWindow(
      errors, shape.size(), adaptor.getWindowDimensions(),
      toOptional(adaptor.getWindowStridesAttr()), toOptional(adaptor.getBaseDilationsAttr()),
      toOptional(adaptor.getWindowDilationsAttr()), adaptor.getPaddingAttr(),
      /*allowNegativePadding=*/false);
  if (mlir::failed(window)) return mlir::failure();
  mlir::FailureOr<llvm::SmallVector<int64_t>> resultShape =
      inferWindowOutputShape(errors, shape, *window);
  if (mlir::failed(resultShape)) return mlir::failure();
  appendResultTypes(inputs, *resultShape, inferred);
  return mlir::success();
}

mlir::LogicalResult ReduceWindowOp::verifyRegions() {
  return verifyReducer([&] { return emitOpError(); }, getBody(), getInputs().getTypes());
}

mlir::ParseResult parseWindowAttrs(mlir::OpAsmParser& parser,
                                   mlir::DenseI64ArrayAttr& windowStrides,
                                   mlir::DenseI64ArrayAttr& baseDilations,
                                   mlir::DenseI64ArrayAttr& windowDilations,
                                   mlir::DenseIntElementsAttr& padding) {
  mlir::Attribute strides, base, window, pad;
  OptionalClause clauses[] = {{"window_strides", ClauseKind::kI64List, &strides},
                              {"base_dilations", ClauseKind::kI64List, &base},
                              {"window_dilations", ClauseKind::kI64List, &window},
                              {"padding", ClauseKind::kPadding, &pad}};
  if (parseOptionalClauses(parser, clauses)) return mlir::failure();
  windowStrides = llvm::cast_or_null<mlir::DenseI64ArrayAttr>(strides);
  baseDilations = llvm::cast_or_null<mlir::DenseI64ArrayAttr>(base);
  windowDilations = llvm::cast_or_null<mlir::DenseI64ArrayAttr>(window);
  padding = llvm::cast_or_null<mlir::DenseIntElementsAttr>(pad);
  return mlir::success();
}

void printWindowAttrs(mlir::OpAsmPrinter& printer, mlir::Operation*,
                      mlir::DenseI64ArrayAttr windowStrides, mlir::DenseI64ArrayAttr baseDilations,
                      mlir::DenseI64ArrayAttr windowDilations, mlir::DenseIntElementsAttr padding) {
  mlir::Attribute strides = windowStrides, base = baseDilations, window = windowDilations,
                  pad = padding;
  printOptionalClauses(printer, {{"window_strides", ClauseKind::kI64List, &strides},
                                 {"base_dilations", ClauseKind::kI64List, &base},
                                 {"window_dilations", ClauseKind::kI64List, &window},
                                 {"padding", ClauseKind::kPadding, &pad}});
}

//===----------------------------------------------------------------------===//
// SelectAndScatterOp
//===----------------------------------------------------------------------===//

mlir::LogicalResult SelectAndScatterOp::inferReturnTypes(
    mlir::MLIRContext*, std::optional<mlir::Location>, Adaptor adaptor,
    llvm::SmallVectorImpl<mlir::Type>& inferred) {
  inferred.push_back(adaptor.getOperand().getType());
  return mlir::success();
}

mlir::LogicalResult SelectAndScatterOp::verify() {
  auto emitError = [&] { return emitOpError(); };
  auto operandType = llvm::cast<mlir::RankedTensorType>(getOperand().getType());
  auto sourceType = llvm::cast<mlir::RankedTensorType>(getSource().getType());
  mlir::Type scalar = getScalarTensorTypes(operandType).front();
  if (getInitValue().getType() != scalar) {
    return emitOpError() << "init_value must be " << scalar << ", got " << getInitValue().getType();
  }
  if (sourceType.getElementType() != operandType.getElementType()) {
    return emitOpError() << "source element type must be " << operandType.getElementType()
                         << " like the operand's, got " << sourceType.getElementType();
  }
  mlir::FailureOr<WindowSpec> window = resolveWindow(
      emitError, operandType.getRank(), getWindowDimensions(), toOptional(getWindowStridesAttr()),
      std::nullopt, std::nullopt, getPaddingAttr(),
      /*allowNegativePadding=*/false);
  if (mlir::failed(window)) return mlir::failure();
  mlir::FailureOr<llvm::SmallVector<int64_t>> windowShape =
      inferWindowOutputShape(emitError, operandType.getShape(), *window);
  if (mlir::failed(windowShape)) return mlir::failure();
  if (sourceType.getShape() != llvm::ArrayRef<int64_t>(*windowShape)) {
    return emitOpError() << "source shape must be the window output shape ["
                         << llvm::ArrayRef<int64_t>(*windowShape) << "], got ["
                         << sourceType.getShape() << "]";
  }
  return mlir::success();
}

mlir::LogicalResult SelectAndScatterOp::verifyRegions() {
  auto emitError = [&] { return emitOpError(); };
  mlir::Type scalar = getScalarTensorTypes(getOperand().getType()).front();
  mlir::Type pred = mlir::RankedTensorType::get({}, mlir::IntegerType::get(getContext(), 1));
  if (mlir::failed(
          verifyRegionSignature(emitError, getSelect(), {scalar, scalar}, {pred}, "select"))) {
    return mlir::failure();
  }
  return verifyRegionSignature(emitError, getScatter(), {scalar, scalar}, {scalar}, "scatter");
}

mlir::ParseResult parseWindowAttrs(mlir::OpAsmParser& parser,
                                   mlir::DenseI64ArrayAttr& windowStrides,
                                   mlir::DenseIntElementsAttr& padding) {
  mlir::Attribute strides, pad;
  OptionalClause clauses[] = {{"window_strides", ClauseKind::kI64List, &strides},
                              {"padding", ClauseKind::kPadding, &pad}};
  if (parseOptionalClauses(parser, clauses)) return mlir::failure();
  windowStrides = llvm::cast_or_null<mlir::DenseI64ArrayAttr>(strides);
  padding = llvm::cast_or_null<mlir::DenseIntElementsAttr>(pad);
  return mlir::success();
}

void printWindowAttrs(mlir::OpAsmPrinter& printer, mlir::Operation*,
                      mlir::DenseI64ArrayAttr windowStrides, mlir::DenseIntElementsAttr padding) {
  mlir::Attribute strides = windowStrides, pad = padding;
  printOptionalClauses(printer, {{"window_strides", ClauseKind::kI64List, &strides},
                                 {"padding", ClauseKind::kPadding, &pad}});
}

}  // namespace tessel::hlo
