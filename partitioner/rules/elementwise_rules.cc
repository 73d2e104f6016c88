// Rules of hlo's elementwise ops (unary, binary, compare, select, clamp, convert): one
// pass-through factor per dimension, shared by every tensor of the result's rank. The rank-0
// predicate of a select and rank-0 bounds of a clamp map to no factor; bitcast_convert
// between widths keeps its extra minor dimension whole. Also home of the
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

// Elements of one width map one to one. Between widths the shared dimensions pass through
// and the minor dimension that only one side has (the parts of a wide element) must stay
// whole: a shard of it is a fraction of an element's bits.
ShardingRuleOrNone bitcastConvertRule(hlo::BitcastConvertOp op, const ShardingRuleOptions&) {
  if (std::optional<NoShardingRule> none = rejectDynamicShapes(op)) return *none;
  OpShardingRuleBuilder builder(op);
  llvm::ArrayRef<int64_t> operandShape = builder.getOperandShape(0);
  llvm::ArrayRef<int64_t> resultShape = builder.getResultShape(0);
  const int64_t shared = std::min<int64_t>(operandShape.size(), resultShape.size());
  for (int64_t dim = 0; dim < shared; ++dim) builder.addFactor({dim}, {dim}, resultShape[dim]);
  if (int64_t(operandShape.size()) > shared) {
    builder.addOperandFactor(0, shared, operandShape[shared], FactorKind::kNeedReplication);
  } else if (int64_t(resultShape.size()) > shared) {
    builder.addResultFactor(0, shared, resultShape[shared], FactorKind::kNeedReplication);
  }
  return builder.build();
}

void registerHloElementwiseRules(mlir::MLIRContext* context) {
  using namespace hlo;  // NOLINT: the op list reads better without the prefix.
  // pointwiseRule reads the shapes alone.
  attachRuleOfTypesAlone<pointwiseRule,
                    // Unary.
                    AbsOp, NegOp, ExpOp, LogOp, Log1pOp, Expm1Op, TanhOp, LogisticOp, SqrtOp,
                    RsqrtOp, SinOp, CosOp, FloorOp, CeilOp, RoundOp, SignOp, NotOp, IsFiniteOp,
                    ConvertOp, RoundNearestEvenOp, ErfOp, CbrtOp, TanOp, PopcntOp,
                    CountLeadingZerosOp, ReducePrecisionOp,
                    // Binary.
                    AddOp, SubOp, MulOp, DivOp, RemOp, MaxOp, MinOp, PowOp, Atan2Op, AndOp, OrOp,
                    XorOp, ShiftLeftOp, ShiftRightArithmeticOp, ShiftRightLogicalOp, CompareOp,
                    // Ternary.
                    SelectOp, ClampOp,
                    // Complex numbers built from and split into parts.
                    ComplexOp, RealOp, ImagOp>(context);
  attachRule<BitcastConvertOp, bitcastConvertRule>(context);
}

}  // namespace tessel::rules
