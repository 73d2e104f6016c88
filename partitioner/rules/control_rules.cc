// Rules of hlo's control-flow, opaque and creation ops: sort, top_k and
// optimization_barrier have factor rules; while, case and region terminators are handled by
// data-flow edges; constant, iota and replica_id are source ops, and rng_bit_generator's
// output is one too (its state stays whole);
// custom_call is opaque unless it carries a rule of its own.
#include <string>

#include "mlir/IR/BuiltinAttributes.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/rules/rule_models.h"

namespace tessel::rules {
namespace {

// The attribute through which a custom_call states its rule, in OpShardingRule's textual
// form, e.g. `{tessel.sharding_rule = "([i, j])->([i, j]) {i=4, j=8}"}`.
constexpr llvm::StringLiteral kShardingRuleAttr = "tessel.sharding_rule";

// Every dimension pass-through, except the sorted one, which needs replication: each shard
// would otherwise sort only its own piece. It is movable: the partitioner can move its split
// to another dimension for the sort and back, so results keep their operands' sharding.
ShardingRuleOrNone sortRule(hlo::SortOp op, const ShardingRuleOptions&) {
  OpShardingRuleBuilder builder(op);
  int64_t numInputs = op.getInputs().size();
  llvm::ArrayRef<int64_t> shape = builder.getOperandShape(0);
  int64_t sortDim = op.getDimension();
  for (int64_t dim = 0, rank = shape.size(); dim < rank; ++dim) {
    llvm::SmallVector<int64_t> dims(numInputs, dim);
    builder.addFactor(dims, dims, shape[dim],
                      dim == sortDim ? FactorKind::kNeedReplication : FactorKind::kPassThrough);
    if (dim == sortDim) builder.markLastFactorMovable();
  }
  return builder.build();
}

// The rows pass through; the minor dimension must be whole on the operand (a shard's top k
// is not the row's) and on the results (k of them per row).
ShardingRuleOrNone topKRule(hlo::TopKOp op, const ShardingRuleOptions&) {
  OpShardingRuleBuilder builder(op);
  llvm::ArrayRef<int64_t> shape = builder.getOperandShape(0);
  const int64_t minor = static_cast<int64_t>(shape.size()) - 1;
  for (int64_t dim = 0; dim < minor; ++dim) builder.addFactor({dim}, {dim, dim}, shape[dim]);
  builder.addOperandFactor(0, minor, shape[minor], FactorKind::kNeedReplication);
  builder.addFactor({kNoDim}, {minor, minor}, static_cast<int64_t>(op.getK()),
                    FactorKind::kNeedReplication);
  return builder.build();
}

// Operand i is result i, dimension by dimension.
ShardingRuleOrNone optimizationBarrierRule(hlo::OptimizationBarrierOp op,
                                           const ShardingRuleOptions&) {
  OpShardingRuleBuilder builder(op);
  const int64_t count = op->getNumOperands();
  for (int64_t i = 0; i < count; ++i) {
    for (auto [dim, size] : llvm::enumerate(builder.getOperandShape(i))) {
      llvm::SmallVector<int64_t> dims(count, kNoDim);
      dims[i] = static_cast<int64_t>(dim);
      builder.addFactor(dims, dims, size);
    }
  }
  return builder.build();
}

// The state is one counter, needed whole; every output dimension may be split any way,
// since each element is made from its own position (the partitioner gives each shard its
// window).
ShardingRuleOrNone rngBitGeneratorRule(hlo::RngBitGeneratorOp op, const ShardingRuleOptions&) {
  OpShardingRuleBuilder builder(op);
  builder.addFactor({0}, {0, kNoDim}, builder.getOperandShape(0)[0],
                    FactorKind::kNeedReplication);
  for (auto [dim, size] : llvm::enumerate(op.getOutput().getType().getShape())) {
    builder.addResultFactor(1, static_cast<int64_t>(dim), size);
  }
  return builder.build();
}

ShardingRuleOrNone sourceOpRule(mlir::Operation*, const ShardingRuleOptions&) {
  return NoShardingRule{NoRuleTreatment::kSourceOp,
                        "no operands: the result takes the sharding its users ask for"};
}

ShardingRuleOrNone whileRule(hlo::WhileOp, const ShardingRuleOptions&) {
  return NoShardingRule{NoRuleTreatment::kDataFlowEdges,
                        "loop state k is one value across operand k, the cond and body "
                        "arguments k, the body's returned value k and result k"};
}

ShardingRuleOrNone caseRule(hlo::CaseOp, const ShardingRuleOptions&) {
  return NoShardingRule{NoRuleTreatment::kDataFlowEdges,
                        "result k is one value with every branch's returned value k"};
}

ShardingRuleOrNone returnRule(hlo::ReturnOp, const ShardingRuleOptions&) {
  return NoShardingRule{NoRuleTreatment::kDataFlowEdges,
                        "region terminator: its operands join the parent op's data-flow edges"};
}

ShardingRuleOrNone customCallRule(hlo::CustomCallOp op, const ShardingRuleOptions&) {
  auto text = op->getAttrOfType<mlir::StringAttr>(kShardingRuleAttr);
  if (!text) {
    return NoShardingRule{NoRuleTreatment::kOpaque,
                          "custom call @" + op.getCallTargetName().str() +
                              " has no " + kShardingRuleAttr.str() + " attribute"};
  }
  std::string error;
  mlir::FailureOr<OpShardingRule> rule = OpShardingRule::parse(text.getValue(), &error);
  if (mlir::failed(rule)) {
    return NoShardingRule{NoRuleTreatment::kOpaque,
                          kShardingRuleAttr.str() + " is malformed: " + error};
  }
  if (std::optional<std::string> problem =
          rule->findMismatch(op->getOperandTypes(), op->getResultTypes())) {
    return NoShardingRule{NoRuleTreatment::kOpaque,
                          kShardingRuleAttr.str() + " does not fit the op: " + *problem};
  }
  return *rule;
}

}  // namespace

void registerHloControlRules(mlir::MLIRContext* context) {
  attachRule<hlo::SortOp, sortRule>(context);
  attachRule<hlo::TopKOp, topKRule>(context);
  attachRule<hlo::OptimizationBarrierOp, optimizationBarrierRule>(context);
  attachRule<hlo::RngBitGeneratorOp, rngBitGeneratorRule>(context);
  attachRule<hlo::WhileOp, whileRule>(context);
  attachRule<hlo::CaseOp, caseRule>(context);
  attachRule<hlo::ReturnOp, returnRule>(context);
  attachRule<hlo::CustomCallOp, customCallRule>(context);
  attachGenericRule<sourceOpRule, hlo::ConstantOp, hlo::IotaOp, hlo::ReplicaIdOp>(context);
}

}  // namespace tessel::rules
