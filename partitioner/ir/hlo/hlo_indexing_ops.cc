// Verification, type inference and custom assembly of hlo.gather and hlo.scatter.
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "mlir/IR/BuiltinTypes.h"
#include "partitioner/ir/hlo/hlo_clause_format.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/ir/hlo/hlo_verify_utils.h"

namespace tessel::hlo {
namespace {

// What gather and scatter share about their indices tensor: where the index vector sits,
// how long it is, and which of its dimensions are batch dimensions.
struct IndexLayout {
  int64_t indexVectorSize = 1;
  // Sizes of the indices dimensions other than index_vector_dim, in order.
  llvm::SmallVector<int64_t> batchShape;
};

// Checks the index-side fields shared by gather and scatter:
// - index_vector_dim is in [0, indices rank] (equal to the rank: implicit trailing 1);
// - the start index map names distinct operand dimensions, one per index vector entry,
//   none of them a batching dimension;
// - the batching dims on both sides are sorted, unique, in range, of equal count and size,
//   and the indices batching dims do not contain index_vector_dim.
mlir::FailureOr<IndexLayout> verifyIndexLayout(
    EmitErrorFn emitError, llvm::ArrayRef<int64_t> operandShape,
    llvm::ArrayRef<int64_t> indicesShape, int64_t indexVectorDim, llvm::ArrayRef<int64_t> indexMap,
    llvm::StringRef indexMapName, llvm::ArrayRef<int64_t> operandBatching,
    llvm::StringRef operandBatchingName, llvm::ArrayRef<int64_t> indicesBatching,
    llvm::StringRef indicesBatchingName) {
  int64_t operandRank = operandShape.size();
  int64_t indicesRank = indicesShape.size();
  if (indexVectorDim < 0 || indexVectorDim > indicesRank) {
    return emitError() << "index_vector_dim " << indexVectorDim << " is out of range [0, "
                       << indicesRank << "]";
  }
  IndexLayout layout;
  if (indexVectorDim < indicesRank) layout.indexVectorSize = indicesShape[indexVectorDim];
  for (int64_t dim = 0; dim < indicesRank; ++dim) {
    if (dim != indexVectorDim) layout.batchShape.push_back(indicesShape[dim]);
  }
  if (mlir::failed(verifyDimsInRangeAndUnique(emitError, indexMap, operandRank, indexMapName)))
    return mlir::failure();
  if (static_cast<int64_t>(indexMap.size()) != layout.indexVectorSize) {
    return emitError() << indexMapName << " must have one entry per index vector element ("
                       << layout.indexVectorSize << "), has " << indexMap.size();
  }
  if (mlir::failed(verifySortedUnique(emitError, operandBatching, operandBatchingName)) ||
      mlir::failed(verifyDimsInRangeAndUnique(emitError, operandBatching, operandRank,
                                              operandBatchingName)) ||
      mlir::failed(verifyDisjoint(emitError, indexMap, indexMapName, operandBatching,
                                  operandBatchingName)) ||
      mlir::failed(verifyDimsInRangeAndUnique(emitError, indicesBatching, indicesRank,
                                              indicesBatchingName))) {
    return mlir::failure();
  }
  if (llvm::is_contained(indicesBatching, indexVectorDim)) {
    return emitError() << indicesBatchingName << " must not contain index_vector_dim "
                       << indexVectorDim;
  }
  if (operandBatching.size() != indicesBatching.size()) {
    return emitError() << operandBatchingName << " and " << indicesBatchingName
                       << " must have the same size, got " << operandBatching.size() << " and "
                       << indicesBatching.size();
  }
  for (auto [index, operandDim, indicesDim] : llvm::enumerate(operandBatching, indicesBatching)) {
    if (operandShape[operandDim] != indicesShape[indicesDim]) {
      return emitError() << "batching dimension " << index << " has size "
                         << operandShape[operandDim] << " in the operand but "
                         << indicesShape[indicesDim] << " in the indices";
    }
  }
  return layout;
}

// Checks the window-side dims of the operand (collapsed/inserted) and returns the operand
// dimensions that remain in a slice or update window, in order.
mlir::FailureOr<llvm::SmallVector<int64_t>> verifyWindowDims(
    EmitErrorFn emitError, int64_t operandRank, llvm::ArrayRef<int64_t> dropped,
    llvm::StringRef droppedName, llvm::ArrayRef<int64_t> operandBatching,
    llvm::StringRef operandBatchingName) {
  if (mlir::failed(verifySortedUnique(emitError, dropped, droppedName)) ||
      mlir::failed(verifyDimsInRangeAndUnique(emitError, dropped, operandRank, droppedName)) ||
      mlir::failed(
          verifyDisjoint(emitError, dropped, droppedName, operandBatching, operandBatchingName))) {
    return mlir::failure();
  }
  llvm::SmallVector<int64_t> kept;
  for (int64_t dim = 0; dim < operandRank; ++dim) {
    if (!llvm::is_contained(dropped, dim) && !llvm::is_contained(operandBatching, dim))
      kept.push_back(dim);
  }
  return kept;
}

}  // namespace

//===----------------------------------------------------------------------===//
// GatherOp
//===----------------------------------------------------------------------===//

mlir::LogicalResult GatherOp::inferReturnTypes(mlir::MLIRContext* context,
                                               std::optional<mlir::Location> location,
                                               Adaptor adaptor,
                                               llvm::SmallVectorImpl<mlir::Type>& inferred) {
  InferenceErrorEmitter errors(context, location, getOperationName());
  auto operandType = llvm::cast<mlir::RankedTensorType>(adaptor.getOperand().getType());
  auto indicesType = llvm::cast<mlir::RankedTensorType>(adaptor.getStartIndices().getType());
  llvm::ArrayRef<int64_t> operandShape = operandType.getShape();
  GatherDimensionNumbersAttr dims = adaptor.getDimensionNumbers();
  mlir::FailureOr<IndexLayout> layout = verifyIndexLayout(
      errors, operandShape, indicesType.getShape(), dims.getIndexVectorDim(),
      dims.getStartIndexMap(), "start_index_map", dims.getOperandBatchingDims(),
      "operand_batching_dims", dims.getStartIndicesBatchingDims(), "start_indices_batching_dims");
  if (mlir::failed(layout)) return mlir::failure();
  mlir::FailureOr<llvm::SmallVector<int64_t>> sliceDims = verifyWindowDims(
      errors, operandShape.size(), dims.getCollapsedSliceDims(), "collapsed_slice_dims",
      dims.getOperandBatchingDims(), "operand_batching_dims");
  if (mlir::failed(sliceDims)) return mlir::failure();

  llvm::ArrayRef<int64_t> sliceSizes = adaptor.getSliceSizes();
  if (mlir::failed(verifySize(errors, sliceSizes, operandShape.size(), "slice_sizes")))
    return mlir::failure();
  for (auto [dim, size] : llvm::enumerate(sliceSizes)) {
    if (size < 0 || size > operandShape[dim]) {
      return errors() << "slice_sizes[" << dim << "] = " << size << " is out of range [0, "
                      << operandShape[dim] << "]";
    }
    // Collapsed and batching dimensions are dropped from the slice, so they hold at most
    // one element.
    if (size > 1 && !llvm::is_contained(*sliceDims, static_cast<int64_t>(dim))) {
      return errors() << "slice_sizes[" << dim << "] = " << size
                      << " must be at most 1 for a collapsed or batching dimension";
    }
  }

  llvm::ArrayRef<int64_t> offsetDims = dims.getOffsetDims();
  int64_t resultRank = layout->batchShape.size() + offsetDims.size();
  if (offsetDims.size() != sliceDims->size()) {
    return errors() << "offset_dims must have " << sliceDims->size()
                    << " entries (operand rank minus collapsed and batching dimensions), has "
                    << offsetDims.size();
  }
  if (mlir::failed(verifySortedUnique(errors, offsetDims, "offset_dims")) ||
      mlir::failed(verifyDimsInRangeAndUnique(errors, offsetDims, resultRank, "offset_dims"))) {
    return mlir::failure();
  }
  llvm::SmallVector<int64_t> shape;
  auto nextOffset = sliceDims->begin();
  auto nextBatch = layout->batchShape.begin();
  for (int64_t dim = 0; dim < resultRank; ++dim) {
    shape.push_back(llvm::is_contained(offsetDims, dim) ? sliceSizes[*nextOffset++] : *nextBatch++);
  }
  inferred.push_back(mlir::RankedTensorType::get(shape, operandType.getElementType()));
  return mlir::success();
}

mlir::ParseResult parseGatherDims(mlir::OpAsmParser& parser, GatherDimensionNumbersAttr& dims) {
  return parseInlineAttr(parser, dims);
}

void printGatherDims(mlir::OpAsmPrinter& printer, mlir::Operation*,
                     GatherDimensionNumbersAttr dims) {
  printInlineAttr(printer, dims);
}

//===----------------------------------------------------------------------===//
// ScatterOp
//===----------------------------------------------------------------------===//

mlir::LogicalResult ScatterOp::inferReturnTypes(mlir::MLIRContext* context,
                                                std::optional<mlir::Location> location,
                                                Adaptor adaptor,
                                                llvm::SmallVectorImpl<mlir::Type>& inferred) {
  InferenceErrorEmitter errors(context, location, getOperationName());
  mlir::TypeRange inputs = adaptor.getInputs().getTypes();
  mlir::TypeRange updates = adaptor.getUpdates().getTypes();
  if (inputs.empty()) return errors() << "must have at least one input";
  if (inputs.size() != updates.size()) {
    return errors() << "has " << inputs.size() << " inputs but " << updates.size() << " updates";
  }
  auto inputType = llvm::cast<mlir::RankedTensorType>(inputs.front());
  auto updateType = llvm::cast<mlir::RankedTensorType>(updates.front());
  for (auto [index, input, update] : llvm::enumerate(inputs, updates)) {
    auto inputI = llvm::cast<mlir::RankedTensorType>(input);
    auto updateI = llvm::cast<mlir::RankedTensorType>(update);
    if (inputI.getShape() != inputType.getShape()) {
      return errors() << "input " << index << " has type " << inputI
                      << ", but all inputs must have the shape of input 0 (" << inputType << ")";
    }
    if (updateI.getShape() != updateType.getShape()) {
      return errors() << "update " << index << " has type " << updateI
                      << ", but all updates must have the shape of update 0 (" << updateType << ")";
    }
    if (updateI.getElementType() != inputI.getElementType()) {
      return errors() << "update " << index << " must have element type " << inputI.getElementType()
                      << " like input " << index << ", got " << updateI.getElementType();
    }
  }

  llvm::ArrayRef<int64_t> inputShape = inputType.getShape();
  llvm::ArrayRef<int64_t> updateShape = updateType.getShape();
  auto indicesType = llvm::cast<mlir::RankedTensorType>(adaptor.getScatterIndices().getType());
  ScatterDimensionNumbersAttr dims = adaptor.getScatterDimensionNumbers();
  mlir::FailureOr<IndexLayout> layout =
      verifyIndexLayout(errors, inputShape, indicesType.getShape(), dims.getIndexVectorDim(),
                        dims.getScatterDimsToOperandDims(), "scatter_dims_to_operand_dims",
                        dims.getInputBatchingDims(), "input_batching_dims",
                        dims.getScatterIndicesBatchingDims(), "scatter_indices_batching_dims");
  if (mlir::failed(layout)) return mlir::failure();
  mlir::FailureOr<llvm::SmallVector<int64_t>> windowDims =
      verifyWindowDims(errors, inputShape.size(), dims.getInsertedWindowDims(),
                       "inserted_window_dims", dims.getInputBatchingDims(), "input_batching_dims");
  if (mlir::failed(windowDims)) return mlir::failure();

  llvm::ArrayRef<int64_t> updateWindowDims = dims.getUpdateWindowDims();
  if (updateWindowDims.size() != windowDims->size()) {
    return errors() << "update_window_dims must have " << windowDims->size()
                    << " entries (input rank minus inserted and batching dimensions), has "
                    << updateWindowDims.size();
  }
  int64_t expectedRank = updateWindowDims.size() + layout->batchShape.size();
  if (static_cast<int64_t>(updateShape.size()) != expectedRank) {
    return errors() << "updates must have rank " << expectedRank
                    << " (update window dimensions plus index batch dimensions), got "
                    << updateShape.size();
  }
  if (mlir::failed(verifySortedUnique(errors, updateWindowDims, "update_window_dims")) ||
      mlir::failed(verifyDimsInRangeAndUnique(errors, updateWindowDims, expectedRank,
                                              "update_window_dims"))) {
    return mlir::failure();
  }
  auto nextWindow = windowDims->begin();
  auto nextBatch = layout->batchShape.begin();
  for (int64_t dim = 0; dim < expectedRank; ++dim) {
    if (llvm::is_contained(updateWindowDims, dim)) {
      int64_t inputDim = *nextWindow++;
      if (updateShape[dim] > inputShape[inputDim]) {
        return errors() << "updates dimension " << dim << " has size " << updateShape[dim]
                        << ", larger than input dimension " << inputDim << " (size "
                        << inputShape[inputDim] << ")";
      }
    } else if (updateShape[dim] != *nextBatch++) {
      return errors() << "updates dimension " << dim << " has size " << updateShape[dim]
                      << ", but the matching scatter_indices dimension has size " << nextBatch[-1];
    }
  }
  inferred.append(inputs.begin(), inputs.end());
  return mlir::success();
}

mlir::LogicalResult ScatterOp::verifyRegions() {
  llvm::SmallVector<mlir::Type> scalars = getScalarTensorTypes(getInputs().getTypes());
  llvm::SmallVector<mlir::Type> args(scalars);
  args.append(scalars.begin(), scalars.end());
  return verifyRegionSignature([&] { return emitOpError(); }, getUpdateComputation(), args, scalars,
                               "update_computation");
}

mlir::ParseResult parseScatterDims(mlir::OpAsmParser& parser, ScatterDimensionNumbersAttr& dims) {
  return parseInlineAttr(parser, dims);
}

void printScatterDims(mlir::OpAsmPrinter& printer, mlir::Operation*,
                      ScatterDimensionNumbersAttr dims) {
  printInlineAttr(printer, dims);
}

}  // namespace tessel::hlo
