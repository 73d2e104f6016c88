// Tests of the alpha-beta collective estimates against hand-computed times.
#include "cost_model/collective_cost.h"

#include "cost_model/test_util.h"
#include "gtest/gtest.h"

namespace tessel::cost_model {
namespace {

// A link of 1e9 B/s and 1 us per step keeps the arithmetic readable.
Link TestLink() {
  Link link;
  link.set_bandwidth_bytes_per_second(1e9);
  link.set_latency_seconds(1e-6);
  return link;
}

TEST(CollectiveCostTest, RingAllReduce) {
  // n = 4, S = 4000: 2*3/4*4000 = 6000 bytes, 6 steps.
  CollectiveEstimate estimate =
      EstimateCollective(CollectiveKind::kAllReduce, 4000, 4, TestLink());
  EXPECT_DOUBLE_EQ(estimate.operand_bytes, 4000);
  EXPECT_DOUBLE_EQ(estimate.sent_bytes, 6000);
  EXPECT_DOUBLE_EQ(estimate.seconds, 6e-6 + 6000 / 1e9);
}

TEST(CollectiveCostTest, AllGatherSendsTheOperandToEveryOtherDevice) {
  // The result is 4 * 1000 bytes; each device sends its 1000 to 3 others over the ring.
  CollectiveEstimate estimate =
      EstimateCollective(CollectiveKind::kAllGather, 1000, 4, TestLink());
  EXPECT_DOUBLE_EQ(estimate.sent_bytes, 3000);
  EXPECT_DOUBLE_EQ(estimate.seconds, 3e-6 + 3000 / 1e9);
}

TEST(CollectiveCostTest, ReduceScatterAndAllToAllSendAllButOneShare) {
  CollectiveEstimate scatter =
      EstimateCollective(CollectiveKind::kReduceScatter, 4000, 4, TestLink());
  EXPECT_DOUBLE_EQ(scatter.sent_bytes, 3000);
  EXPECT_DOUBLE_EQ(scatter.seconds, 3e-6 + 3e-6);
  CollectiveEstimate all_to_all =
      EstimateCollective(CollectiveKind::kAllToAll, 8000, 8, TestLink());
  EXPECT_DOUBLE_EQ(all_to_all.sent_bytes, 7000);
  EXPECT_DOUBLE_EQ(all_to_all.seconds, 7e-6 + 7e-6);
}

TEST(CollectiveCostTest, PermuteIsOneHop) {
  CollectiveEstimate estimate =
      EstimateCollective(CollectiveKind::kCollectivePermute, 5000, 8, TestLink());
  EXPECT_DOUBLE_EQ(estimate.sent_bytes, 5000);
  EXPECT_DOUBLE_EQ(estimate.seconds, 1e-6 + 5e-6);
}

TEST(CollectiveCostTest, GroupOfOneCostsNothing) {
  for (CollectiveKind kind :
       {CollectiveKind::kAllReduce, CollectiveKind::kAllGather, CollectiveKind::kReduceScatter,
        CollectiveKind::kAllToAll, CollectiveKind::kCollectivePermute}) {
    CollectiveEstimate estimate = EstimateCollective(kind, 1000, 1, TestLink());
    EXPECT_EQ(estimate.sent_bytes, 0) << CollectiveKindName(kind);
    EXPECT_EQ(estimate.seconds, 0) << CollectiveKindName(kind);
  }
}

TEST(CollectiveCostTest, ReshardCostUsesTheAxesLinks) {
  HardwareSpec spec = DefaultHardwareSpec();
  AxisLink* slow = spec.add_axis_links();
  slow->set_axis("data");
  slow->mutable_link()->set_bandwidth_bytes_per_second(1e9);
  slow->mutable_link()->set_latency_seconds(1e-5);
  // 256 f32 elements all-gathered over 8 devices of "data": 7 * 1024 bytes, 7 steps.
  EXPECT_DOUBLE_EQ(EstimateReshardCost(CollectiveKind::kAllGather, 4, 256, 8, {"data"}, spec),
                   7e-5 + 7168 / 1e9);
  // The same over "model" uses the default NVLink link.
  EXPECT_DOUBLE_EQ(EstimateReshardCost(CollectiveKind::kAllGather, 4, 256, 8, {"model"}, spec),
                   7 * 2e-6 + 7168 / 450e9);
  // Over both, the slow link.
  EXPECT_DOUBLE_EQ(
      EstimateReshardCost(CollectiveKind::kAllGather, 4, 256, 8, {"model", "data"}, spec),
      7e-5 + 7168 / 1e9);
}

TEST(CollectiveCostTest, EstimatesCollectiveOps) {
  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module = test::Parse(R"mlir(
    tessel.mesh @mesh = <["x"=2, "y"=4]>
    func.func @f(%a: tensor<4x8xf32>, %b: tensor<2x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
      %0 = tessel.all_reduce %a over @mesh ["x", "y"] kind = sum : tensor<4x8xf32>
      %1 = tessel.all_gather %b over @mesh ["y":(2)2] dim = 0 : (tensor<2x8xf32>) -> tensor<4x8xf32>
      %2 = tessel.collective_permute %a over @mesh ["y"] pairs = [[0, 0], [1, 1]] : tensor<4x8xf32>
      %3 = hlo.add %a, %a : tensor<4x8xf32>
      return %0, %1, %2, %3 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
    })mlir", context);
  ASSERT_TRUE(module);
  const HardwareSpec& spec = DefaultHardwareSpec();

  std::optional<CollectiveOpCost> all_reduce =
      EstimateCollectiveOp(test::FindOp(*module, "tessel.all_reduce"), spec);
  ASSERT_TRUE(all_reduce.has_value());
  EXPECT_EQ(all_reduce->kind, CollectiveKind::kAllReduce);
  EXPECT_EQ(all_reduce->axes, (std::vector<std::string>{"x", "y"}));
  EXPECT_EQ(all_reduce->group_size, 8);
  EXPECT_DOUBLE_EQ(all_reduce->estimate.operand_bytes, 128);
  EXPECT_DOUBLE_EQ(all_reduce->estimate.sent_bytes, 2 * 7 / 8.0 * 128);

  std::optional<CollectiveOpCost> all_gather =
      EstimateCollectiveOp(test::FindOp(*module, "tessel.all_gather"), spec);
  ASSERT_TRUE(all_gather.has_value());
  EXPECT_EQ(all_gather->axes, (std::vector<std::string>{"y:(2)2"}));
  EXPECT_EQ(all_gather->group_size, 2);
  EXPECT_DOUBLE_EQ(all_gather->estimate.sent_bytes, 64);

  // Every device sends to itself: nothing moves.
  std::optional<CollectiveOpCost> permute =
      EstimateCollectiveOp(test::FindOp(*module, "tessel.collective_permute"), spec);
  ASSERT_TRUE(permute.has_value());
  EXPECT_EQ(permute->estimate.seconds, 0);

  EXPECT_FALSE(EstimateCollectiveOp(test::FindOp(*module, "hlo.add"), spec).has_value());
}

}  // namespace
}  // namespace tessel::cost_model
