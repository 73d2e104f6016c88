// toy.matmul's sharding rule: factors i (rows), j (columns) and k (the contracted
// dimension, a reduction), as for a dot_general without batch dimensions.
#include "tests/external_rule/toy_sharding_rule.h"

#include "partitioner/rules/op_sharding_rule_builder.h"
#include "partitioner/rules/sharding_rule_interface.h"
#include "tests/external_rule/toy_dialect.h"

namespace toy {
namespace {

using tessel::rules::kNoDim;

struct MatmulShardingRule
    : public tessel::rules::ShardingRuleOpInterface::ExternalModel<MatmulShardingRule, MatmulOp> {
  tessel::rules::ShardingRuleOrNone getShardingRule(
      mlir::Operation* op, const tessel::rules::ShardingRuleOptions& options) const {
    // The builder reads every operand and result shape from the op; the verifier made them
    // static, as the builder requires.
    tessel::rules::OpShardingRuleBuilder builder(op);
    const int64_t m = builder.getOperandShape(0)[0];
    const int64_t k = builder.getOperandShape(0)[1];
    const int64_t n = builder.getOperandShape(1)[1];
    // Per factor: the dimension of each operand (lhs, rhs) and of the result it maps to.
    builder.addFactor({0, kNoDim}, {0}, m);
    builder.addFactor({kNoDim, 1}, {1}, n);
    // A split k leaves each device a partial sum, which the partitioner all-reduces.
    builder.addFactor({1, 0}, {}, k, tessel::rules::FactorKind::kReduction);
    return builder.build();
  }
};

}  // namespace

void registerToyShardingRules(mlir::DialectRegistry& registry) {
  registry.addExtension(+[](mlir::MLIRContext* context, ToyDialect*) {
    MatmulOp::attachInterface<MatmulShardingRule>(*context);
  });
}

}  // namespace toy
