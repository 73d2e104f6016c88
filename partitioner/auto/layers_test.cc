// Repeated-layer detection on small programs, the tied ILP on problems small enough to
// solve by hand, and the tied plan against the untied optimum on a four-block transformer.
#include "partitioner/auto/layers.h"

#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "cost_model/hardware_spec.h"
#include "gtest/gtest.h"
#include "mlir/IR/MLIRContext.h"
#include "partitioner/auto/test_programs.h"
#include "partitioner/ir/parse_module.h"

namespace tessel::auto_sharding {
namespace {

// `layers` copies of dot -> tanh -> dot on a residual-free chain, each with its own
// weights; the first layer reads the parameter %x, later ones the previous layer's dot.
// Stacks of MLP layers one after another: per stack, its layers and their hidden width.
std::string MlpStacks(const std::vector<std::pair<int, int>>& stacks) {
  std::string arguments = "%x: tensor<16x64xf32>";
  std::string body;
  std::string input = "%x";
  int k = 0;
  for (auto [layers, hidden] : stacks) {
    const std::string wide = absl::StrCat("tensor<16x", hidden, "xf32>");
    for (int layer = 0; layer < layers; ++layer, ++k) {
      absl::StrAppend(&arguments, ", %w1_", k, ": tensor<64x", hidden, "xf32>, %w2_", k,
                      ": tensor<", hidden, "x64xf32>");
      absl::StrAppend(&body, "  %h", k, " = hlo.dot_general ", input, ", %w1_", k,
                      ", lhs_contract = [1], rhs_contract = [0]\n",
                      "      : (tensor<16x64xf32>, tensor<64x", hidden, "xf32>) -> ", wide,
                      "\n");
      absl::StrAppend(&body, "  %t", k, " = hlo.tanh %h", k, " : ", wide, "\n");
      absl::StrAppend(&body, "  %y", k, " = hlo.dot_general %t", k, ", %w2_", k,
                      ", lhs_contract = [1], rhs_contract = [0]\n", "      : (", wide,
                      ", tensor<", hidden, "x64xf32>) -> tensor<16x64xf32>\n");
      input = absl::StrCat("%y", k);
    }
  }
  return absl::StrCat("tessel.mesh @mesh = <[\"data\"=4, \"model\"=2]>\n", "func.func @main(",
                      arguments, ") -> tensor<16x64xf32> {\n", body, "  return ", input,
                      " : tensor<16x64xf32>\n}\n");
}

std::string MlpStack(int layers) { return MlpStacks({{layers, 256}}); }

class LayersTest : public ::testing::Test {
 protected:
  absl::StatusOr<CostGraph> build(const std::string& text) {
    absl::StatusOr<mlir::OwningOpRef<mlir::ModuleOp>> parsed =
        ParseModule(text, "program.mlir", context_);
    if (!parsed.ok()) return parsed.status();
    module_ = std::move(*parsed);
    auto main = module_->lookupSymbol<mlir::func::FuncOp>("main");
    return buildCostGraph(main, cost_model::DefaultHardwareSpec());
  }

