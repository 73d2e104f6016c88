// Import of StableHLO's collectives (all_reduce, all_gather, reduce_scatter, all_to_all,
// collective_permute) inside manual computations as tessel collectives over mesh axes.
#ifndef TESSEL_PARTITIONER_STABLEHLO_IMPORT_COLLECTIVES_H_
#define TESSEL_PARTITIONER_STABLEHLO_IMPORT_COLLECTIVES_H_

#include "mlir/IR/Operation.h"
#include "mlir/IR/OperationSupport.h"

namespace tessel::stablehlo {

// Builds the tessel collective for the unregistered StableHLO collective `op` (whose
// attributes are `attrs`) before it and returns it; the caller replaces `op`. The device
// groups (`replica_groups`, or `source_target_pairs`) must be those of some axes of the mesh
// of the enclosing tessel.manual_computation. Fails with an error at `op` otherwise.
mlir::FailureOr<mlir::Operation*> importCollective(mlir::Operation* op,
                                                   const mlir::NamedAttrList& attrs);

}  // namespace tessel::stablehlo

#endif  // TESSEL_PARTITIONER_STABLEHLO_IMPORT_COLLECTIVES_H_
