// Verification and custom assembly of the linear algebra ops: hlo.dot_general and
// hlo.convolution.
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "mlir/IR/BuiltinTypes.h"
#include "partitioner/ir/hlo/hlo_clause_format.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/ir/hlo/hlo_verify_utils.h"

namespace tessel::hlo {
namespace {

// Checks that lhs dimensions `lhsDims[i]` and rhs dimensions `rhsDims[i]` pair up: equal
// counts and equal sizes. `kind` is "batch" or "contracting".
mlir::LogicalResult verifyPairedDims(EmitErrorFn emitError, llvm::StringRef kind,
                                     llvm::StringRef lhsName, llvm::ArrayRef<int64_t> lhsDims,
                                     llvm::ArrayRef<int64_t> lhsShape, llvm::StringRef rhsName,
                                     llvm::ArrayRef<int64_t> rhsDims,
                                     llvm::ArrayRef<int64_t> rhsShape) {
  if (lhsDims.size() != rhsDims.size()) {
    return emitError() << lhsName << " and " << rhsName << " must have the same size, got "
                       << lhsDims.size() << " and " << rhsDims.size();
  }
  for (auto [lhsDim, rhsDim] : llvm::zip_equal(lhsDims, rhsDims)) {
    if (lhsShape[lhsDim] != rhsShape[rhsDim]) {
      return emitError() << kind << " dimension sizes differ: lhs dimension " << lhsDim
                         << " has size " << lhsShape[lhsDim] << ", rhs dimension " << rhsDim
                         << " has size " << rhsShape[rhsDim];
    }
  }
  return mlir::success();
}

// Checks one operand's batch and contracting lists: in range, unique, disjoint.
mlir::LogicalResult verifyOperandDims(EmitErrorFn emitError, llvm::ArrayRef<int64_t> batch,
                                      llvm::StringRef batchName, llvm::ArrayRef<int64_t> contract,
                                      llvm::StringRef contractName, int64_t rank) {
  if (mlir::failed(verifyDimsInRangeAndUnique(emitError, batch, rank, batchName)) ||
      mlir::failed(verifyDimsInRangeAndUnique(emitError, contract, rank, contractName))) {
    return mlir::failure();
  }
  return verifyDisjoint(emitError, batch, batchName, contract, contractName);
}

// Appends the sizes of the dimensions of `shape` in neither `batch` nor `contract`.
void appendFreeDims(llvm::ArrayRef<int64_t> shape, llvm::ArrayRef<int64_t> batch,
                    llvm::ArrayRef<int64_t> contract, llvm::SmallVectorImpl<int64_t>& out) {
  for (auto [dim, size] : llvm::enumerate(shape)) {
    int64_t d = static_cast<int64_t>(dim);
    if (!llvm::is_contained(batch, d) && !llvm::is_contained(contract, d)) out.push_back(size);
  }
}

mlir::LogicalResult verifyResultShape(EmitErrorFn emitError, mlir::Type result,
                                      llvm::ArrayRef<int64_t> expected) {
  llvm::ArrayRef<int64_t> actual = llvm::cast<mlir::ShapedType>(result).getShape();
  if (actual == expected) return mlir::success();
  return emitError() << "result shape must be [" << expected << "], got [" << actual << "]";
}

std::optional<llvm::ArrayRef<int64_t>> toOptional(mlir::DenseI64ArrayAttr attr) {
  if (!attr) return std::nullopt;
  return attr.asArrayRef();
}

}  // namespace

//===----------------------------------------------------------------------===//
// DotGeneralOp
//===----------------------------------------------------------------------===//

mlir::LogicalResult DotGeneralOp::verify() {
  auto emitError = [&] { return emitOpError(); };
  llvm::ArrayRef<int64_t> lhsShape = getLhs().getType().getShape();
  llvm::ArrayRef<int64_t> rhsShape = getRhs().getType().getShape();
  DotDimensionNumbersAttr dims = getDotDimensionNumbers();
  if (mlir::failed(verifyOperandDims(emitError, dims.getLhsBatch(), "lhs_batch",
                                     dims.getLhsContract(), "lhs_contract", lhsShape.size())) ||
      mlir::failed(verifyOperandDims(emitError, dims.getRhsBatch(), "rhs_batch",
                                     dims.getRhsContract(), "rhs_contract", rhsShape.size())) ||
      mlir::failed(verifyPairedDims(emitError, "batch", "lhs_batch", dims.getLhsBatch(), lhsShape,
                                    "rhs_batch", dims.getRhsBatch(), rhsShape)) ||
      mlir::failed(verifyPairedDims(emitError, "contracting", "lhs_contract", dims.getLhsContract(),
                                    lhsShape, "rhs_contract", dims.getRhsContract(), rhsShape))) {
    return mlir::failure();
  }
  llvm::SmallVector<int64_t> expected;
  for (int64_t dim : dims.getLhsBatch()) expected.push_back(lhsShape[dim]);
  appendFreeDims(lhsShape, dims.getLhsBatch(), dims.getLhsContract(), expected);
  appendFreeDims(rhsShape, dims.getRhsBatch(), dims.getRhsContract(), expected);
  return verifyResultShape(emitError, getType(), expected);
}

mlir::ParseResult parseDotDims(mlir::OpAsmParser& parser, DotDimensionNumbersAttr& dims) {
  return parseInlineAttr(parser, dims);
}

void printDotDims(mlir::OpAsmPrinter& printer, mlir::Operation*, DotDimensionNumbersAttr dims) {
  printInlineAttr(printer, dims);
}

//===----------------------------------------------------------------------===//
// ConvolutionOp
//===----------------------------------------------------------------------===//

mlir::LogicalResult ConvolutionOp::verify() {
  auto emitError = [&] { return emitOpError(); };
  ConvDimensionNumbersAttr dims = getDimensionNumbers();
  int64_t numSpatial = dims.getNumSpatialDims();
  auto lhsType = llvm::cast<mlir::RankedTensorType>(getLhs().getType());
  auto rhsType = llvm::cast<mlir::RankedTensorType>(getRhs().getType());
  auto resultType = llvm::cast<mlir::RankedTensorType>(getType());
  for (auto [name, type] : {std::make_pair("lhs", lhsType), std::make_pair("rhs", rhsType),
                            std::make_pair("result", resultType)}) {
    if (type.getRank() != numSpatial + 2) {
      return emitOpError() << name << " must have rank " << numSpatial + 2
                           << " (2 + spatial dimensions), got " << type.getRank();
    }
  }
  llvm::ArrayRef<int64_t> lhsShape = lhsType.getShape();
  llvm::ArrayRef<int64_t> rhsShape = rhsType.getShape();
  llvm::SmallVector<int64_t> inputSpatial, kernelSpatial;
  for (int64_t i = 0; i < numSpatial; ++i) {
    inputSpatial.push_back(lhsShape[dims.getInputSpatialDimensions()[i]]);
    kernelSpatial.push_back(rhsShape[dims.getKernelSpatialDimensions()[i]]);
  }
  WindowAttrNames names;
  names.dimensions = "kernel spatial size";
  names.baseDilations = "lhs_dilation";
  names.windowDilations = "rhs_dilation";
  mlir::FailureOr<WindowSpec> window = resolveWindow(
      emitError, numSpatial, kernelSpatial, toOptional(getWindowStridesAttr()),
      toOptional(getLhsDilationAttr()), toOptional(getRhsDilationAttr()), getPaddingAttr(),
      /*allowNegativePadding=*/true, names);
  if (mlir::failed(window)) return mlir::failure();

  int64_t featureGroups = getFeatureGroupCount();
  int64_t batchGroups = getBatchGroupCount();
  if (featureGroups < 1 || batchGroups < 1) {
    return emitOpError() << "feature_group_count and batch_group_count must be at least 1, got "
                         << featureGroups << " and " << batchGroups;
  }
  if (featureGroups > 1 && batchGroups > 1) {
    return emitOpError() << "feature_group_count and batch_group_count cannot both be larger "
                            "than 1, got "
                         << featureGroups << " and " << batchGroups;
  }
  int64_t inputBatch = lhsShape[dims.getInputBatchDimension()];
  int64_t inputFeature = lhsShape[dims.getInputFeatureDimension()];
  int64_t kernelInput = rhsShape[dims.getKernelInputFeatureDimension()];
  int64_t kernelOutput = rhsShape[dims.getKernelOutputFeatureDimension()];
  if (inputFeature % featureGroups != 0) {
    return emitOpError() << "input feature size " << inputFeature
                         << " is not divisible by feature_group_count " << featureGroups;
  }
  if (kernelInput * featureGroups != inputFeature) {
    return emitOpError() << "kernel input feature size " << kernelInput
                         << " times feature_group_count " << featureGroups
                         << " must equal the input feature size " << inputFeature;
  }
  if (kernelOutput % featureGroups != 0 || kernelOutput % batchGroups != 0) {
    return emitOpError() << "kernel output feature size " << kernelOutput
                         << " must be divisible by feature_group_count " << featureGroups
                         << " and batch_group_count " << batchGroups;
  }
  if (inputBatch % batchGroups != 0) {
    return emitOpError() << "input batch size " << inputBatch
                         << " is not divisible by batch_group_count " << batchGroups;
  }

  mlir::FailureOr<llvm::SmallVector<int64_t>> spatial =
      inferWindowOutputShape(emitError, inputSpatial, *window);
  if (mlir::failed(spatial)) return mlir::failure();
  llvm::SmallVector<int64_t> expected(numSpatial + 2);
  expected[dims.getOutputBatchDimension()] = inputBatch / batchGroups;
  expected[dims.getOutputFeatureDimension()] = kernelOutput;
  for (int64_t i = 0; i < numSpatial; ++i)
    expected[dims.getOutputSpatialDimensions()[i]] = (*spatial)[i];
  return verifyResultShape(emitError, resultType, expected);
}

mlir::ParseResult parseConvDims(mlir::OpAsmParser& parser, ConvDimensionNumbersAttr& dims) {
  return parseInlineAttr(parser, dims);
}

void printConvDims(mlir::OpAsmPrinter& printer, mlir::Operation*, ConvDimensionNumbersAttr dims) {
  printInlineAttr(printer, dims);
}

mlir::ParseResult parseConvAttrs(mlir::OpAsmParser& parser, mlir::DenseI64ArrayAttr& windowStrides,
                                 mlir::DenseIntElementsAttr& padding,
                                 mlir::DenseI64ArrayAttr& lhsDilation,
                                 mlir::DenseI64ArrayAttr& rhsDilation,
                                 mlir::IntegerAttr& featureGroupCount,
                                 mlir::IntegerAttr& batchGroupCount) {
  mlir::Attribute strides, pad, lhs, rhs, features, batches;
  OptionalClause clauses[] = {{"window_strides", ClauseKind::kI64List, &strides},
                              {"padding", ClauseKind::kPadding, &pad},
                              {"lhs_dilation", ClauseKind::kI64List, &lhs},
                              {"rhs_dilation", ClauseKind::kI64List, &rhs},
                              {"feature_group_count", ClauseKind::kI64, &features},
                              {"batch_group_count", ClauseKind::kI64, &batches}};
  if (parseOptionalClauses(parser, clauses)) return mlir::failure();
  windowStrides = llvm::cast_or_null<mlir::DenseI64ArrayAttr>(strides);
  padding = llvm::cast_or_null<mlir::DenseIntElementsAttr>(pad);
  lhsDilation = llvm::cast_or_null<mlir::DenseI64ArrayAttr>(lhs);
  rhsDilation = llvm::cast_or_null<mlir::DenseI64ArrayAttr>(rhs);
  featureGroupCount = llvm::cast_or_null<mlir::IntegerAttr>(features);
  batchGroupCount = llvm::cast_or_null<mlir::IntegerAttr>(batches);
  return mlir::success();
}

void printConvAttrs(mlir::OpAsmPrinter& printer, mlir::Operation*,
                    mlir::DenseI64ArrayAttr windowStrides, mlir::DenseIntElementsAttr padding,
                    mlir::DenseI64ArrayAttr lhsDilation, mlir::DenseI64ArrayAttr rhsDilation,
                    mlir::IntegerAttr featureGroupCount, mlir::IntegerAttr batchGroupCount) {
  mlir::Attribute strides = windowStrides, pad = padding, lhs = lhsDilation, rhs = rhsDilation,
                  features = featureGroupCount, batches = batchGroupCount;
  printOptionalClauses(printer, {{"window_strides", ClauseKind::kI64List, &strides},
                                 {"padding", ClauseKind::kPadding, &pad},
                                 {"lhs_dilation", ClauseKind::kI64List, &lhs},
                                 {"rhs_dilation", ClauseKind::kI64List, &rhs},
                                 {"feature_group_count", ClauseKind::kI64, &features, 1},
                                 {"batch_group_count", ClauseKind::kI64, &batches, 1}});
}

}  // namespace tessel::hlo
