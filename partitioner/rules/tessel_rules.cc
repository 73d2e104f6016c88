// Rules of the tessel ops. Constraints and reshards are the identity; a sharding group ties
// its values' dimensions together. Collectives are made by
// the partitioner, so before partitioning they appear only inside manual_computation bodies,
// where values have local types along the manual axes but may still be split along free
// axes: dimensions a collective leaves alone are pass-through for those free axes, while a
// dimension it gathers, scatters or exchanges changes size and order between operand and
// result and so needs replication on both sides. partition_id has nothing to split.
#include "partitioner/ir/tessel/tessel_ops.h"
#include "partitioner/rules/rule_models.h"

namespace tessel::rules {
namespace {

// Pass-through for every dimension but those in `exchanged`, which get a need-replication
// factor of their own on each side.
OpShardingRule exchangeRule(mlir::Operation* op, llvm::ArrayRef<int64_t> exchanged) {
  OpShardingRuleBuilder builder(op);
  llvm::ArrayRef<int64_t> operandShape = builder.getOperandShape(0);
  llvm::ArrayRef<int64_t> resultShape = builder.getResultShape(0);
  for (int64_t dim = 0, rank = resultShape.size(); dim < rank; ++dim) {
    if (!llvm::is_contained(exchanged, dim)) {
      builder.addFactor({dim}, {dim}, resultShape[dim]);
      continue;
    }
    builder.addOperandFactor(0, dim, operandShape[dim], FactorKind::kNeedReplication);
    builder.addResultFactor(0, dim, resultShape[dim], FactorKind::kNeedReplication);
  }
  return builder.build();
}

ShardingRuleOrNone allGatherRule(ir::AllGatherOp op, const ShardingRuleOptions&) {
  if (std::optional<NoShardingRule> none = rejectDynamicShapes(op)) return *none;
  return exchangeRule(op, {static_cast<int64_t>(op.getDim())});
}

ShardingRuleOrNone reduceScatterRule(ir::ReduceScatterOp op, const ShardingRuleOptions&) {
  if (std::optional<NoShardingRule> none = rejectDynamicShapes(op)) return *none;
  return exchangeRule(op, {static_cast<int64_t>(op.getDim())});
}

ShardingRuleOrNone allToAllRule(ir::AllToAllOp op, const ShardingRuleOptions&) {
  if (std::optional<NoShardingRule> none = rejectDynamicShapes(op)) return *none;
  return exchangeRule(op, {static_cast<int64_t>(op.getSplitDim()),
                           static_cast<int64_t>(op.getConcatDim())});
}

// Every dimension one factor across all the values, as for an elementwise op of N
// operands: what one value's dimension is split by, the others' is too.
ShardingRuleOrNone shardingGroupRule(ir::ShardingGroupOp op, const ShardingRuleOptions&) {
  if (std::optional<NoShardingRule> none = rejectDynamicShapes(op)) return *none;
  OpShardingRuleBuilder builder(op);
  const int64_t count = op->getNumOperands();
  for (auto [dim, size] : llvm::enumerate(builder.getOperandShape(0))) {
    builder.addFactor(llvm::SmallVector<int64_t>(count, static_cast<int64_t>(dim)), {}, size);
  }
  return builder.build();
}

ShardingRuleOrNone partitionIdRule(ir::PartitionIdOp op, const ShardingRuleOptions&) {
  return OpShardingRuleBuilder(op).build();
}

ShardingRuleOrNone manualComputationRule(ir::ManualComputationOp, const ShardingRuleOptions&) {
  return NoShardingRule{NoRuleTreatment::kDataFlowEdges,
                        "free axes flow between operand k and block argument k, and between "
                        "returned value k and result k; manual axes stop at the boundary"};
}

ShardingRuleOrNone returnRule(ir::ReturnOp, const ShardingRuleOptions&) {
  return NoShardingRule{NoRuleTreatment::kDataFlowEdges,
                        "region terminator: its operands join the manual computation's "
                        "data-flow edges"};
}

}  // namespace

void registerTesselRules(mlir::MLIRContext* context) {
  // Identity on values; all_reduce and collective_permute keep every element in place.
  attachGenericRule<pointwiseRule, ir::ShardingConstraintOp, ir::ReshardOp, ir::AllReduceOp,
                    ir::CollectivePermuteOp>(context);
  attachRule<ir::AllGatherOp, allGatherRule>(context);
  attachRule<ir::ReduceScatterOp, reduceScatterRule>(context);
  attachRule<ir::AllToAllOp, allToAllRule>(context);
  attachRule<ir::PartitionIdOp, partitionIdRule>(context);
  attachRule<ir::ShardingGroupOp, shardingGroupRule>(context);
  attachRule<ir::ManualComputationOp, manualComputationRule>(context);
  attachRule<ir::ReturnOp, returnRule>(context);
}

}  // namespace tessel::rules
