// Tests of the MPI backend's device assignment, which needs no MPI job.
#include "collectives/mpi/device_assignment.h"

#include <vector>

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

TEST(DeviceAssignmentTest, SeveralPartitionsPerRankBySlot) {
  // Partitions 0 and 2 on rank 0, 1 and 3 on rank 1; partition 2 before 0 on rank 0.
  auto assignment = DeviceAssignment::FromLocations({{0, 1}, {1, 0}, {0, 0}, {1, 1}});
  ASSERT_THAT(assignment.status(), IsOk());
  EXPECT_EQ(assignment->num_partitions(), 4);
  EXPECT_EQ(assignment->num_ranks(), 2);
  EXPECT_FALSE(assignment->one_per_rank());
  EXPECT_EQ(assignment->RankOf(2), 0);
  EXPECT_EQ(assignment->SlotOf(2), 0);
  EXPECT_EQ(assignment->SlotOf(3), 1);
  EXPECT_EQ(std::vector<int64_t>(assignment->PartitionsOf(0).begin(),
                                 assignment->PartitionsOf(0).end()),
            (std::vector<int64_t>{2, 0}));
  EXPECT_EQ(assignment->PartitionOf(1), 1);
  EXPECT_THAT(assignment->ValidateWorldSize(2), IsOk());
  EXPECT_THAT(assignment->ValidateWorldSize(4),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "places 4 partitions on 2 ranks but the MPI job has 4 ranks"));
}

TEST(DeviceAssignmentTest, LocationsMustBeDenseAndDistinct) {
  EXPECT_THAT(DeviceAssignment::FromLocations({}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, "no partitions"));
  EXPECT_THAT(DeviceAssignment::FromLocations({{0, 0}, {0, 0}}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "partitions 0 and 1 both map to rank 0 slot 0"));
  EXPECT_THAT(DeviceAssignment::FromLocations({{0, 0}, {2, 0}}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, "out of range [0, 2)"));
  EXPECT_THAT(DeviceAssignment::FromLocations({{0, 0}, {0, 1}, {2, 0}}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, "rank 1 runs no partition"));
  EXPECT_THAT(DeviceAssignment::FromLocations({{0, 0}, {0, 2}, {1, 0}}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, "rank 0 has no partition in slot 1"));
  EXPECT_THAT(DeviceAssignment::FromLocations({{0, -1}}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, "out of range"));
}

}  // namespace
}  // namespace tessel::collectives