  mlir::MLIRContext context_;
  mlir::OwningOpRef<mlir::ModuleOp> module_;
};

TEST_F(LayersTest, TiesEachLayersOpsAndWeightsToTheFirstLayers) {
  absl::StatusOr<CostGraph> graph = build(MlpStack(3));
  ASSERT_TRUE(graph.ok()) << graph.status();
  const IlpProblem problem = graph->problem(0, 10);
  const RepeatedLayers layers = findRepeatedLayers(*graph, problem);
  // Nodes: 7 parameters (x, then w1 and w2 per layer), then two dots per layer (tanh
  // follows the first). The first layer's first dot reads %x, a parameter, where later
  // ones read a dot: only the tables of edges entering a layer differ, so all three tie.
  ASSERT_EQ(graph->nodes.size(), 13u);
  EXPECT_EQ(layers.layers, 3);
  EXPECT_EQ(layers.nodesPerLayer, 2);
  for (int k = 1; k < 3; ++k) {
    SCOPED_TRACE(k);
    EXPECT_EQ(layers.leader[7 + 2 * k], 7);  // first dot
    EXPECT_EQ(layers.leader[8 + 2 * k], 8);  // second dot
    EXPECT_EQ(layers.leader[1 + 2 * k], 1);  // w1_k
    EXPECT_EQ(layers.leader[2 + 2 * k], 2);  // w2_k
  }
  EXPECT_EQ(layers.leader[0], 0);  // %x is read by the first layer only
}

TEST_F(LayersTest, AnEncoderAndADecoderAreTwoRuns) {
  // Three layers 256 wide, then two 128 wide: two runs, each tied to its own first layer.
  absl::StatusOr<CostGraph> graph = build(MlpStacks({{3, 256}, {2, 128}}));
  ASSERT_TRUE(graph.ok()) << graph.status();
  const IlpProblem problem = graph->problem(0, 10);
  const RepeatedLayers layers = findRepeatedLayers(*graph, problem);
  // Nodes: 11 parameters (x, then w1 and w2 per layer), then two dots per layer.
  ASSERT_EQ(graph->nodes.size(), 21u);
  EXPECT_EQ(layers.layers, 3);
  EXPECT_EQ(layers.nodesPerLayer, 2);
  EXPECT_EQ(layers.runs, (std::vector<int64_t>{3, 2}));
  for (int k = 1; k < 3; ++k) {
    SCOPED_TRACE(k);
    EXPECT_EQ(layers.leader[11 + 2 * k], 11);  // the wide layers' first dot
    EXPECT_EQ(layers.leader[1 + 2 * k], 1);    // their w1
  }
  EXPECT_EQ(layers.leader[17], 17);  // the first narrow layer leads the second run
  EXPECT_EQ(layers.leader[19], 17);
  EXPECT_EQ(layers.leader[20], 18);
  EXPECT_EQ(layers.leader[9], 7);  // the second narrow layer's w1 follows the first's
  // The tied plan still costs the untied optimum here: every layer wants the same.
  absl::StatusOr<IlpSolution> tied = solveTied(problem, layers.leader);
  absl::StatusOr<IlpSolution> untied = solveIlp(problem);
  ASSERT_TRUE(tied.ok()) << tied.status();
  ASSERT_TRUE(untied.ok()) << untied.status();
  EXPECT_NEAR(tied->objective, untied->objective, 1e-9 * untied->objective);
}

TEST_F(LayersTest, NothingRepeatsInASingleLayer) {
  absl::StatusOr<CostGraph> graph = build(MlpStack(1));
  ASSERT_TRUE(graph.ok()) << graph.status();
  const IlpProblem problem = graph->problem(0, 10);
  const RepeatedLayers layers = findRepeatedLayers(*graph, problem);
  EXPECT_EQ(layers.layers, 1);
  for (size_t n = 0; n < layers.leader.size(); ++n) EXPECT_EQ(layers.leader[n], int(n));
}

TEST_F(LayersTest, TheTiedPlanOfAStackCostsWhatItsUntiedOptimumCosts) {
  // Without a memory limit, every layer of this chain prefers the same strategies, so
  // tying loses nothing: the tied plan's cost (on the untied problem) is the optimum.
  absl::StatusOr<CostGraph> graph = build(MlpStack(4));
  ASSERT_TRUE(graph.ok()) << graph.status();
  const IlpProblem problem = graph->problem(0, 60);
  const RepeatedLayers layers = findRepeatedLayers(*graph, problem);
  ASSERT_EQ(layers.layers, 4);
  absl::StatusOr<IlpSolution> tied = solveTied(problem, layers.leader);
  absl::StatusOr<IlpSolution> untied = solveIlp(problem);
  ASSERT_TRUE(tied.ok()) << tied.status();
  ASSERT_TRUE(untied.ok()) << untied.status();
  ASSERT_TRUE(untied->optimal);
  EXPECT_NEAR(tied->objective, untied->objective, 1e-9 * untied->objective);
  EXPECT_DOUBLE_EQ(tied->objective, costOf(problem, tied->choice));
}

TEST(TieNodesTest, AGroupAddsItsCostsAndItsEdgesJoinTheGroups) {
  // Node 1 is tied to node 0; both feed node 2.
  IlpProblem problem;
  problem.nodeCosts = {{1, 2}, {3, 5}, {0, 0}};
  problem.persistentBytes = {{10, 5}, {10, 5}, {0, 0}};
  problem.transientBytes = {{1, 2}, {3, 1}, {0, 0}};
  problem.edges.push_back({0, 2, {0, 1, 1, 0}});
  problem.edges.push_back({1, 2, {0, 2, 2, 0}});
  std::vector<int> groupOf;
  const IlpProblem tied = tieNodes(problem, {0, 0, 2}, &groupOf);
  EXPECT_EQ(groupOf, (std::vector<int>{0, 0, 1}));
  ASSERT_EQ(tied.nodeCosts.size(), 2u);
  EXPECT_EQ(tied.nodeCosts[0], (std::vector<double>{4, 7}));
  EXPECT_EQ(tied.persistentBytes[0], (std::vector<double>{20, 10}));
  EXPECT_EQ(tied.transientBytes[0], (std::vector<double>{3, 2}));  // the larger of the two
  ASSERT_EQ(tied.edges.size(), 2u);
  EXPECT_EQ(tied.edges[1].from, 0);
  EXPECT_EQ(tied.edges[1].to, 1);
}

TEST(TieNodesTest, TyingGivesUpPlansWhereTiedNodesDiffer) {
  // Untied, node 0 takes 0 and node 1 takes 1 for a cost of 0. Tied, both take the same
  // strategy: 0 + 1 either way.
  IlpProblem problem;
  problem.nodeCosts = {{0, 1}, {1, 0}};
  absl::StatusOr<IlpSolution> untied = solveIlp(problem);
  absl::StatusOr<IlpSolution> tied = solveTied(problem, {0, 0});
  ASSERT_TRUE(untied.ok() && tied.ok());
  EXPECT_DOUBLE_EQ(untied->objective, 0);
  EXPECT_DOUBLE_EQ(tied->objective, 1);
  EXPECT_EQ(tied->choice[0], tied->choice[1]);
}

TEST(TieNodesTest, AnExcludedPlanIsExcludedAmongTiedPlans) {
  // Three strategies, the first cheapest, the third dearest; a dominated strategy (the
  // second, dearer than the first in every respect) must stay for the runner-up.
  IlpProblem problem;
  problem.nodeCosts = {{0, 1, 5}, {0, 1, 5}, {0}};
  problem.edges.push_back({1, 2, {0, 0, 0}});
  problem.excluded.push_back({0, 0, 0});
  absl::StatusOr<IlpSolution> tied = solveTied(problem, {0, 0, 2});
  ASSERT_TRUE(tied.ok()) << tied.status();
  EXPECT_EQ(tied->choice, (std::vector<int>{1, 1, 0}));
  EXPECT_DOUBLE_EQ(tied->objective, 2);
}

TEST(TieNodesTest, AGroupsParametersCountOncePerMemberAgainstTheLimit) {
  // Two tied weights hold 10 bytes each whole or 5 split. Under a limit of 15 bytes the
  // pair cannot stay whole (20) although one alone could, so both split.
  IlpProblem problem;
  problem.nodeCosts = {{0, 1}, {0, 1}};
  problem.persistentBytes = {{10, 5}, {10, 5}};
  problem.transientBytes = {{0, 0}, {0, 0}};
  problem.memoryLimit = 15;
  absl::StatusOr<IlpSolution> tied = solveTied(problem, {0, 0});
  ASSERT_TRUE(tied.ok()) << tied.status();
  EXPECT_EQ(tied->choice, (std::vector<int>{1, 1}));
}

TEST(TieNodesTest, RejectsATieBetweenNodesWithDifferentStrategyCounts) {
  IlpProblem problem;
  problem.nodeCosts = {{0, 1}, {0, 1, 2}};
  EXPECT_EQ(solveTied(problem, {0, 0}).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(solveTied(problem, {1, 1, 1}).status().code(), absl::StatusCode::kInvalidArgument);
}

// The four-block stack of the end-to-end test (batch 8, 512 tokens, 16 heads of 64, MLP
// 4096) with only its 4x2 mesh: the tied plan against the untied optimum, both printed for
// docs/auto_sharding.md. Under no memory limit and under one that the weights do not fit
// whole in (60% of their bytes), where layers might want to differ.
TEST(TiedAgainstUntiedTest, FourBlockStackWithinOnePercent) {
  using auto_sharding_testing::BuildBlock;
  absl::StatusOr<Program> hand = BuildBlock({8, 512, 16, 64, 4096, 4}, 4, 2);
  ASSERT_TRUE(hand.ok()) << hand.status();
  absl::StatusOr<Program> open = auto_sharding_testing::WithoutShardings(*hand);
  ASSERT_TRUE(open.ok()) << open.status();
  mlir::MLIRContext context;
  absl::StatusOr<mlir::OwningOpRef<mlir::ModuleOp>> module =
      ParseModule(open->ToMlirText(), "four_blocks.mlir", context);
  ASSERT_TRUE(module.ok()) << module.status();
  auto main = (*module)->lookupSymbol<mlir::func::FuncOp>("main");
  absl::StatusOr<CostGraph> graph = buildCostGraph(main, cost_model::DefaultHardwareSpec());
  ASSERT_TRUE(graph.ok()) << graph.status();
  double parameterBytes = 0;
  for (const GraphNode& node : graph->nodes) {
    if (node.op == nullptr && !node.persistentBytes.empty()) {
      parameterBytes += *std::max_element(node.persistentBytes.begin(), node.persistentBytes.end());
    }
  }
  for (double limit : {80e9, 0.6 * parameterBytes}) {
    SCOPED_TRACE(limit);
    const IlpProblem problem = graph->problem(limit, 600);
    const RepeatedLayers layers = findRepeatedLayers(*graph, problem);
    EXPECT_EQ(layers.layers, 4);
    absl::StatusOr<IlpSolution> tied = solveTied(problem, layers.leader);
    absl::StatusOr<IlpSolution> untied = solveIlp(problem);
    ASSERT_TRUE(tied.ok()) << tied.status();
    ASSERT_TRUE(untied.ok()) << untied.status();
    std::cout << "four blocks, memory limit " << limit << " bytes: untied "
              << untied->objective * 1e6 << " us (" << (untied->optimal ? "optimal" : "best found")
              << ", " << untied->solveSeconds << " s), tied " << tied->objective * 1e6 << " us ("
              << (tied->optimal ? "optimal" : "best found") << ", " << tied->solveSeconds
              << " s)\n";
    // The untied optimum is a lower bound only when proven.
    if (untied->optimal) {
      EXPECT_GE(tied->objective, untied->objective * (1 - 1e-9));
    }
    EXPECT_LE(tied->objective, 1.01 * untied->objective);
  }
}

}  // namespace
}  // namespace tessel::auto_sharding
