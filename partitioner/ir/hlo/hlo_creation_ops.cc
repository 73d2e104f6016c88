// Verification, type inference and folding of hlo.constant and hlo.iota.
#include "partitioner/ir/hlo/hlo_ops.h"

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

}  // namespace tessel::hlo
