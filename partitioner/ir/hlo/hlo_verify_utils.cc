// Checks shared by the verifiers of several hlo op families.
#include "partitioner/ir/hlo/hlo_verify_utils.h"

#include "llvm/ADT/SmallVector.h"
#include "mlir/IR/BuiltinAttributes.h"

namespace tessel::hlo {

mlir::LogicalResult verifyDimsInRangeAndUnique(EmitErrorFn emitError,
                                               llvm::ArrayRef<int64_t> dims, int64_t rank,
                                               llvm::StringRef what) {
  llvm::SmallVector<bool> seen(rank, false);
  for (int64_t dim : dims) {
    if (dim < 0 || dim >= rank) {
      return emitError() << what << ": dimension " << dim << " is out of range [0, " << rank
                         << ")";
    }
    if (seen[dim]) return emitError() << what << ": dimension " << dim << " appears twice";
    seen[dim] = true;
  }
  return mlir::success();
}

mlir::LogicalResult verifyPermutation(EmitErrorFn emitError, llvm::ArrayRef<int64_t> perm,
                                      int64_t size, llvm::StringRef what) {
  if (static_cast<int64_t>(perm.size()) != size) {
    return emitError() << what << " must have " << size << " entries, has " << perm.size();
  }
  return verifyDimsInRangeAndUnique(emitError, perm, size, what);
}

mlir::LogicalResult verifySize(EmitErrorFn emitError, llvm::ArrayRef<int64_t> values,
                               int64_t size, llvm::StringRef what) {
  if (static_cast<int64_t>(values.size()) == size) return mlir::success();
  return emitError() << what << " must have " << size << " entries, has " << values.size();
}

mlir::LogicalResult verifyAllAtLeast(EmitErrorFn emitError, llvm::ArrayRef<int64_t> values,
                                     int64_t minimum, llvm::StringRef what) {
  for (int64_t value : values) {
    if (value < minimum) {
      return emitError() << what << " must be at least " << minimum << ", got " << value;
    }
  }
  return mlir::success();
}

InferenceErrorEmitter::InferenceErrorEmitter(mlir::MLIRContext* context,
                                             std::optional<mlir::Location> location,
                                             llvm::StringRef opName)
    : location_(location.value_or(mlir::UnknownLoc::get(context))), opName_(opName) {}

mlir::InFlightDiagnostic InferenceErrorEmitter::operator()() const {
  return mlir::emitError(location_) << "'" << opName_ << "' op ";
}

}  // namespace tessel::hlo
