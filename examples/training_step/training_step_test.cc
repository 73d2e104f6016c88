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
