// Rules for the elementwise ops of upstream dialects (arith, math): every op of the dialect
// that has the Elementwise trait gets the pointwise rule, attached by op name so that the
// list follows the dialect rather than a copy of it here.
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OperationSupport.h"
#include "partitioner/rules/rule_models.h"

namespace tessel::rules {

void registerElementwiseTraitRules(mlir::MLIRContext* context, mlir::Dialect* dialect) {
  for (mlir::RegisteredOperationName name : context->getRegisteredOperations()) {
    if (&name.getDialect() != dialect || !name.hasTrait<mlir::OpTrait::Elementwise>()) continue;
    name.attachInterface<GenericRuleModel<pointwiseRule>>();
  }
}

}  // namespace tessel::rules
