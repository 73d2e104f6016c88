// Tests of the MPI backend's device assignment, which needs no MPI job.
#include "collectives/mpi/device_assignment.h"

#include "gtest/gtest.h"
#include "support/status_matchers.h"

namespace tessel::collectives {
namespace {

using ::tessel::testing::IsOk;
using ::tessel::testing::StatusIs;

TEST(DeviceAssignmentTest, IdentityMapsPartitionToSameRank) {
  DeviceAssignment assignment = DeviceAssignment::Identity(3);
  EXPECT_EQ(assignment.num_partitions(), 3);
  for (int64_t p = 0; p < 3; ++p) {
    EXPECT_EQ(assignment.RankOf(p), p);
    EXPECT_EQ(assignment.PartitionOf(p), p);
  }
}

TEST(DeviceAssignmentTest, PermutationMapsBothWays) {
  auto assignment = DeviceAssignment::FromRanks({2, 0, 1});
  ASSERT_THAT(assignment.status(), IsOk());
  EXPECT_EQ(assignment->RankOf(0), 2);
  EXPECT_EQ(assignment->PartitionOf(2), 0);
  EXPECT_EQ(assignment->PartitionOf(0), 1);
}

TEST(DeviceAssignmentTest, RejectsEmptyOutOfRangeAndSharedRanks) {
  EXPECT_THAT(DeviceAssignment::FromRanks({}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, "no partitions"));
  EXPECT_THAT(DeviceAssignment::FromRanks({0, 2}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "partition 1 maps to rank 2, which is out of range [0, 2)"));
  EXPECT_THAT(DeviceAssignment::FromRanks({1, 1}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "partitions 0 and 1 both map to rank 1"));
}

TEST(DeviceAssignmentTest, WorldSizeMustMatch) {
  DeviceAssignment assignment = DeviceAssignment::Identity(4);
  EXPECT_THAT(assignment.ValidateWorldSize(4), IsOk());
  EXPECT_THAT(assignment.ValidateWorldSize(3),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "device assignment has 4 partitions but the MPI job has 3 ranks"));
}

}  // namespace
}  // namespace tessel::collectives
