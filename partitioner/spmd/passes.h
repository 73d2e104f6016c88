// Passes of partitioner/spmd (generated from passes.td): --tessel-partition.
#ifndef TESSEL_PARTITIONER_SPMD_PASSES_H_
#define TESSEL_PARTITIONER_SPMD_PASSES_H_

#include <memory>

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/ir/tessel/tessel_ops.h"

namespace tessel::spmd {

#define GEN_PASS_DECL
#include "partitioner/spmd/passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "partitioner/spmd/passes.h.inc"

}  // namespace tessel::spmd

#endif  // TESSEL_PARTITIONER_SPMD_PASSES_H_
