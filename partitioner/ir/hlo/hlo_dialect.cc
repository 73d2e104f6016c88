// Registration of the `hlo` dialect: its ops, attributes and enums.
#include "llvm/ADT/TypeSwitch.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/InliningUtils.h"
#include "partitioner/ir/hlo/hlo_ops.h"

#include "partitioner/ir/hlo/hlo_dialect.cpp.inc"
#include "partitioner/ir/hlo/hlo_enums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "partitioner/ir/hlo/hlo_attrs.cpp.inc"

namespace tessel::hlo {

namespace {

// Every hlo op may be inlined: none depends on the function it sits in, so calls
// can be inlined before partitioning (the partitioner works on one function body at a time).
struct HloInlinerInterface : mlir::DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;
  bool isLegalToInline(mlir::Operation*, mlir::Region*, bool, mlir::IRMapping&) const final {
    return true;
  }
  bool isLegalToInline(mlir::Region*, mlir::Region*, bool, mlir::IRMapping&) const final {
    return true;
  }
};

}  // namespace

void HloDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "partitioner/ir/hlo/hlo_ops.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "partitioner/ir/hlo/hlo_attrs.cpp.inc"
      >();
  addInterfaces<HloInlinerInterface>();
}

}  // namespace tessel::hlo
