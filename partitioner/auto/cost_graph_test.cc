// The cost graph of small programs: which ops make nodes and which follow, what a user's
// sharding fixes, how edges price reshards, and the errors for programs it cannot take.
#include "partitioner/auto/cost_graph.h"

#include <algorithm>

#include "cost_model/hardware_spec.h"
#include "gtest/gtest.h"
#include "mlir/IR/MLIRContext.h"
#include "partitioner/ir/parse_module.h"

namespace tessel::auto_sharding {
namespace {

constexpr char kMlp[] = R"(
tessel.mesh @mesh = <["data"=4, "model"=2]>
func.func @main(%x: tensor<16x64xf32>, %w1: tensor<64x256xf32>, %w2: tensor<256x64xf32>)
    -> tensor<16x64xf32> {
  %h = hlo.dot_general %x, %w1, lhs_contract = [1], rhs_contract = [0]
      : (tensor<16x64xf32>, tensor<64x256xf32>) -> tensor<16x256xf32>
  %zero = hlo.constant dense<0.0> : tensor<f32>
  %zeros = hlo.broadcast_in_dim %zero, dims = [] : (tensor<f32>) -> tensor<16x256xf32>
  %relu = hlo.max %h, %zeros : tensor<16x256xf32>
  %t = hlo.tanh %relu : tensor<16x256xf32>
  %y = hlo.dot_general %t, %w2, lhs_contract = [1], rhs_contract = [0]
      : (tensor<16x256xf32>, tensor<256x64xf32>) -> tensor<16x64xf32>
  return %y : tensor<16x64xf32>
}
)";

class CostGraphTest : public ::testing::Test {
 protected:
  absl::StatusOr<CostGraph> build(const char* text) {
    absl::StatusOr<mlir::OwningOpRef<mlir::ModuleOp>> parsed =
        ParseModule(text, "program.mlir", context_);
    if (!parsed.ok()) return parsed.status();
    module_ = std::move(*parsed);
    auto main = module_->lookupSymbol<mlir::func::FuncOp>("main");
    return buildCostGraph(main, cost_model::DefaultHardwareSpec());
  }

  int nodeOf(const CostGraph& graph, const std::string& opName, int occurrence = 0) {
    for (size_t n = 0; n < graph.nodes.size(); ++n) {
      if (graph.nodes[n].name == opName && occurrence-- == 0) return static_cast<int>(n);
    }
    return -1;
  }

  mlir::MLIRContext context_;
  mlir::OwningOpRef<mlir::ModuleOp> module_;
};

TEST_F(CostGraphTest, ElementwiseChainsFollowTheNodeOfTheirOperand) {
  absl::StatusOr<CostGraph> graph = build(kMlp);
  ASSERT_TRUE(graph.ok()) << graph.status();
  // Three parameters, two dots, the constant and the broadcast make nodes; max and tanh
  // follow the first dot.
  EXPECT_EQ(graph->nodes.size(), 7u);
  EXPECT_EQ(graph->mergedOps, 2);
  const int dot = nodeOf(*graph, "hlo.dot_general");
  ASSERT_GE(dot, 0);
  EXPECT_EQ(graph->nodes[dot].followers.size(), 2u);
  for (const GraphValue& value : graph->values) {
    if (value.value.getDefiningOp() &&
        value.value.getDefiningOp()->getName().getStringRef() == "hlo.tanh") {
      EXPECT_EQ(value.node, dot);
    }
  }
}

TEST_F(CostGraphTest, EdgesAreFreeOnlyWhereLayoutsAgree) {
  absl::StatusOr<CostGraph> graph = build(kMlp);
  ASSERT_TRUE(graph.ok()) << graph.status();
  // x (node 0) into the first dot: its unsplit layout (strategy 0) feeds the dot's unsplit
  // strategy (0) for free, and a split x must be gathered for it.
  const int dot = nodeOf(*graph, "hlo.dot_general");
  const IlpEdge* edge = nullptr;
  for (const IlpEdge& e : graph->edges) {
    if (e.from == 0 && e.to == dot) edge = &e;
  }
  ASSERT_NE(edge, nullptr);
  const size_t width = graph->nodes[dot].numStrategies();
  EXPECT_EQ(edge->cost[0 * width + 0], 0);
  double worst = *std::max_element(edge->cost.begin(), edge->cost.end());
  EXPECT_GT(worst, 0);
  for (size_t s = 1; s < graph->nodes[0].numStrategies(); ++s) {
    EXPECT_GT(edge->cost[s * width + 0], 0) << "x strategy " << s;
  }
}

TEST_F(CostGraphTest, AnnotatedValuesHaveTheirOneStrategy) {
  absl::StatusOr<CostGraph> graph = build(R"(
tessel.mesh @mesh = <["data"=4, "model"=2]>
func.func @main(%x: tensor<16x64xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>},
                %w: tensor<64x32xf32>) -> tensor<16x32xf32> {
  %h = hlo.dot_general %x, %w, lhs_contract = [1], rhs_contract = [0]
      : (tensor<16x64xf32>, tensor<64x32xf32>) -> tensor<16x32xf32>
  %c = tessel.sharding_constraint %h <@mesh, [{}, {"model"}]> : tensor<16x32xf32>
  return %c : tensor<16x32xf32>
})");
  ASSERT_TRUE(graph.ok()) << graph.status();
  EXPECT_TRUE(graph->nodes[0].fixed);
  EXPECT_EQ(graph->nodes[0].numStrategies(), 1u);
  EXPECT_EQ(graph->nodes[0].descriptions[0], "[{\"data\"}, {}]");
  EXPECT_FALSE(graph->nodes[1].fixed);
  const int constraint = nodeOf(*graph, "tessel.sharding_constraint");
  ASSERT_GE(constraint, 0);
  EXPECT_TRUE(graph->nodes[constraint].fixed);
  EXPECT_EQ(graph->nodes[constraint].descriptions[0], "[{}, {\"model\"}]");
}

