// The Megatron MLP partitions into one all_reduce and verifies at every device count.
#include "examples/megatron_mlp/megatron_mlp.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "partitioner/api/partition.h"
#include "partitioner/api/verify.h"
#include "support/status_matchers.h"

namespace tessel::examples {
namespace {

using ::tessel::testing::IsOk;

class MegatronMlpTest : public ::testing::TestWithParam<int64_t> {};

TEST_P(MegatronMlpTest, OneAllReduceAndTheSameResults) {
  int64_t devices = GetParam();
  absl::StatusOr<Program> program = BuildMegatronMlp(devices);
  ASSERT_THAT(program, IsOk());
  absl::StatusOr<PartitionResult> partitioned = Partition(*program);
  ASSERT_THAT(partitioned, IsOk());
  EXPECT_EQ(partitioned->num_partitions, devices);
  EXPECT_TRUE(partitioned->fallback_warnings.empty());
  if (devices == 1) {
    // A collective over one device is its operand: none is left.
    EXPECT_EQ(partitioned->collectives.total_count(), 0) << partitioned->collectives;
  } else {
    // The partial sums of the second matmul meet in one all_reduce.
    EXPECT_EQ(partitioned->collectives.count("all_reduce"), 1) << partitioned->collectives;
    EXPECT_EQ(partitioned->collectives.total_count(), 1) << partitioned->collectives;
    ASSERT_EQ(partitioned->collectives.entries.size(), 1u);
    EXPECT_EQ(partitioned->collectives.entries[0].axes, std::vector<AxisRef>{"model"});
  }
  absl::StatusOr<VerifyReport> report = Verify(*program, *partitioned, /*seed=*/devices);
  ASSERT_THAT(report, IsOk());
  EXPECT_TRUE(report->ok()) << *report;
}

INSTANTIATE_TEST_SUITE_P(Devices, MegatronMlpTest, ::testing::Values(1, 2, 3, 4, 8));

}  // namespace
}  // namespace tessel::examples
