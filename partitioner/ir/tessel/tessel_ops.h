// The `tessel` dialect: meshes, shardings, constraints, manual computations, collectives.
//
//   mlir::MLIRContext context;
//   context.loadDialect<tessel::ir::TesselDialect>();
//   auto id = builder.create<tessel::ir::PartitionIdOp>(loc, type);
#ifndef TESSEL_PARTITIONER_IR_TESSEL_TESSEL_OPS_H_
#define TESSEL_PARTITIONER_IR_TESSEL_TESSEL_OPS_H_

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "partitioner/ir/tessel/tessel_dialect.h.inc"
#include "partitioner/ir/tessel/tessel_enums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "partitioner/ir/tessel/tessel_attrs.h.inc"

#define GET_OP_CLASSES
#include "partitioner/ir/tessel/tessel_ops.h.inc"

#endif  // TESSEL_PARTITIONER_IR_TESSEL_TESSEL_OPS_H_
