// Verification, type inference and custom syntax of the slicing shape ops: slice,
// dynamic_slice and dynamic_update_slice.
#include <optional>

#include "llvm/ADT/SmallVector.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/ir/hlo/hlo_verify_utils.h"

namespace tessel::hlo {
namespace {

// Succeeds if there is one start index per dimension of a rank-`rank` operand and all
// indices share one type. Their element types are already known to be integers.
mlir::LogicalResult verifyStartIndices(EmitErrorFn emitError, mlir::TypeRange indexTypes,
                                       int64_t rank) {
  if (static_cast<int64_t>(indexTypes.size()) != rank) {
    return emitError() << "expects " << rank << " start indices (one per operand dimension), got "
                       << indexTypes.size();
  }
  for (auto [index, type] : llvm::enumerate(indexTypes)) {
    if (type != indexTypes.front()) {
      return emitError() << "start index " << index << " has type " << type << ", expected "
                         << indexTypes.front() << " like start index 0";
    }
  }
  return mlir::success();
}

}  // namespace

//===----------------------------------------------------------------------===//
// slice
//===----------------------------------------------------------------------===//

mlir::ParseResult parseSliceRanges(mlir::OpAsmParser& parser, mlir::DenseI64ArrayAttr& start,
                                   mlir::DenseI64ArrayAttr& limit,
                                   mlir::DenseI64ArrayAttr& strides) {
  llvm::SmallVector<int64_t> starts, limits, strideValues;
  auto parseRange = [&]() -> mlir::ParseResult {
    int64_t first = 0, last = 0, stride = 1;
    if (parser.parseInteger(first) || parser.parseColon() || parser.parseInteger(last)) {
      return mlir::failure();
    }
    if (succeeded(parser.parseOptionalColon()) && parser.parseInteger(stride)) {
      return mlir::failure();
    }
    starts.push_back(first);
    limits.push_back(last);
    strideValues.push_back(stride);
    return mlir::success();
  };
  if (parser.parseCommaSeparatedList(mlir::AsmParser::Delimiter::Square, parseRange)) {
    return mlir::failure();
  }
  mlir::MLIRContext* context = parser.getContext();
  start = mlir::DenseI64ArrayAttr::get(context, starts);
  limit = mlir::DenseI64ArrayAttr::get(context, limits);
  strides = mlir::DenseI64ArrayAttr::get(context, strideValues);
  return mlir::success();
}

void printSliceRanges(mlir::OpAsmPrinter& printer, mlir::Operation*, mlir::DenseI64ArrayAttr start,
                      mlir::DenseI64ArrayAttr limit, mlir::DenseI64ArrayAttr strides) {
  // Only verified ops get the custom form, so the three lists have the same length.
  printer << "[";
  for (int64_t d = 0, e = start.size(); d < e; ++d) {
    if (d > 0) printer << ", ";
    printer << start[d] << ":" << limit[d];
    if (strides[d] != 1) printer << ":" << strides[d];
  }
  printer << "]";
}

mlir::LogicalResult SliceOp::inferReturnTypes(
    mlir::MLIRContext* context, std::optional<mlir::Location> location, mlir::ValueRange operands,
    mlir::DictionaryAttr attributes, mlir::OpaqueProperties properties, mlir::RegionRange regions,
    llvm::SmallVectorImpl<mlir::Type>& inferred) {
  InferenceErrorEmitter emitError(context, location, getOperationName());
  SliceOpAdaptor adaptor(operands, attributes, properties, regions);
  auto operandType = mlir::cast<mlir::RankedTensorType>(adaptor.getOperand().getType());
  int64_t rank = operandType.getRank();
  llvm::ArrayRef<int64_t> starts = adaptor.getStartIndices();
  llvm::ArrayRef<int64_t> limits = adaptor.getLimitIndices();
  llvm::ArrayRef<int64_t> strides = adaptor.getStrides();
  if (failed(verifySize(emitError, starts, rank, "start_indices")) ||
      failed(verifySize(emitError, limits, rank, "limit_indices")) ||
      failed(verifySize(emitError, strides, rank, "strides"))) {
    return mlir::failure();
  }
  llvm::SmallVector<int64_t> shape;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t size = operandType.getDimSize(d);
    if (starts[d] < 0) {
      return emitError() << "dimension " << d << ": start index " << starts[d] << " is negative";
    }
    if (starts[d] > limits[d]) {
      return emitError() << "dimension " << d << ": start index " << starts[d]
                         << " exceeds limit index " << limits[d];
    }
    if (limits[d] > size) {
      return emitError() << "dimension " << d << ": limit index " << limits[d]
                         << " exceeds dimension size " << size;
    }
    if (strides[d] < 1) {
      return emitError() << "dimension " << d << ": stride " << strides[d] << " must be at least 1";
    }
    // ceil(length / stride), written so that a huge stride cannot overflow.
    int64_t length = limits[d] - starts[d];
    shape.push_back(length == 0 ? 0 : (length - 1) / strides[d] + 1);
  }
  inferred.push_back(mlir::RankedTensorType::get(shape, operandType.getElementType()));
  return mlir::success();
}

