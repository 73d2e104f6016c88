// Checks shared by the verifiers of several hlo op families.
#include "partitioner/ir/hlo/hlo_verify_utils.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "mlir/IR/Block.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/Operation.h"

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

mlir::LogicalResult verifySortedUnique(EmitErrorFn emitError, llvm::ArrayRef<int64_t> dims,
                                       llvm::StringRef what) {
  for (size_t i = 1; i < dims.size(); ++i) {
    if (dims[i - 1] >= dims[i]) {
      return emitError() << what << " must be sorted and unique, got [" << dims << "]";
    }
  }
  return mlir::success();
}

mlir::LogicalResult verifyDisjoint(EmitErrorFn emitError, llvm::ArrayRef<int64_t> a,
                                   llvm::StringRef aName, llvm::ArrayRef<int64_t> b,
                                   llvm::StringRef bName) {
  for (int64_t dim : a) {
    if (llvm::is_contained(b, dim)) {
      return emitError() << "dimension " << dim << " is in both " << aName << " and " << bName;
    }
  }
  return mlir::success();
}

mlir::LogicalResult verifyRegionSignature(EmitErrorFn emitError, mlir::Region& region,
                                          mlir::TypeRange argTypes,
                                          mlir::TypeRange resultTypes, llvm::StringRef what) {
  mlir::Block& block = region.front();
  if (block.getNumArguments() != argTypes.size()) {
    return emitError() << what << " must have " << argTypes.size() << " arguments, has "
                       << block.getNumArguments();
  }
  for (auto [index, arg, expected] : llvm::enumerate(block.getArgumentTypes(), argTypes)) {
    if (arg != expected) {
      return emitError() << what << " argument " << index << " must be " << expected
                         << ", got " << arg;
    }
  }
  // The generic verifier has already checked that the block ends in a terminator.
  mlir::TypeRange returned = block.back().getOperandTypes();
  if (returned.size() != resultTypes.size()) {
    return emitError() << what << " must return " << resultTypes.size() << " values, returns "
                       << returned.size();
  }
  for (auto [index, actual, expected] : llvm::enumerate(returned, resultTypes)) {
    if (actual != expected) {
      return emitError() << what << " result " << index << " must be " << expected
                         << ", got " << actual;
    }
  }
  return mlir::success();
}

llvm::SmallVector<mlir::Type> getScalarTensorTypes(mlir::TypeRange types) {
  llvm::SmallVector<mlir::Type> scalars;
  for (mlir::Type type : types) {
    scalars.push_back(
        mlir::RankedTensorType::get({}, llvm::cast<mlir::ShapedType>(type).getElementType()));
  }
  return scalars;
}

mlir::FailureOr<WindowSpec> resolveWindow(
    EmitErrorFn emitError, int64_t rank, llvm::ArrayRef<int64_t> dimensions,
    std::optional<llvm::ArrayRef<int64_t>> strides,
    std::optional<llvm::ArrayRef<int64_t>> baseDilations,
    std::optional<llvm::ArrayRef<int64_t>> windowDilations,
    mlir::DenseIntElementsAttr padding, bool allowNegativePadding,
    const WindowAttrNames& names) {
  WindowSpec window;
  // Checks one list (or fills in 1s when it is absent) and stores it in `out`.
  auto resolveList = [&](std::optional<llvm::ArrayRef<int64_t>> values, llvm::StringRef name,
                         llvm::SmallVector<int64_t>& out) -> mlir::LogicalResult {
    if (!values) {
      out.assign(rank, 1);
      return mlir::success();
    }
    if (mlir::failed(verifySize(emitError, *values, rank, name)) ||
        mlir::failed(verifyAllAtLeast(emitError, *values, 1, name))) {
      return mlir::failure();
    }
    out.assign(values->begin(), values->end());
    return mlir::success();
  };
  if (mlir::failed(resolveList(dimensions, names.dimensions, window.dimensions)) ||
      mlir::failed(resolveList(strides, names.strides, window.strides)) ||
      mlir::failed(resolveList(baseDilations, names.baseDilations, window.baseDilations)) ||
      mlir::failed(
          resolveList(windowDilations, names.windowDilations, window.windowDilations))) {
    return mlir::failure();
  }
  if (!padding) {
    window.padding.assign(rank, {0, 0});
    return window;
  }
  mlir::ShapedType paddingType = padding.getType();
  if (paddingType.getShape() != llvm::ArrayRef<int64_t>({rank, 2})) {
    return emitError() << names.padding << " must have shape [" << rank << ", 2], got ["
                       << paddingType.getShape() << "]";
  }
  llvm::SmallVector<int64_t> flat(padding.getValues<int64_t>());
  if (!allowNegativePadding &&
      mlir::failed(verifyAllAtLeast(emitError, flat, 0, names.padding))) {
    return mlir::failure();
  }
  for (int64_t dim = 0; dim < rank; ++dim) {
    window.padding.push_back({flat[2 * dim], flat[2 * dim + 1]});
  }
  return window;
}

mlir::FailureOr<llvm::SmallVector<int64_t>> inferWindowOutputShape(
    EmitErrorFn emitError, llvm::ArrayRef<int64_t> base, const WindowSpec& window) {
  llvm::SmallVector<int64_t> shape;
  for (auto [dim, size] : llvm::enumerate(base)) {
    // Sizes, dilations and padding are any int64 the input gave: every step is checked.
    int64_t dilatedBase = 0, padded = 0, dilatedWindow = 0;
    bool overflow = false;
    if (size != 0) {
      overflow |= __builtin_mul_overflow(size - 1, window.baseDilations[dim], &dilatedBase);
      overflow |= __builtin_add_overflow(dilatedBase, 1, &dilatedBase);
    }
    overflow |= __builtin_add_overflow(window.padding[dim].first, dilatedBase, &padded);
    overflow |= __builtin_add_overflow(padded, window.padding[dim].second, &padded);
    overflow |= __builtin_mul_overflow(window.dimensions[dim] - 1, window.windowDilations[dim],
                                       &dilatedWindow);
    overflow |= __builtin_add_overflow(dilatedWindow, 1, &dilatedWindow);
    if (overflow) {
      return emitError() << "dimension " << dim
                         << ": its padded, dilated size or window passes 2^63 - 1";
    }
    if (padded < 0) {
      return emitError() << "dimension " << dim << " has negative padded size " << padded;
    }
    shape.push_back(padded < dilatedWindow ? 0
                                           : (padded - dilatedWindow) / window.strides[dim] + 1);
  }
  return shape;
}

InferenceErrorEmitter::InferenceErrorEmitter(mlir::MLIRContext* context,
                                             std::optional<mlir::Location> loc,
                                             llvm::StringRef opName)
    : loc_(loc ? *loc : mlir::UnknownLoc::get(context)), opName_(opName) {
  if (!loc) silence_.emplace(context, [](mlir::Diagnostic&) { return mlir::success(); });
}

mlir::InFlightDiagnostic InferenceErrorEmitter::operator()() const {
  return mlir::emitError(loc_) << "'" << opName_ << "' op ";
}

}  // namespace tessel::hlo
