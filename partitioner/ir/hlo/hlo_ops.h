// The `hlo` dialect: compute ops with XLA's operation semantics.
//
// Include this header to use the dialect's ops, attributes and enums from C++:
//
//   mlir::MLIRContext context;
//   context.loadDialect<tessel::hlo::HloDialect>();
//   auto sum = builder.create<tessel::hlo::AddOp>(loc, lhs, rhs);
#ifndef TESSEL_PARTITIONER_IR_HLO_HLO_OPS_H_
#define TESSEL_PARTITIONER_IR_HLO_HLO_OPS_H_

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "partitioner/ir/hlo/hlo_dialect.h.inc"
#include "partitioner/ir/hlo/hlo_enums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "partitioner/ir/hlo/hlo_attrs.h.inc"

#include "partitioner/ir/hlo/hlo_custom_directives.h"
#include "partitioner/ir/hlo/hlo_type_predicates.h"

#define GET_OP_CLASSES
#include "partitioner/ir/hlo/hlo_ops.h.inc"

#endif  // TESSEL_PARTITIONER_IR_HLO_HLO_OPS_H_