// An uneven split survives on a reshape that only drops a unit dimension (the partitioner
// keeps its padded pieces) and is pruned on one that splits a dimension in two.
TEST_F(CostGraphTest, OnlyUnitReshapesKeepUnevenSplits) {
  absl::StatusOr<CostGraph> graph = build(R"(
tessel.mesh @mesh = <["x"=3]>
func.func @main(%a: tensor<1x32x16xf32>, %b: tensor<4x32xf32>)
    -> (tensor<32x16xf32>, tensor<4x4x8xf32>) {
  %r = hlo.reshape %a : (tensor<1x32x16xf32>) -> tensor<32x16xf32>
  %s = hlo.reshape %b : (tensor<4x32xf32>) -> tensor<4x4x8xf32>
  return %r, %s : tensor<32x16xf32>, tensor<4x4x8xf32>
})");
  ASSERT_TRUE(graph.ok()) << graph.status();
  const int unit = nodeOf(*graph, "hlo.reshape", 0);
  const int split = nodeOf(*graph, "hlo.reshape", 1);
  ASSERT_GE(unit, 0);
  ASSERT_GE(split, 0);
  EXPECT_GT(graph->nodes[unit].numStrategies(), 1u);
  EXPECT_EQ(graph->nodes[split].numStrategies(), 1u) << graph->nodes[split].descriptions[1];
}

// A loop's body ops are nodes priced once per trip: the same dot costs three times as much
// in a loop of three trips as before it.
TEST_F(CostGraphTest, LoopBodiesArePricedPerTrip) {
  absl::StatusOr<CostGraph> graph = build(R"(
tessel.mesh @mesh = <["data"=4, "model"=2]>
func.func @main(%x: tensor<16x64xf32>, %w: tensor<64x64xf32>) -> tensor<16x64xf32> {
  %y0 = hlo.dot_general %x, %w, lhs_contract = [1], rhs_contract = [0]
      : (tensor<16x64xf32>, tensor<64x64xf32>) -> tensor<16x64xf32>
  %zero = hlo.constant dense<0> : tensor<i32>
  %three = hlo.constant dense<3> : tensor<i32>
  %r:2 = hlo.while(%i = %zero, %h = %y0) : tensor<i32>, tensor<16x64xf32>
  cond {
    %more = hlo.compare LT, %i, %three : tensor<i32>
    hlo.return %more : tensor<i1>
  } do {
    %one = hlo.constant dense<1> : tensor<i32>
    %next = hlo.add %i, %one : tensor<i32>
    %y = hlo.dot_general %h, %w, lhs_contract = [1], rhs_contract = [0]
        : (tensor<16x64xf32>, tensor<64x64xf32>) -> tensor<16x64xf32>
    hlo.return %next, %y : tensor<i32>, tensor<16x64xf32>
  }
  return %r#1 : tensor<16x64xf32>
})");
  ASSERT_TRUE(graph.ok()) << graph.status();
  const int before = nodeOf(*graph, "hlo.dot_general", 0);
  const int inside = nodeOf(*graph, "hlo.dot_general", 1);
  ASSERT_GE(before, 0);
  ASSERT_GE(inside, 0);
  ASSERT_EQ(graph->nodes[before].numStrategies(), graph->nodes[inside].numStrategies());
  for (size_t s = 0; s < graph->nodes[inside].numStrategies(); ++s) {
    EXPECT_DOUBLE_EQ(graph->nodes[inside].computeSeconds[s],
                     3 * graph->nodes[before].computeSeconds[s]);
  }
  // The carried value is a node of its own, not an opaque loop.
  EXPECT_GE(nodeOf(*graph, "loop carry 1 of hlo.while"), 0);
  EXPECT_LT(nodeOf(*graph, "hlo.while"), 0);
}

TEST_F(CostGraphTest, RefusesProgramsWithoutAMeshAndShardingsItCannotTake) {
  absl::StatusOr<CostGraph> noMesh = build(R"(
func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {
  %y = hlo.add %x, %x : tensor<8xf32>
  return %y : tensor<8xf32>
})");
  EXPECT_EQ(noMesh.status().code(), absl::StatusCode::kFailedPrecondition);
  absl::StatusOr<CostGraph> subAxis = build(R"(
tessel.mesh @mesh = <["x"=4]>
func.func @main(%x: tensor<8xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x":(1)2}]>})
    -> tensor<8xf32> {
  %y = hlo.add %x, %x : tensor<8xf32>
  return %y : tensor<8xf32>
})");
  EXPECT_EQ(subAxis.status().code(), absl::StatusCode::kUnimplemented);
  // The message names where the value is.
  EXPECT_NE(subAxis.status().message().find("program.mlir:3:"), std::string::npos)
      << subAxis.status();
}

}  // namespace
}  // namespace tessel::auto_sharding
