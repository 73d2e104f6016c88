// The memory model on small programs: which points become rows, the plan's peak by the
// sweep against the rows, and the buffers of a reshard into an uneven split.
#include "partitioner/auto/liveness.h"

#include <algorithm>
#include <random>
#include <vector>

#include "cost_model/hardware_spec.h"
#include "gtest/gtest.h"
#include "mlir/IR/MLIRContext.h"
#include "partitioner/auto/cost_graph.h"
#include "partitioner/auto/ilp.h"
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

}  // namespace
}  // namespace tessel::auto_sharding
