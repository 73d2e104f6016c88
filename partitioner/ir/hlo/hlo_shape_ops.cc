// Verification and type inference of the shape ops that keep or rearrange whole
// dimensions: broadcast_in_dim, reshape, transpose, pad, concatenate, reverse. The slicing
// ops are in hlo_slice_ops.cc.
//
// The inferReturnTypes functions here and in hlo_slice_ops.cc check every rule of their op
// and take the operand types as tensors: the verifier runs them only after the ODS type
// constraints have passed, the parser never runs them (these ops spell out their result
// type), and a C++ builder must pass tensor values.
#include <optional>

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/ir/hlo/hlo_verify_utils.h"

namespace tessel::hlo {

//===----------------------------------------------------------------------===//
// broadcast_in_dim, reshape
//===----------------------------------------------------------------------===//

mlir::LogicalResult BroadcastInDimOp::verify() {
  auto emitError = [&] { return emitOpError(); };
  mlir::RankedTensorType operandType = getOperand().getType();
  mlir::RankedTensorType resultType = getType();
  llvm::ArrayRef<int64_t> dims = getBroadcastDimensions();
  if (failed(verifySize(emitError, dims, operandType.getRank(), "broadcast_dimensions")) ||
      failed(verifyDimsInRangeAndUnique(emitError, dims, resultType.getRank(),
                                        "broadcast_dimensions"))) {
    return mlir::failure();
  }
  for (auto [operandDim, resultDim] : llvm::enumerate(dims)) {
    int64_t operandSize = operandType.getDimSize(operandDim);
    int64_t resultSize = resultType.getDimSize(resultDim);
    if (operandSize != 1 && operandSize != resultSize) {
      return emitOpError() << "operand dimension " << operandDim << " of size " << operandSize
                           << " cannot be broadcast to result dimension " << resultDim
                           << " of size " << resultSize;
    }
  }
  return mlir::success();
}

mlir::LogicalResult ReshapeOp::verify() {
  int64_t operandCount = getOperand().getType().getNumElements();
  int64_t resultCount = getType().getNumElements();
  if (operandCount == resultCount) return mlir::success();
  return emitOpError() << "operand has " << operandCount << " elements but result has "
                       << resultCount;
}

//===----------------------------------------------------------------------===//
// transpose
//===----------------------------------------------------------------------===//

mlir::LogicalResult TransposeOp::inferReturnTypes(
    mlir::MLIRContext* context, std::optional<mlir::Location> location, mlir::ValueRange operands,
    mlir::DictionaryAttr attributes, mlir::OpaqueProperties properties, mlir::RegionRange regions,
    llvm::SmallVectorImpl<mlir::Type>& inferred) {
  InferenceErrorEmitter emitError(context, location, getOperationName());
  TransposeOpAdaptor adaptor(operands, attributes, properties, regions);
  auto operandType = mlir::cast<mlir::RankedTensorType>(adaptor.getOperand().getType());
  llvm::ArrayRef<int64_t> permutation = adaptor.getPermutation();
  if (failed(verifyPermutation(emitError, permutation, operandType.getRank(), "permutation"))) {
    return mlir::failure();
  }
  llvm::SmallVector<int64_t> shape;
  for (int64_t dim : permutation) shape.push_back(operandType.getDimSize(dim));
  inferred.push_back(mlir::RankedTensorType::get(shape, operandType.getElementType()));
  return mlir::success();
}

//===----------------------------------------------------------------------===//
// pad
//===----------------------------------------------------------------------===//

mlir::LogicalResult PadOp::inferReturnTypes(
    mlir::MLIRContext* context, std::optional<mlir::Location> location, mlir::ValueRange operands,
    mlir::DictionaryAttr attributes, mlir::OpaqueProperties properties, mlir::RegionRange regions,
    llvm::SmallVectorImpl<mlir::Type>& inferred) {
  InferenceErrorEmitter emitError(context, location, getOperationName());
  PadOpAdaptor adaptor(operands, attributes, properties, regions);
  auto operandType = mlir::cast<mlir::RankedTensorType>(adaptor.getOperand().getType());
  auto paddingType = mlir::cast<mlir::RankedTensorType>(adaptor.getPaddingValue().getType());
  if (paddingType.getElementType() != operandType.getElementType()) {
    return emitError() << "padding value element type " << paddingType.getElementType()
                       << " differs from operand element type " << operandType.getElementType();
  }
  int64_t rank = operandType.getRank();
  llvm::ArrayRef<int64_t> low = adaptor.getEdgePaddingLow();
  llvm::ArrayRef<int64_t> high = adaptor.getEdgePaddingHigh();
  llvm::ArrayRef<int64_t> interior = adaptor.getInteriorPadding();
  if (failed(verifySize(emitError, low, rank, "edge_padding_low")) ||
      failed(verifySize(emitError, high, rank, "edge_padding_high")) ||
      failed(verifySize(emitError, interior, rank, "interior_padding")) ||
      failed(verifyAllAtLeast(emitError, interior, 0, "interior_padding"))) {
    return mlir::failure();
  }
  llvm::SmallVector<int64_t> shape;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t size = operandType.getDimSize(d);
    // size + low + high + max(size - 1, 0) * interior, in checked arithmetic because the
    // paddings are arbitrary user-written integers.
    std::optional<int64_t> result =
        llvm::checkedMulAdd<int64_t>(std::max<int64_t>(size - 1, 0), interior[d], size);
    if (result) result = llvm::checkedAdd<int64_t>(*result, low[d]);
    if (result) result = llvm::checkedAdd<int64_t>(*result, high[d]);
    if (!result) return emitError() << "dimension " << d << ": result size overflows";
    if (*result < 0) {
      return emitError() << "dimension " << d << ": result size " << *result << " is negative";
    }
    shape.push_back(*result);
  }
  inferred.push_back(mlir::RankedTensorType::get(shape, operandType.getElementType()));
  return mlir::success();
}

