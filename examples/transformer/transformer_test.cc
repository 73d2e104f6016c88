// The transformer block verifies at every device count; with "model" split, the MLP ends in
// an all_reduce over "model", and attention ends in one too or, where the cost model finds
// it no slower and sending fewer bytes at these small sizes, gathers its output projection's
// operands over "model" instead.
#include "examples/transformer/transformer.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "partitioner/api/partition.h"
#include "partitioner/api/verify.h"
#include "support/status_matchers.h"

namespace tessel::examples {
namespace {

using ::tessel::testing::IsOk;

class TransformerTest : public ::testing::TestWithParam<int64_t> {};

TEST_P(TransformerTest, PartitionsAndVerifies) {
  int64_t devices = GetParam();
  absl::StatusOr<Program> program = BuildTransformer(devices);
  ASSERT_THAT(program, IsOk());
  absl::StatusOr<PartitionResult> partitioned = Partition(*program);
  ASSERT_THAT(partitioned, IsOk());
  EXPECT_EQ(partitioned->num_partitions, devices);
  int64_t model_reductions = 0, model_collectives = 0;
  for (const CollectiveSummary::Entry& entry : partitioned->collectives.entries) {
    if (entry.axes != std::vector<AxisRef>{"model"}) continue;
    model_collectives += entry.count;
    if (entry.kind == "all_reduce") model_reductions += entry.count;
  }
  if (devices == 1) {
    EXPECT_EQ(partitioned->collectives.total_count(), 0) << partitioned->collectives;
  } else {
    EXPECT_GE(model_reductions, 1) << partitioned->collectives;
    EXPECT_GE(model_collectives, 2) << partitioned->collectives;
  }
  absl::StatusOr<VerifyReport> report = Verify(*program, *partitioned, /*seed=*/devices);
  ASSERT_THAT(report, IsOk());
  EXPECT_TRUE(report->ok()) << *report;
}

TEST(TransformerMeshTest, TwoDimensionalWhereTheCountAllows) {
  EXPECT_EQ(TransformerMesh(8)->ToString(), "@mesh = <[\"data\"=2, \"model\"=4]>");
  EXPECT_EQ(TransformerMesh(4)->ToString(), "@mesh = <[\"data\"=2, \"model\"=2]>");
  EXPECT_EQ(TransformerMesh(3)->ToString(), "@mesh = <[\"data\"=1, \"model\"=3]>");
}

INSTANTIATE_TEST_SUITE_P(Devices, TransformerTest, ::testing::Values(1, 2, 3, 4, 8));

}  // namespace
}  // namespace tessel::examples
