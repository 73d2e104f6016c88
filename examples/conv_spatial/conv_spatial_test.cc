// The spatially split conv net verifies at every device count, whatever the partitioner
// emits for the halos (exchanges with the neighbours, or gathering by the fallback).
#include "examples/conv_spatial/conv_spatial.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "partitioner/api/partition.h"
#include "partitioner/api/verify.h"
#include "support/status_matchers.h"

namespace tessel::examples {
namespace {

using ::tessel::testing::IsOk;

class ConvSpatialTest : public ::testing::TestWithParam<int64_t> {};

TEST_P(ConvSpatialTest, PartitionsAndVerifies) {
  int64_t devices = GetParam();
  absl::StatusOr<Program> program = BuildConvSpatial(devices);
  ASSERT_THAT(program, IsOk());
  absl::StatusOr<PartitionResult> partitioned = Partition(*program);
  ASSERT_THAT(partitioned, IsOk());
  EXPECT_EQ(partitioned->num_partitions, devices);
  // The pooled result stays split along the height.
  ASSERT_EQ(partitioned->results.size(), 1u);
  EXPECT_EQ(partitioned->results[0].sharding->num_shards(1), devices);
  absl::StatusOr<VerifyReport> report = Verify(*program, *partitioned, /*seed=*/devices);
  ASSERT_THAT(report, IsOk());
  EXPECT_TRUE(report->ok()) << *report;
}

INSTANTIATE_TEST_SUITE_P(Devices, ConvSpatialTest, ::testing::Values(1, 2, 3, 4, 8));

}  // namespace
}  // namespace tessel::examples
