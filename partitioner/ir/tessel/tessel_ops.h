// The `tessel` dialect: meshes, shardings, constraints, manual computations, collectives.
//
//   mlir::MLIRContext context;
//   context.loadDialect<tessel::ir::TesselDialect>();
//   auto mesh = tessel::ir::MeshAttr::get(
//       &context, {tessel::ir::MeshAxisAttr::get(&context, "data", 4)}, {});
//   auto id = builder.create<tessel::ir::PartitionIdOp>(loc, type);
//
// Shardings are attached under TesselDialect::kShardingAttrName ("tessel.sharding"): a plain
// ShardingAttr on function arguments and results, a ShardingPerValueAttr (one entry per
// result, even for a single result) on ops. Checks of a sharding against its mesh are in
// sharding_verification.h; collective groups are computed by collective_groups.h.
#ifndef TESSEL_PARTITIONER_IR_TESSEL_TESSEL_OPS_H_
#define TESSEL_PARTITIONER_IR_TESSEL_TESSEL_OPS_H_

#include <optional>
#include <utility>

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "partitioner/ir/tessel/tessel_dialect.h.inc"
#include "partitioner/ir/tessel/tessel_enums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "partitioner/ir/tessel/tessel_attrs.h.inc"

#define GET_OP_CLASSES
#include "partitioner/ir/tessel/tessel_ops.h.inc"

#endif  // TESSEL_PARTITIONER_IR_TESSEL_TESSEL_OPS_H_
