// Tests of the device-assignment spec: parsing, and where it places a mesh's devices.
#include "collectives/hierarchical/axis_assignment.h"

#include <vector>

#include "gtest/gtest.h"
#include "support/status_matchers.h"

namespace tessel::collectives {
namespace {

using ::tessel::testing::IsOk;
using ::tessel::testing::StatusIs;

const std::vector<MeshAxis> kMesh = {{"data", 4}, {"model", 2}};

TEST(AxisAssignmentTest, ParsesAndPrints) {
  auto spec = ParseAxisBackends(" model:local , data:mpi");
  ASSERT_THAT(spec.status(), IsOk());
  ASSERT_EQ(spec->size(), 2u);
  EXPECT_EQ((*spec)[0].first, "model");
  EXPECT_EQ((*spec)[0].second, AxisBackend::kLocal);
  EXPECT_EQ(AxisBackendsString(*spec), "model:local,data:mpi");
  EXPECT_EQ(AxisBackendsString(AllAxesOverMpi(kMesh)), "data:mpi,model:mpi");
}

TEST(AxisAssignmentTest, RejectsMalformedSpecs) {
  const auto kInvalid = absl::StatusCode::kInvalidArgument;
  EXPECT_THAT(ParseAxisBackends("").status(), StatusIs(kInvalid, "is empty"));
  EXPECT_THAT(ParseAxisBackends("data").status(), StatusIs(kInvalid, "'data' is not axis:backend"));
  EXPECT_THAT(ParseAxisBackends("data:mpi,").status(), StatusIs(kInvalid, "'' is not"));
  EXPECT_THAT(ParseAxisBackends("data:nccl").status(),
              StatusIs(kInvalid, "unknown backend 'nccl'"));
  EXPECT_THAT(ParseAxisBackends("data:mpi,data:local").status(),
              StatusIs(kInvalid, "names axis \"data\" twice"));
}

TEST(AxisAssignmentTest, MpiAxesMakeRanksAndLocalAxesMakeSlots) {
  // Device d = 2 * data + model.
  auto by_data = AssignByAxes(kMesh, {}, *ParseAxisBackends("data:mpi,model:local"), 4);
  ASSERT_THAT(by_data.status(), IsOk());
  for (int64_t d = 0; d < 8; ++d) {
    EXPECT_EQ(by_data->RankOf(d), d / 2) << d;
    EXPECT_EQ(by_data->SlotOf(d), d % 2) << d;
  }
  auto by_model = AssignByAxes(kMesh, {}, *ParseAxisBackends("model:mpi,data:local"), 2);
  ASSERT_THAT(by_model.status(), IsOk());
  for (int64_t d = 0; d < 8; ++d) {
    EXPECT_EQ(by_model->RankOf(d), d % 2) << d;
    EXPECT_EQ(by_model->SlotOf(d), d / 2) << d;
  }
  auto one_rank = AssignByAxes(kMesh, {}, *ParseAxisBackends("data:local,model:local"), 1);
  ASSERT_THAT(one_rank.status(), IsOk());
  EXPECT_EQ(one_rank->num_ranks(), 1);
  auto every_rank = AssignByAxes(kMesh, {}, AllAxesOverMpi(kMesh), 8);
  ASSERT_THAT(every_rank.status(), IsOk());
  EXPECT_TRUE(every_rank->one_per_rank());
}

TEST(AxisAssignmentTest, FollowsExplicitDeviceIds) {
  // The device at position i has id 7 - i.
  const std::vector<int64_t> ids = {7, 6, 5, 4, 3, 2, 1, 0};
  auto assignment = AssignByAxes(kMesh, ids, *ParseAxisBackends("data:mpi,model:local"), 4);
  ASSERT_THAT(assignment.status(), IsOk());
  EXPECT_EQ(assignment->RankOf(7), 0);
  EXPECT_EQ(assignment->RankOf(0), 3);
  EXPECT_EQ(assignment->SlotOf(0), 1);
  EXPECT_THAT(AssignByAxes(kMesh, {0, 1, 2, 3, 4, 5, 6, 6}, AllAxesOverMpi(kMesh), 8).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, "permutation of [0, 8)"));
}

TEST(AxisAssignmentTest, RejectsSpecsThatDoNotMatchTheMeshOrTheJob) {
  const auto kInvalid = absl::StatusCode::kInvalidArgument;
  EXPECT_THAT(AssignByAxes(kMesh, {}, *ParseAxisBackends("data:mpi"), 4).status(),
              StatusIs(kInvalid, "does not place mesh axis \"model\""));
  EXPECT_THAT(
      AssignByAxes(kMesh, {}, *ParseAxisBackends("data:mpi,model:local,seq:mpi"), 4).status(),
      StatusIs(kInvalid,
               "names axis \"seq\", which the mesh lacks (its axes: \"data\", \"model\")"));
  EXPECT_THAT(AssignByAxes(kMesh, {}, *ParseAxisBackends("data:mpi,model:local"), 3).status(),
              StatusIs(kInvalid,
                       "data:mpi,model:local needs 4 ranks (the product of its mpi "
                       "axes [\"data\"=4]) but the MPI job has 3 ranks"));
}

}  // namespace
}  // namespace tessel::collectives
