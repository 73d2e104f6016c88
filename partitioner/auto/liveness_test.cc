// The memory model on small programs: which points become rows, the plan's peak by the
// sweep against the rows, the buffers of a reshard into an uneven split, and a loop's body
// followed op by op.
#include "partitioner/auto/liveness.h"

#include <algorithm>
#include <random>
#include <vector>

#include "cost_model/hardware_spec.h"
#include "cost_model/peak_memory.h"
#include "gtest/gtest.h"
#include "mlir/IR/MLIRContext.h"
#include "partitioner/auto/cost_graph.h"
#include "partitioner/auto/ilp.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/ir/parse_module.h"

namespace tessel::auto_sharding {
namespace {

// Six products of x live together before they are summed: the peak is mid-program.
constexpr char kBranches[] = R"(
tessel.mesh @mesh = <["data"=3, "model"=2]>
func.func @main(%x: tensor<64x64xf32>, %w0: tensor<64x64xf32>, %w1: tensor<64x64xf32>,
                %w2: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %p0 = hlo.dot_general %x, %w0, lhs_contract = [1], rhs_contract = [0]
      : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %p1 = hlo.dot_general %x, %w1, lhs_contract = [1], rhs_contract = [0]
      : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %p2 = hlo.dot_general %x, %w2, lhs_contract = [1], rhs_contract = [0]
      : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %s0 = hlo.add %p0, %p1 : tensor<64x64xf32>
  %s1 = hlo.add %s0, %p2 : tensor<64x64xf32>
  %t = hlo.tanh %s1 : tensor<64x64xf32>
  return %t : tensor<64x64xf32>
}
)";

class LivenessTest : public ::testing::Test {
 protected:
  void SetUp() override {
    absl::StatusOr<mlir::OwningOpRef<mlir::ModuleOp>> parsed =
        ParseModule(kBranches, "program.mlir", context_);
    ASSERT_TRUE(parsed.ok()) << parsed.status();
    module_ = std::move(*parsed);
    main_ = module_->lookupSymbol<mlir::func::FuncOp>("main");
    absl::StatusOr<CostGraph> graph = buildCostGraph(main_, cost_model::DefaultHardwareSpec());
    ASSERT_TRUE(graph.ok()) << graph.status();
    graph_ = std::move(*graph);
  }

