// Verification, type inference and folding of hlo.constant, hlo.iota and
// hlo.rng_bit_generator.
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/ir/hlo/hlo_verify_utils.h"

namespace tessel::hlo {

mlir::LogicalResult ConstantOp::inferReturnTypes(
    mlir::MLIRContext*, std::optional<mlir::Location>, mlir::ValueRange,
    mlir::DictionaryAttr attributes, mlir::OpaqueProperties properties, mlir::RegionRange,
    llvm::SmallVectorImpl<mlir::Type>& inferred) {
  ConstantOpAdaptor adaptor(mlir::ValueRange{}, attributes, properties);
  inferred.push_back(adaptor.getValue().getType());
  return mlir::success();
}

mlir::OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }

mlir::LogicalResult IotaOp::verify() {
  // A rank-0 result has no dimension to count along; the range check rejects it too. The
  // attribute is read signed so that a negative dimension is reported as written.
  int64_t dimension = getIotaDimensionAttr().getInt();
  return verifyDimsInRangeAndUnique([&] { return emitOpError(); }, {dimension},
                                    getType().getRank(), "iota_dimension");
}

mlir::LogicalResult RngBitGeneratorOp::verify() {
  const int64_t stateSize = getState().getType().getDimSize(0);
  const bool threeFry = getAlgorithm() == RngAlgorithm::THREE_FRY;
  if (threeFry ? stateSize != 2 : (stateSize != 2 && stateSize != 3)) {
    return emitOpError() << "needs a state of " << (threeFry ? "2" : "2 or 3")
                         << " ui64 elements for " << stringifyRngAlgorithm(getAlgorithm())
                         << ", got " << stateSize;
  }
  const int64_t rank = getOutput().getType().getRank();
  std::optional<llvm::ArrayRef<int64_t>> global = getGlobalShape();
  if (!global) {
    if (!getStartIndices().empty()) return emitOpError() << "has start indices but no window";
    return mlir::success();
  }
  if (static_cast<int64_t>(global->size()) != rank) {
    return emitOpError() << "window has rank " << global->size() << " but the output has rank "
                         << rank;
  }
  if (static_cast<int64_t>(getStartIndices().size()) != rank) {
    return emitOpError() << "needs " << rank << " start indices for its window, got "
                         << getStartIndices().size();
  }
  for (int64_t size : *global) {
    if (size < 0) return emitOpError() << "window dimensions must not be negative";
  }
  return mlir::success();
}

}  // namespace tessel::hlo
