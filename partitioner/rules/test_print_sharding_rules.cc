// --tessel-test-print-sharding-rules: a remark with the sharding rule of every op, so that lit
// tests can check the rules op by op.
#include <variant>

#include "mlir/IR/Operation.h"
#include "partitioner/rules/passes.h"
#include "partitioner/rules/sharding_rule_interface.h"

namespace tessel::rules {

#define GEN_PASS_DEF_TESTPRINTSHARDINGRULESPASS
#include "partitioner/rules/passes.h.inc"

namespace {

class TestPrintShardingRulesPass
    : public impl::TestPrintShardingRulesPassBase<TestPrintShardingRulesPass> {
 public:
  using Base::Base;

  void runOnOperation() override {
    ShardingRuleOptions options{conservative};
    bool failed = false;
    // Regions of an op with a factor rule (reducers, comparators, linalg bodies) compute on
    // elements, not on tensors of the program, so they are not visited; regions of ops
    // handled by data-flow edges (while, case, manual_computation) are.
    getOperation()->walk<mlir::WalkOrder::PreOrder>([&](mlir::Operation* op) {
      auto withRule = llvm::dyn_cast<ShardingRuleOpInterface>(op);
      if (!withRule) return mlir::WalkResult::advance();
      ShardingRuleOrNone answer = withRule.getShardingRule(options);
      if (const auto* none = std::get_if<NoShardingRule>(&answer)) {
        op->emitRemark() << "no sharding rule (" << stringifyNoRuleTreatment(none->treatment)
                         << "): " << none->reason;
        return mlir::WalkResult::advance();
      }
      const auto& rule = std::get<OpShardingRule>(answer);
      // A rule that does not fit its op is a bug in the rule's model.
      if (mlir::failed(rule.verify(op->getOperandTypes(), op->getResultTypes(),
                                   [&] { return op->emitError(); }))) {
        failed = true;
      } else {
        op->emitRemark() << "sharding rule: " << rule.toString();
      }
      return mlir::WalkResult::skip();
    });
    if (failed) signalPassFailure();
  }
};

}  // namespace
}  // namespace tessel::rules
