// The training step verifies at every device count: the gradients and the loss meet in
// collectives over "data", and the step lowers the loss.
#include "examples/training_step/training_step.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "partitioner/api/partition.h"
#include "partitioner/api/run.h"
#include "partitioner/api/verify.h"
#include "support/status_matchers.h"

namespace tessel::examples {
namespace {

using ::tessel::testing::IsOk;

class TrainingStepTest : public ::testing::TestWithParam<int64_t> {};

TEST_P(TrainingStepTest, PartitionsAndVerifies) {
  int64_t devices = GetParam();
  absl::StatusOr<Program> program = BuildTrainingStep(devices);
  ASSERT_THAT(program, IsOk());
  absl::StatusOr<PartitionResult> partitioned = Partition(*program);
  ASSERT_THAT(partitioned, IsOk());
  EXPECT_EQ(partitioned->num_partitions, devices);
  EXPECT_TRUE(partitioned->fallback_warnings.empty());
  if (devices == 1) {
    // Collectives over one device fold away.
    EXPECT_EQ(partitioned->collectives.total_count(), 0) << partitioned->collectives;
  } else {
    // The two weight gradients sum over the batch; so does the loss.
    EXPECT_GE(partitioned->collectives.count("all_reduce"), 2) << partitioned->collectives;
  }
  for (const CollectiveSummary::Entry& entry : partitioned->collectives.entries) {
    EXPECT_EQ(entry.axes, std::vector<AxisRef>{"data"}) << partitioned->collectives;
  }
  absl::StatusOr<VerifyReport> report = Verify(*program, *partitioned, /*seed=*/devices);
  ASSERT_THAT(report, IsOk());
  EXPECT_TRUE(report->ok()) << *report;
  EXPECT_EQ(report->results.size(), 5u);
}

INSTANTIATE_TEST_SUITE_P(Devices, TrainingStepTest, ::testing::Values(1, 2, 3, 4, 8));

// With weight-update sharding, each gradient is reduce-scattered where the weight divides
// (w1 [8, 16] and w2 [16, 4] split along dim 0 on 2, 4 and 8 devices; unevenly on 3, where
// the gradient is all-reduced and sliced), the momentum update runs on a shard, and the new
// weights are all-gathered. The momentum parameters and results come out split over
// "data".
class ShardedUpdateTest : public ::testing::TestWithParam<int64_t> {};

TEST_P(ShardedUpdateTest, ReduceScattersGradientsAndVerifies) {
  int64_t devices = GetParam();
  absl::StatusOr<Program> program = BuildTrainingStep(devices);
  ASSERT_THAT(program, IsOk());
  PartitionOptions options;
  options.shard_weight_update = true;
  absl::StatusOr<PartitionResult> partitioned = Partition(*program, options);
  ASSERT_THAT(partitioned, IsOk());
  EXPECT_TRUE(partitioned->fallback_warnings.empty());
  const CollectiveSummary& collectives = partitioned->collectives;
  if (devices == 1) {
    EXPECT_EQ(collectives.total_count(), 0) << collectives;
  } else {
    // Only the loss is all-reduced; at 3 devices the uneven gradients are padded first.
    EXPECT_EQ(collectives.count("reduce_scatter"), 2) << collectives;
    EXPECT_EQ(collectives.count("all_reduce"), 1) << collectives;
    EXPECT_EQ(collectives.count("all_gather"), 2) << collectives;
  }
  // Parameters 4 and 5 and results 3 and 4 are the momentum buffers.
  for (const ShardedValue* value :
       {&partitioned->parameters[4], &partitioned->parameters[5], &partitioned->results[3],
        &partitioned->results[4]}) {
    ASSERT_TRUE(value->sharding.has_value()) << *value;
    EXPECT_EQ(value->sharding->num_shards(0), devices) << *value;
  }
  EXPECT_EQ(partitioned->parameters[2].sharding->num_shards(0), 1);
  EXPECT_EQ(partitioned->results[1].sharding->num_shards(0), 1);
  absl::StatusOr<VerifyReport> report = Verify(*program, *partitioned, /*seed=*/devices);
  ASSERT_THAT(report, IsOk());
  EXPECT_TRUE(report->ok()) << *report;
  EXPECT_EQ(report->results.size(), 5u);
}

INSTANTIATE_TEST_SUITE_P(Devices, ShardedUpdateTest, ::testing::Values(1, 2, 3, 4, 8));

// With collective combining, the loss and the two gradients are all-reduced as one (what
// reads the loss moves after the gradients); after weight-update sharding one
// reduce_scatter and one all_gather carry both weights.
class CombinedCollectivesTest : public ::testing::TestWithParam<int64_t> {};

TEST_P(CombinedCollectivesTest, CombinesAndVerifies) {
  int64_t devices = GetParam();
  absl::StatusOr<Program> program = BuildTrainingStep(devices);
  ASSERT_THAT(program, IsOk());
  for (bool sharded : {false, true}) {
    PartitionOptions options;
    options.shard_weight_update = sharded;
    options.combine_collectives = true;
    absl::StatusOr<PartitionResult> partitioned = Partition(*program, options);
    ASSERT_THAT(partitioned, IsOk());
    const CollectiveSummary& collectives = partitioned->collectives;
    if (devices == 1) {
      EXPECT_EQ(collectives.total_count(), 0) << collectives;
    } else if (sharded) {
      EXPECT_EQ(collectives.count("reduce_scatter"), 1) << collectives;
      EXPECT_EQ(collectives.count("all_gather"), 1) << collectives;
    } else {
      EXPECT_EQ(collectives.count("all_reduce"), 1) << collectives;
    }
    absl::StatusOr<VerifyReport> report = Verify(*program, *partitioned, /*seed=*/devices);
    ASSERT_THAT(report, IsOk());
    EXPECT_TRUE(report->ok()) << *report;
  }
}

INSTANTIATE_TEST_SUITE_P(Devices, CombinedCollectivesTest, ::testing::Values(1, 2, 3, 4, 8));

// Feeding the new weights and momentum back in, the loss goes down over a few steps.
TEST(TrainingStepLossTest, StepsLowerTheLoss) {
  absl::StatusOr<Program> program = BuildTrainingStep(4);
  ASSERT_THAT(program, IsOk());
  absl::StatusOr<PartitionResult> partitioned = Partition(*program);
  ASSERT_THAT(partitioned, IsOk());
  std::vector<HostTensor> state = RandomInputs(*program, 11);
  state[4] = *HostTensor::Zeros(ElementType::kF32, {8, 16});
  state[5] = *HostTensor::Zeros(ElementType::kF32, {16, 4});
  std::vector<float> losses;
  for (int step = 0; step < 5; ++step) {
    absl::StatusOr<std::vector<HostTensor>> out = tessel::Run(partitioned->program, state);
    ASSERT_THAT(out, IsOk());
    losses.push_back((*out)[0].data<float>()[0]);
    for (int i = 0; i < 4; ++i) state[2 + i] = (*out)[1 + i];
  }
  EXPECT_LT(losses.back(), losses.front());
}

}  // namespace
}  // namespace tessel::examples
