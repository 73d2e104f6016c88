// The mixture-of-experts layer verifies at every device count, whatever the partitioner
// emits to move tokens to their experts and back.
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
    EXPECT_GT(partitioned->collectives.total_count(), 0);
  }
  absl::StatusOr<VerifyReport> report = Verify(*program, *partitioned, /*seed=*/devices);
  ASSERT_THAT(report, IsOk());
  EXPECT_TRUE(report->ok()) << *report;
}

INSTANTIATE_TEST_SUITE_P(Devices, MoeTest, ::testing::Values(1, 2, 3, 4, 8));

// With the gate all zero every token picks expert 0, which takes only the first 4 tokens:
// the dropped tokens come out as zeros.
TEST(MoeRoutingTest, TokensPastTheCapacityAreDropped) {
  absl::StatusOr<Program> program = BuildMoe(1);
  ASSERT_THAT(program, IsOk());
  std::vector<HostTensor> inputs = RandomInputs(*program, 1);
  inputs[1] = *HostTensor::Zeros(ElementType::kF32, {8, 8});
  absl::StatusOr<std::vector<HostTensor>> out = tessel::Run(*program, inputs);
  ASSERT_THAT(out, IsOk());
  absl::Span<const float> values = (*out)[0].data<float>();
  bool first_tokens_nonzero = false;
  for (int64_t i = 0; i < 4 * 8; ++i) first_tokens_nonzero |= values[i] != 0;
  EXPECT_TRUE(first_tokens_nonzero);
  for (int64_t i = 4 * 8; i < 16 * 8; ++i) EXPECT_EQ(values[i], 0) << "element " << i;
}

}  // namespace
}  // namespace tessel::examples
