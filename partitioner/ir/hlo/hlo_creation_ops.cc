// Verification, type inference and folding of hlo.constant and hlo.iota.
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

}  // namespace tessel::hlo
