// buildPropagationGraph keeps one copy of each distinct rule: ops with equal rules share it,
// and ops whose rules differ in any way get their own.
#include "partitioner/propagation/propagation_graph.h"

#include <string>

#include "gtest/gtest.h"
#include "mlir/IR/MLIRContext.h"
#include "partitioner/ir/parse_module.h"
#include "partitioner/rules/sharding_rule_models.h"

namespace tessel::propagation {
namespace {

constexpr char kProgram[] = R"(
tessel.mesh @mesh = <["data"=4]>
func.func @main(%x: tensor<8x16xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>},
                %y: tensor<8x16xf32>, %z: tensor<16x8xf32>) -> tensor<8x8xf32> {
  %a = hlo.add %x, %y : tensor<8x16xf32>
  %b = hlo.add %a, %y : tensor<8x16xf32>
  %c = hlo.mul %b, %a : tensor<8x16xf32>
  %t = hlo.tanh %z : tensor<16x8xf32>
  %d = hlo.dot_general %c, %t, lhs_contract = [1], rhs_contract = [0]
      : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
  return %d : tensor<8x8xf32>
}
)";

TEST(PropagationGraphTest, OpsWithEqualRulesShareOneCopy) {
  mlir::DialectRegistry registry;
  rules::registerShardingRuleModels(registry);
  mlir::MLIRContext context(registry);
  auto module = ParseModule(kProgram, "test.mlir", context);
  ASSERT_TRUE(module.ok()) << module.status();
  mlir::FailureOr<PropagationGraph> graph =
      buildPropagationGraph(**module, /*conservative=*/false);
  ASSERT_TRUE(mlir::succeeded(graph));
  ASSERT_EQ(graph->nodes.size(), 5u);
  const Node& add1 = graph->nodes[0];
  const Node& add2 = graph->nodes[1];
  const Node& multiply = graph->nodes[2];
  const Node& tanh = graph->nodes[3];
  const Node& dot = graph->nodes[4];
  // The adds and the mul are elementwise over 8x16: one rule.
  EXPECT_EQ(add1.rule, add2.rule);
  EXPECT_EQ(add1.rule, multiply.rule);
  // The tanh is elementwise too, but with one operand and over 16x8; the dot is a dot.
  EXPECT_NE(tanh.rule, add1.rule);
  EXPECT_NE(dot.rule, add1.rule);
  EXPECT_NE(dot.rule, tanh.rule);
  EXPECT_EQ(graph->rules.size(), 3u);
  // Each node still reads the rule of its own op.
  EXPECT_EQ(tanh.rule->getNumOperands(), 1);
  EXPECT_EQ(dot.rule->getNumFactors(), 3);
}

}  // namespace
}  // namespace tessel::propagation
