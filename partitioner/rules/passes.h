// Passes of partitioner/rules (generated from passes.td): the sharding-rule test pass.
#ifndef TESSEL_PARTITIONER_RULES_PASSES_H_
#define TESSEL_PARTITIONER_RULES_PASSES_H_

#include <memory>

#include "mlir/Pass/Pass.h"

namespace tessel::rules {

#define GEN_PASS_DECL
#include "partitioner/rules/passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "partitioner/rules/passes.h.inc"

}  // namespace tessel::rules

#endif  // TESSEL_PARTITIONER_RULES_PASSES_H_
