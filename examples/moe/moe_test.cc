// The mixture-of-experts layer verifies at every device count, and its slots move to their
// experts and back with two all-to-alls rather than gathers.
#include "examples/moe/moe.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "partitioner/api/partition.h"
#include "partitioner/api/run.h"
#include "partitioner/api/verify.h"
#include "support/status_matchers.h"

namespace tessel::examples {
namespace {

using ::tessel::testing::IsOk;

class MoeTest : public ::testing::TestWithParam<int64_t> {};

TEST_P(MoeTest, PartitionsAndVerifies) {
  int64_t devices = GetParam();
  absl::StatusOr<Program> program = BuildMoe(devices);
  ASSERT_THAT(program, IsOk());
  absl::StatusOr<PartitionResult> partitioned = Partition(*program);
  ASSERT_THAT(partitioned, IsOk());
  EXPECT_EQ(partitioned->num_partitions, devices);
  if (devices > 1) {
    EXPECT_EQ(partitioned->collectives.count("all_to_all"), 2) << partitioned->collectives.ToString();
    EXPECT_EQ(partitioned->collectives.count("all_gather"), 0) << partitioned->collectives.ToString();
  }
  absl::StatusOr<VerifyReport> report = Verify(*program, *partitioned, /*seed=*/devices);
  ASSERT_THAT(report, IsOk());
  EXPECT_TRUE(report->ok()) << *report;
}

INSTANTIATE_TEST_SUITE_P(Devices, MoeTest, ::testing::Values(1, 2, 3, 4, 8));

// With the gate all zero every token picks expert 0, which takes only the first
// kMoeCapacity tokens of each group: the dropped tokens come out as zeros.
TEST(MoeRoutingTest, TokensPastTheCapacityAreDropped) {
  absl::StatusOr<Program> program = BuildMoe(1);
  ASSERT_THAT(program, IsOk());
  std::vector<HostTensor> inputs = RandomInputs(*program, 1);
  inputs[1] = *HostTensor::Zeros(ElementType::kF32, {8, 8});
  absl::StatusOr<std::vector<HostTensor>> out = tessel::Run(*program, inputs);
  ASSERT_THAT(out, IsOk());
  absl::Span<const float> values = (*out)[0].data<float>();
  constexpr int64_t kModel = 8;
  for (int64_t group = 0; group < kMoeGroups; ++group) {
    bool kept_nonzero = false;
    for (int64_t token = 0; token < kMoeGroupSize; ++token) {
      for (int64_t m = 0; m < kModel; ++m) {
        float value = values[(group * kMoeGroupSize + token) * kModel + m];
        if (token < kMoeCapacity) {
          kept_nonzero |= value != 0;
        } else {
          EXPECT_EQ(value, 0) << "group " << group << " token " << token;
        }
      }
    }
    EXPECT_TRUE(kept_nonzero) << "group " << group;
  }
}

}  // namespace
}  // namespace tessel::examples
