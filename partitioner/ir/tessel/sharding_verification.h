// Checks of shardings and axis lists against their mesh, shared by every place a sharding or
// a collective's axes appear: function arguments and results, the `tessel.sharding` attribute
// on ops, sharding_constraint, reshard, manual_computation and the collectives. Each check
// takes an emit-error callback, so the caller decides what the diagnostic is attached to and
// how it is prefixed ("argument 0: ...").
//
//   auto emitError = [&] { return op->emitOpError(); };
//   if (mlir::failed(verifySharding(emitError, sharding, value.getType(), op))) ...
#ifndef TESSEL_PARTITIONER_IR_TESSEL_SHARDING_VERIFICATION_H_
#define TESSEL_PARTITIONER_IR_TESSEL_SHARDING_VERIFICATION_H_

#include <string>

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/TypeRange.h"
#include "mlir/Support/LogicalResult.h"
#include "partitioner/ir/tessel/tessel_ops.h"

namespace tessel::ir {

using EmitErrorFn = llvm::function_ref<mlir::InFlightDiagnostic()>;

// The axis as written in shardings, `"x"` or `"x":(2)4`, for diagnostics.
std::string axisRefToString(AxisRefAttr axis);

// The mesh of the `tessel.mesh` op named `meshName`, looked up in the nearest symbol table
// around `from` (normally the module); null if there is none.
MeshAttr findMesh(mlir::Operation* from, mlir::FlatSymbolRefAttr meshName);

// Like findMesh, but reports `unknown mesh @name` when there is no such mesh.
mlir::FailureOr<MeshAttr> lookupMesh(EmitErrorFn emitError, mlir::Operation* from,
                                     mlir::FlatSymbolRefAttr meshName);

// Succeeds if `axis` names an axis of `mesh` and, for a sub-axis "x":(pre)size of an axis of
// size n, pre * size divides n and the sub-axis is not all of n ("x":(1)n).
mlir::LogicalResult verifyAxisRef(EmitErrorFn emitError, AxisRefAttr axis, MeshAttr mesh);

// Succeeds if every axis is valid (verifyAxisRef) and no two of them share a part of a mesh
// axis: no axis twice, no full axis with one of its sub-axes, no overlapping sub-axes, and
// sub-axes of one axis must split it compatibly ("x":(1)2 and "x":(4)2 of an axis of size 8
// can coexist; "x":(1)2 and "x":(3)2 of an axis of size 12 cannot: no split of the axis has
// both as factors).
mlir::LogicalResult verifyAxisRefs(EmitErrorFn emitError, llvm::ArrayRef<AxisRefAttr> axes,
                                   MeshAttr mesh);

// Succeeds if `sharding` fits `type` on `mesh`: `type` is a ranked tensor of the sharding's
// rank, and all axes of the dimensions, the replicated set and the unreduced set are valid
// and distinct (verifyAxisRefs over all of them). Uneven splits are allowed: the partitioner
// pads, so a dimension of 5 split over 2 devices is fine.
mlir::LogicalResult verifyShardingForMesh(EmitErrorFn emitError, ShardingAttr sharding,
                                          mlir::Type type, MeshAttr mesh);

// Looks up the sharding's mesh from `from`, then verifyShardingForMesh.
mlir::LogicalResult verifySharding(EmitErrorFn emitError, ShardingAttr sharding,
                                   mlir::Type type, mlir::Operation* from);

// Succeeds if there is one sharding per type in `resultTypes` and each verifies; diagnostics
// about entry i start with "result i: ".
mlir::LogicalResult verifyShardingPerValue(EmitErrorFn emitError,
                                           ShardingPerValueAttr shardings,
                                           mlir::TypeRange resultTypes, mlir::Operation* from);

}  // namespace tessel::ir

#endif  // TESSEL_PARTITIONER_IR_TESSEL_SHARDING_VERIFICATION_H_
