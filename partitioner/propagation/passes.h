// Passes of partitioner/propagation (generated from passes.td): --tessel-propagate.
#ifndef TESSEL_PARTITIONER_PROPAGATION_PASSES_H_
#define TESSEL_PARTITIONER_PROPAGATION_PASSES_H_

#include <memory>

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace tessel::propagation {

#define GEN_PASS_DECL
#include "partitioner/propagation/passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "partitioner/propagation/passes.h.inc"

}  // namespace tessel::propagation

#endif  // TESSEL_PARTITIONER_PROPAGATION_PASSES_H_
