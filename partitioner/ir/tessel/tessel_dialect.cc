// Registration of the `tessel` dialect, and verification of the shardings it attaches to
// other ops and to function arguments and results under `tessel.sharding`.
#include "llvm/ADT/TypeSwitch.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/InliningUtils.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "partitioner/ir/tessel/sharding_verification.h"
#include "partitioner/ir/tessel/tessel_ops.h"

#include "partitioner/ir/tessel/tessel_dialect.cpp.inc"
#include "partitioner/ir/tessel/tessel_enums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "partitioner/ir/tessel/tessel_attrs.cpp.inc"

namespace tessel::ir {
namespace {

// Verifies a plain sharding attached to argument or result `index` (`what`) of `op`.
// Diagnostics point at `loc`: the argument itself where it has a location of its own, so a
// user sees which parameter's sharding is wrong, not just which function.
mlir::LogicalResult verifyAttachedSharding(mlir::Operation* op, mlir::Location loc,
                                           mlir::NamedAttribute attr, llvm::StringRef what,
                                           unsigned index, mlir::Type type) {
  auto emitError = [&]() {
    mlir::InFlightDiagnostic diag = mlir::emitError(loc);
    diag << "'" << op->getName() << "' op " << what << " " << index << ": ";
    return diag;
  };
  auto sharding = llvm::dyn_cast<ShardingAttr>(attr.getValue());
  if (!sharding) {
    return emitError() << "'" << attr.getName().getValue() << "' must be a #tessel.sharding, got "
                       << attr.getValue();
  }
  return verifySharding(emitError, sharding, type, op);
}

}  // namespace

namespace {

// Every tessel op may be inlined: none depends on the function it sits in, so calls
// can be inlined before partitioning (the partitioner works on one function body at a time).
struct TesselInlinerInterface : mlir::DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;
  bool isLegalToInline(mlir::Operation*, mlir::Region*, bool, mlir::IRMapping&) const final {
    return true;
  }
  bool isLegalToInline(mlir::Region*, mlir::Region*, bool, mlir::IRMapping&) const final {
    return true;
  }
};

}  // namespace

void TesselDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "partitioner/ir/tessel/tessel_ops.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "partitioner/ir/tessel/tessel_attrs.cpp.inc"
      >();
  addInterfaces<TesselInlinerInterface>();
}

mlir::LogicalResult TesselDialect::verifyOperationAttribute(mlir::Operation* op,
                                                            mlir::NamedAttribute attr) {
  if (attr.getName() != kShardingAttrName) return mlir::success();
  auto emitError = [&]() { return op->emitOpError(); };
  auto shardings = llvm::dyn_cast<ShardingPerValueAttr>(attr.getValue());
  if (!shardings) {
    return emitError() << "'" << attr.getName().getValue()
                       << "' on an op must be a #tessel.sharding_per_value, got "
                       << attr.getValue();
  }
  return verifyShardingPerValue(emitError, shardings, op->getResultTypes(), op);
}

mlir::LogicalResult TesselDialect::verifyRegionArgAttribute(mlir::Operation* op,
                                                            unsigned regionIndex,
                                                            unsigned argIndex,
                                                            mlir::NamedAttribute attr) {
  if (attr.getName() != kShardingAttrName) return mlir::success();
  mlir::Type type;
  mlir::Location loc = op->getLoc();
  if (auto function = llvm::dyn_cast<mlir::FunctionOpInterface>(op)) {
    type = function.getArgumentTypes()[argIndex];
  } else {
    type = op->getRegion(regionIndex).getArgument(argIndex).getType();
  }
  // A declaration has no body and so no argument locations.
  mlir::Region& region = op->getRegion(regionIndex);
  if (!region.empty()) loc = region.getArgument(argIndex).getLoc();
  return verifyAttachedSharding(op, loc, attr, "argument", argIndex, type);
}

mlir::LogicalResult TesselDialect::verifyRegionResultAttribute(mlir::Operation* op,
                                                               unsigned,
                                                               unsigned resultIndex,
                                                               mlir::NamedAttribute attr) {
  if (attr.getName() != kShardingAttrName) return mlir::success();
  auto function = llvm::dyn_cast<mlir::FunctionOpInterface>(op);
  if (!function) {
    return op->emitOpError() << "'" << attr.getName().getValue()
                             << "' as a result attribute needs a function";
  }
  return verifyAttachedSharding(op, op->getLoc(), attr, "result", resultIndex,
                                function.getResultTypes()[resultIndex]);
}

}  // namespace tessel::ir
