// Checks shared by the verifiers of several hlo op families. Each takes an emit-error
// callback so the same check serves any op and names the attribute it looks at.
#ifndef TESSEL_PARTITIONER_IR_HLO_HLO_VERIFY_UTILS_H_
#define TESSEL_PARTITIONER_IR_HLO_HLO_VERIFY_UTILS_H_

#include <cstdint>
#include <optional>

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/LogicalResult.h"

namespace tessel::hlo {

using EmitErrorFn = llvm::function_ref<mlir::InFlightDiagnostic()>;

// Succeeds if every entry of `dims` is in [0, rank) and none repeats. `what` names the
// attribute in the diagnostic, e.g. "dimensions" gives
// "dimensions: dimension 3 is out of range [0, 2)".
mlir::LogicalResult verifyDimsInRangeAndUnique(EmitErrorFn emitError,
                                               llvm::ArrayRef<int64_t> dims, int64_t rank,
                                               llvm::StringRef what);

// Succeeds if `perm` is a permutation of [0, size).
mlir::LogicalResult verifyPermutation(EmitErrorFn emitError, llvm::ArrayRef<int64_t> perm,
                                      int64_t size, llvm::StringRef what);

// Succeeds if `values` has exactly `size` entries.
mlir::LogicalResult verifySize(EmitErrorFn emitError, llvm::ArrayRef<int64_t> values,
                               int64_t size, llvm::StringRef what);

// Succeeds if every entry of `values` is at least `minimum`.
mlir::LogicalResult verifyAllAtLeast(EmitErrorFn emitError, llvm::ArrayRef<int64_t> values,
                                     int64_t minimum, llvm::StringRef what);

// An emit-error callback for `inferReturnTypes`, which has a location but no op. Its
// diagnostics read like `emitOpError`'s ("'hlo.slice' op ..."), so a rule reports the
// same way whether the parser, a builder or the verifier ran the inference. Without a
// location (a builder called with none) it reports at an unknown location rather than
// failing silently.
//
//   InferenceErrorEmitter emitError(context, location, SliceOp::getOperationName());
//   if (failed(verifySize(emitError, starts, rank, "start_indices"))) return failure();
class InferenceErrorEmitter {
 public:
  InferenceErrorEmitter(mlir::MLIRContext* context, std::optional<mlir::Location> location,
                        llvm::StringRef opName);

  mlir::InFlightDiagnostic operator()() const;

 private:
  mlir::Location location_;
  // The op's full name, e.g. "hlo.slice"; the generated name outlives any emitter.
  llvm::StringRef opName_;
};

}  // namespace tessel::hlo

#endif  // TESSEL_PARTITIONER_IR_HLO_HLO_VERIFY_UTILS_H_
