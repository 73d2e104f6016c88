// Rules of hlo's elementwise ops (unary, binary, compare, select, clamp, convert): one
// pass-through factor per dimension, shared by every tensor of the result's rank. The rank-0
// predicate of a select and rank-0 bounds of a clamp map to no factor. Also home of the
// pointwise rule and the dynamic-shape check that other families share (rule_models.h).
#include "mlir/IR/BuiltinTypeInterfaces.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/rules/rule_models.h"

namespace tessel::rules {

std::optional<NoShardingRule> rejectDynamicShapes(mlir::Operation* op) {
  if (hasStaticShapes(op)) return std::nullopt;
  return NoShardingRule{NoRuleTreatment::kOpaque,
                        "factor sizes need static shapes, and an operand or result is dynamic"};
}

ShardingRuleOrNone pointwiseRule(mlir::Operation* op, const ShardingRuleOptions&) {
  if (std::optional<NoShardingRule> none = rejectDynamicShapes(op)) return *none;
  OpShardingRuleBuilder builder(op);
  if (op->getNumResults() > 0) builder.addPointwise(builder.getResultShape(0));
  return builder.build();
}

void registerHloElementwiseRules(mlir::MLIRContext* context) {
  using namespace hlo;  // NOLINT: the op list reads better without the prefix.
  attachGenericRule<pointwiseRule,
                    // Unary.
                    AbsOp, NegOp, ExpOp, LogOp, Log1pOp, Expm1Op, TanhOp, LogisticOp, SqrtOp,
                    RsqrtOp, SinOp, CosOp, FloorOp, CeilOp, RoundOp, SignOp, NotOp, IsFiniteOp,
                    ConvertOp,
                    // Binary.
                    AddOp, SubOp, MulOp, DivOp, RemOp, MaxOp, MinOp, PowOp, Atan2Op, AndOp, OrOp,
                    XorOp, ShiftLeftOp, ShiftRightArithmeticOp, ShiftRightLogicalOp, CompareOp,
                    // Ternary.
                    SelectOp, ClampOp>(context);
}

}  // namespace tessel::rules
