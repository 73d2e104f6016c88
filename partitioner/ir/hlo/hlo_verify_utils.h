// Checks shared by the verifiers of several hlo op families. Each takes an emit-error
// callback so the same check serves any op and names the attribute it looks at.
#ifndef TESSEL_PARTITIONER_IR_HLO_HLO_VERIFY_UTILS_H_
#define TESSEL_PARTITIONER_IR_HLO_HLO_VERIFY_UTILS_H_

#include <cstdint>
#include <optional>
#include <utility>

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Region.h"
#include "mlir/IR/TypeRange.h"
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

// Succeeds if `dims` is strictly increasing (sorted, no repeats).
mlir::LogicalResult verifySortedUnique(EmitErrorFn emitError, llvm::ArrayRef<int64_t> dims,
                                       llvm::StringRef what);

// Succeeds if no entry of `a` is also in `b`.
mlir::LogicalResult verifyDisjoint(EmitErrorFn emitError, llvm::ArrayRef<int64_t> a,
                                   llvm::StringRef aName, llvm::ArrayRef<int64_t> b,
                                   llvm::StringRef bName);

// Succeeds if the single block of `region` takes arguments of `argTypes` and its
// terminator returns values of `resultTypes`. `what` names the region, e.g.
// "reducer" gives "reducer must have 4 arguments, has 2".
// REQUIRES: `region` has exactly one block, ending in a terminator (call it from
// verifyRegions, after the generic block checks).
mlir::LogicalResult verifyRegionSignature(EmitErrorFn emitError, mlir::Region& region,
                                          mlir::TypeRange argTypes,
                                          mlir::TypeRange resultTypes, llvm::StringRef what);

// Returns a rank-0 tensor type per entry of `types`, with that entry's element type:
// (tensor<4x8xf32>, tensor<2xi32>) gives (tensor<f32>, tensor<i32>).
// REQUIRES: every entry is a shaped type.
llvm::SmallVector<mlir::Type> getScalarTensorTypes(mlir::TypeRange types);

// The window of a windowed op (reduce_window, select_and_scatter, convolution) with its
// defaults filled in: one entry per windowed dimension, strides and dilations 1 and
// padding (0, 0) where the op leaves them out.
struct WindowSpec {
  llvm::SmallVector<int64_t> dimensions;
  llvm::SmallVector<int64_t> strides;
  llvm::SmallVector<int64_t> baseDilations;
  llvm::SmallVector<int64_t> windowDilations;
  llvm::SmallVector<std::pair<int64_t, int64_t>> padding;  // (low, high)
};

// The attribute names a windowed op uses, for diagnostics.
struct WindowAttrNames {
  llvm::StringRef dimensions = "window_dimensions";
  llvm::StringRef strides = "window_strides";
  llvm::StringRef baseDilations = "base_dilations";
  llvm::StringRef windowDilations = "window_dilations";
  llvm::StringRef padding = "padding";
};

// Checks a window's attributes against the number of windowed dimensions `rank` and fills
// in defaults: every list has `rank` entries, all at least 1; padding has shape [rank, 2]
// and, unless `allowNegativePadding`, no negative entry. Absent optionals are nullopt/null.
mlir::FailureOr<WindowSpec> resolveWindow(
    EmitErrorFn emitError, int64_t rank, llvm::ArrayRef<int64_t> dimensions,
    std::optional<llvm::ArrayRef<int64_t>> strides,
    std::optional<llvm::ArrayRef<int64_t>> baseDilations,
    std::optional<llvm::ArrayRef<int64_t>> windowDilations,
    mlir::DenseIntElementsAttr padding, bool allowNegativePadding,
    const WindowAttrNames& names = {});

// The shape of the window output over `base`. Per dimension: the dilated base
// (d - 1) * base_dilation + 1 (0 when d is 0) is padded on both sides, the dilated window
// (w - 1) * window_dilation + 1 slides over it, and the size is
// (padded - window) / stride + 1, or 0 when the window does not fit. E.g. base 5, window
// 3, stride 2, padding (1, 1): padded 7, size (7 - 3) / 2 + 1 = 3.
// Fails if a padded size is negative (only possible with negative padding).
// REQUIRES: `window` has one entry per dimension of `base`.
mlir::FailureOr<llvm::SmallVector<int64_t>> inferWindowOutputShape(
    EmitErrorFn emitError, llvm::ArrayRef<int64_t> base, const WindowSpec& window);

// Reports errors found during result type inference the way emitOpError does
// ("'hlo.reduce' op ..."), at `loc`, so a verifier and inference can share one check.
// Without a location (speculative inference) the diagnostics are dropped.
class InferenceErrorEmitter {
 public:
  InferenceErrorEmitter(mlir::MLIRContext* context, std::optional<mlir::Location> loc,
                        llvm::StringRef opName);
  mlir::InFlightDiagnostic operator()() const;

 private:
  mlir::Location loc_;
  llvm::StringRef opName_;
  // Swallows every diagnostic while inference runs without a location.
  std::optional<mlir::ScopedDiagnosticHandler> silence_;
};

}  // namespace tessel::hlo

#endif  // TESSEL_PARTITIONER_IR_HLO_HLO_VERIFY_UTILS_H_