//===----------------------------------------------------------------------===//
// concatenate
//===----------------------------------------------------------------------===//

mlir::LogicalResult ConcatenateOp::inferReturnTypes(
    mlir::MLIRContext* context, std::optional<mlir::Location> location, mlir::ValueRange operands,
    mlir::DictionaryAttr attributes, mlir::OpaqueProperties properties, mlir::RegionRange regions,
    llvm::SmallVectorImpl<mlir::Type>& inferred) {
  InferenceErrorEmitter emitError(context, location, getOperationName());
  ConcatenateOpAdaptor adaptor(operands, attributes, properties, regions);
  if (operands.empty()) return emitError() << "requires at least one input";
  llvm::SmallVector<mlir::RankedTensorType> types;
  for (mlir::Value input : operands) {
    types.push_back(mlir::cast<mlir::RankedTensorType>(input.getType()));
  }
  mlir::RankedTensorType first = types.front();
  int64_t dimension = adaptor.getDimensionAttr().getInt();  // signed, unlike getDimension()
  if (failed(verifyDimsInRangeAndUnique(emitError, {dimension}, first.getRank(), "dimension"))) {
    return mlir::failure();
  }
  llvm::SmallVector<int64_t> shape(first.getShape());
  for (auto [index, type] : llvm::enumerate(llvm::drop_begin(types))) {
    size_t input = index + 1;
    if (type.getRank() != first.getRank()) {
      return emitError() << "input " << input << " has rank " << type.getRank() << ", expected "
                         << first.getRank() << " like input 0";
    }
    if (type.getElementType() != first.getElementType()) {
      return emitError() << "input " << input << " has element type " << type.getElementType()
                         << ", expected " << first.getElementType() << " like input 0";
    }
    for (int64_t d = 0; d < first.getRank(); ++d) {
      if (d == dimension) continue;
      if (type.getDimSize(d) != first.getDimSize(d)) {
        return emitError() << "input " << input << " has size " << type.getDimSize(d)
                           << " in dimension " << d << ", expected " << first.getDimSize(d)
                           << " like input 0";
      }
    }
    std::optional<int64_t> sum =
        llvm::checkedAdd<int64_t>(shape[dimension], type.getDimSize(dimension));
    if (!sum) return emitError() << "result size in dimension " << dimension << " overflows";
    shape[dimension] = *sum;
  }
  inferred.push_back(mlir::RankedTensorType::get(shape, first.getElementType()));
  return mlir::success();
}

//===----------------------------------------------------------------------===//
// reverse
//===----------------------------------------------------------------------===//

mlir::LogicalResult ReverseOp::verify() {
  return verifyDimsInRangeAndUnique([&] { return emitOpError(); }, getDimensions(),
                                    getType().getRank(), "dimensions");
}

}  // namespace tessel::hlo
