// Registration of the `tessel` dialect: its ops, attributes and enums.
#include "llvm/ADT/TypeSwitch.h"
#include "mlir/IR/DialectImplementation.h"
#include "partitioner/ir/tessel/tessel_ops.h"

#include "partitioner/ir/tessel/tessel_dialect.cpp.inc"
#include "partitioner/ir/tessel/tessel_enums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "partitioner/ir/tessel/tessel_attrs.cpp.inc"

namespace tessel::ir {

void TesselDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "partitioner/ir/tessel/tessel_ops.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "partitioner/ir/tessel/tessel_attrs.cpp.inc"
      >();
}

}  // namespace tessel::ir