  mlir::MLIRContext context_;
  mlir::OwningOpRef<mlir::ModuleOp> module_;
  mlir::func::FuncOp main_;
  CostGraph graph_;
};

TEST_F(LivenessTest, OnlyPointsSomePlanCanFillPastTheLimitBecomeRows) {
  const LivenessModel memory(graph_, main_);
  // Four 16 KiB parameters and at most three live products: far under 80 GB.
  EXPECT_TRUE(memory.rowsOver(80e9).points.empty());
  const LivenessPoints all = memory.rowsOver(0);
  ASSERT_FALSE(all.points.empty());
  EXPECT_EQ(all.points.size(), all.ops.size());
  // A limit between the smallest and the largest point's bound keeps only the points
  // whose bound exceeds it.
  std::vector<double> most;
  for (const IlpMemoryPoint& point : all.points) most.push_back(mostBytes(point));
  const double limit = (*std::min_element(most.begin(), most.end()) +
                        *std::max_element(most.begin(), most.end())) /
                       2;
  const LivenessPoints some = memory.rowsOver(limit);
  const size_t over = std::count_if(most.begin(), most.end(), [&](double b) { return b > limit; });
  EXPECT_EQ(some.points.size(), over);
  EXPECT_GT(some.points.size(), 0u);
  EXPECT_LT(some.points.size(), all.points.size());
  for (const IlpMemoryPoint& point : some.points) EXPECT_GT(mostBytes(point), limit);
}

TEST_F(LivenessTest, ThePeakBySweepIsTheLargestRow) {
  const LivenessModel memory(graph_, main_);
  IlpProblem problem = graph_.problem(1, 10);
  problem.memoryPoints = memory.rowsOver(0).points;
  std::mt19937 random(5);
  for (int trial = 0; trial < 50; ++trial) {
    std::vector<int> choice;
    for (const GraphNode& node : graph_.nodes) {
      choice.push_back(static_cast<int>(random() % node.numStrategies()));
    }
    auto [peak, op] = memory.peakOf(choice);
    EXPECT_NE(op, nullptr);
    EXPECT_DOUBLE_EQ(peak, peakOf(problem, choice).first) << "trial " << trial;
    // Never below what the parameters alone hold at their smallest pieces.
    EXPECT_GE(peak, 4 * 64 * 64 * 4 / 6);
  }
}

TEST_F(LivenessTest, ASliceIntoAnUnevenSplitHoldsThePaddedSource) {
  auto type = mlir::RankedTensorType::get({64, 64}, mlir::Float32Type::get(&context_));
  const Layout whole = Layout::replicated(2);
  Layout rows;
  rows.dims = {{0}, {}};  // 64 rows over "data"=3: pieces of 22, padded to 66
  const double piece = 22 * 64 * 4;
  const double padded = 66 * 64 * 4;
  EXPECT_DOUBLE_EQ(reshardBufferBytes(whole, rows, type, graph_.mesh), padded + piece);
  // Over "model"=2 the split is even: the piece alone.
  Layout even;
  even.dims = {{1}, {}};
  EXPECT_DOUBLE_EQ(reshardBufferBytes(whole, even, type, graph_.mesh), 32 * 64 * 4);
  EXPECT_DOUBLE_EQ(reshardBufferBytes(rows, rows, type, graph_.mesh), 0);
}

// Three 16 KiB products live together inside a loop's body, beside the loop's state; the
// zeros the body broadcasts from a constant do not change from trip to trip, so the
// partitioner hoists them before the loop, where they stay live throughout.
constexpr char kLoop[] = R"(
tessel.mesh @mesh = <["data"=2]>
func.func @main(%x: tensor<64x64xf32>, %w: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %zero = hlo.constant dense<0> : tensor<i32>
  %r:2 = hlo.while(%i = %zero, %h = %x) : tensor<i32>, tensor<64x64xf32>
  cond {
    %three = hlo.constant dense<3> : tensor<i32>
    %more = hlo.compare LT, %i, %three : tensor<i32>
    hlo.return %more : tensor<i1>
  } do {
    %one = hlo.constant dense<1> : tensor<i32>
    %next = hlo.add %i, %one : tensor<i32>
    %a = hlo.dot_general %h, %w, lhs_contract = [1], rhs_contract = [0]
        : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %b = hlo.dot_general %a, %w, lhs_contract = [1], rhs_contract = [0]
        : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %c = hlo.add %a, %b : tensor<64x64xf32>
    %f = hlo.constant dense<0.0> : tensor<f32>
    %z = hlo.broadcast_in_dim %f, dims = [] : (tensor<f32>) -> tensor<64x64xf32>
    %t = hlo.max %c, %z : tensor<64x64xf32>
    hlo.return %next, %t : tensor<i32>, tensor<64x64xf32>
  }
  return %r#1 : tensor<64x64xf32>
}
)";

TEST(LivenessLoopTest, TheBodyIsFollowedOpByOpWithHoistedValuesHeldThroughout) {
  mlir::MLIRContext context;
  absl::StatusOr<mlir::OwningOpRef<mlir::ModuleOp>> parsed =
      ParseModule(kLoop, "loop.mlir", context);
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  auto main = (*parsed)->lookupSymbol<mlir::func::FuncOp>("main");
  absl::StatusOr<CostGraph> graph = buildCostGraph(main, cost_model::DefaultHardwareSpec());
  ASSERT_TRUE(graph.ok()) << graph.status();
  // Everything whole: the plan whose peak the cost report gives for the program as written.
  std::vector<int> whole;
  for (const GraphNode& node : graph->nodes) {
    const auto it = std::find_if(node.descriptions.begin(), node.descriptions.end(),
                                 [](const std::string& d) { return d.find('"') == d.npos; });
    ASSERT_NE(it, node.descriptions.end()) << node.name;
    whole.push_back(static_cast<int>(it - node.descriptions.begin()));
  }
  const LivenessModel memory(*graph, main);
  auto [peak, at] = memory.peakOf(whole);
  ASSERT_NE(at, nullptr);
  // The peak is inside the body, not at the loop counted as one point.
  EXPECT_TRUE(llvm::isa<hlo::WhileOp>(at->getParentOp())) << at->getName().getStringRef().str();
  const cost_model::PeakMemory report = cost_model::EstimatePeakMemory(main);
  // The report holds x, w, the loop's state (16 KiB and a counter) and three products; the
  // model holds the hoisted zeros (16 KiB), their constant and the constant 1 besides.
  constexpr double kTile = 64 * 64 * 4;
  EXPECT_DOUBLE_EQ(static_cast<double>(report.peak_bytes), 6 * kTile + 4 + 4 + 4);
  EXPECT_DOUBLE_EQ(peak, static_cast<double>(report.peak_bytes) + kTile + 4 + 4);
}

}  // namespace
}  // namespace tessel::auto_sharding