//===----------------------------------------------------------------------===//
// dynamic_slice
//===----------------------------------------------------------------------===//

mlir::LogicalResult DynamicSliceOp::inferReturnTypes(
    mlir::MLIRContext* context, std::optional<mlir::Location> location, mlir::ValueRange operands,
    mlir::DictionaryAttr attributes, mlir::OpaqueProperties properties, mlir::RegionRange regions,
    llvm::SmallVectorImpl<mlir::Type>& inferred) {
  InferenceErrorEmitter emitError(context, location, getOperationName());
  DynamicSliceOpAdaptor adaptor(operands, attributes, properties, regions);
  auto operandType = mlir::cast<mlir::RankedTensorType>(adaptor.getOperand().getType());
  int64_t rank = operandType.getRank();
  llvm::ArrayRef<int64_t> sizes = adaptor.getSliceSizes();
  if (failed(verifyStartIndices(emitError, adaptor.getStartIndices().getTypes(), rank)) ||
      failed(verifySize(emitError, sizes, rank, "slice_sizes"))) {
    return mlir::failure();
  }
  for (int64_t d = 0; d < rank; ++d) {
    if (sizes[d] < 0 || sizes[d] > operandType.getDimSize(d)) {
      return emitError() << "dimension " << d << ": slice size " << sizes[d]
                         << " is out of range [0, " << operandType.getDimSize(d) << "]";
    }
  }
  inferred.push_back(mlir::RankedTensorType::get(sizes, operandType.getElementType()));
  return mlir::success();
}

//===----------------------------------------------------------------------===//
// dynamic_update_slice
//===----------------------------------------------------------------------===//

mlir::LogicalResult DynamicUpdateSliceOp::verify() {
  auto emitError = [&] { return emitOpError(); };
  mlir::RankedTensorType operandType = getOperand().getType();
  mlir::RankedTensorType updateType = getUpdate().getType();
  if (updateType.getRank() != operandType.getRank()) {
    return emitOpError() << "update rank " << updateType.getRank() << " differs from operand rank "
                         << operandType.getRank();
  }
  if (updateType.getElementType() != operandType.getElementType()) {
    return emitOpError() << "update element type " << updateType.getElementType()
                         << " differs from operand element type " << operandType.getElementType();
  }
  for (int64_t d = 0; d < operandType.getRank(); ++d) {
    if (updateType.getDimSize(d) > operandType.getDimSize(d)) {
      return emitOpError() << "dimension " << d << ": update size " << updateType.getDimSize(d)
                           << " exceeds operand size " << operandType.getDimSize(d);
    }
  }
  return verifyStartIndices(emitError, getStartIndices().getTypes(), operandType.getRank());
}

}  // namespace tessel::hlo
