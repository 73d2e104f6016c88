// Registration of the `hlo` dialect: its ops, attributes and enums.
#include "llvm/ADT/TypeSwitch.h"
#include "mlir/IR/DialectImplementation.h"
#include "partitioner/ir/hlo/hlo_ops.h"

#include "partitioner/ir/hlo/hlo_dialect.cpp.inc"
#include "partitioner/ir/hlo/hlo_enums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "partitioner/ir/hlo/hlo_attrs.cpp.inc"

namespace tessel::hlo {

void HloDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "partitioner/ir/hlo/hlo_ops.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "partitioner/ir/hlo/hlo_attrs.cpp.inc"
      >();
}

}  // namespace tessel::hlo
