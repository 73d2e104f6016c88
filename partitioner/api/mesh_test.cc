// Tests of Mesh: creation, validation, queries and printing.
#include "partitioner/api/mesh.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "support/status_matchers.h"

namespace tessel {
namespace {

using ::tessel::testing::IsOk;
using ::tessel::testing::StatusIs;
constexpr absl::StatusCode kInvalid = absl::StatusCode::kInvalidArgument;

TEST(MeshTest, CreateKeepsAxesInOrderAndCountsDevices) {
  absl::StatusOr<Mesh> mesh = Mesh::Create({{"data", 4}, {"model", 2}});
  ASSERT_THAT(mesh, IsOk());
  EXPECT_EQ(mesh->name(), "mesh");
  EXPECT_EQ(mesh->num_devices(), 8);
  EXPECT_EQ(mesh->axes().size(), 2u);
  EXPECT_EQ(mesh->axes()[0].name, "data");
  EXPECT_EQ(mesh->axis_size("model"), 2);
  EXPECT_EQ(mesh->axis_size("pipeline"), std::nullopt);
  EXPECT_TRUE(mesh->explicit_device_ids().empty());
  EXPECT_EQ(mesh->device_id(5), 5);
  EXPECT_EQ(mesh->ToString(), "@mesh = <[\"data\"=4, \"model\"=2]>");
}

TEST(MeshTest, ExplicitDeviceOrderIsKept) {
  absl::StatusOr<Mesh> mesh = Mesh::CreateNamed("ring", {{"x", 2}, {"y", 2}}, {3, 2, 1, 0});
  ASSERT_THAT(mesh, IsOk());
  EXPECT_EQ(mesh->device_id(0), 3);
  EXPECT_EQ(mesh->ToString(), "@ring = <[\"x\"=2, \"y\"=2], device_ids=[3, 2, 1, 0]>");
}

TEST(MeshTest, AMeshWithoutAxesIsOneDeviceWithAnyId) {
  absl::StatusOr<Mesh> mesh = Mesh::Create({}, {7});
  ASSERT_THAT(mesh, IsOk());
  EXPECT_EQ(mesh->num_devices(), 1);
  EXPECT_EQ(mesh->device_id(0), 7);
}

TEST(MeshTest, RejectsEmptyNames) {
  EXPECT_THAT(Mesh::Create({{"", 2}}), StatusIs(kInvalid, "axis 0 has an empty name"));
  EXPECT_THAT(Mesh::CreateNamed("", {{"x", 2}}), StatusIs(kInvalid, "mesh name is empty"));
}

TEST(MeshTest, RejectsDuplicateAxes) {
  EXPECT_THAT(Mesh::Create({{"x", 2}, {"x", 4}}), StatusIs(kInvalid, "axis \"x\" appears twice"));
}

TEST(MeshTest, RejectsSizesBelowOne) {
  EXPECT_THAT(Mesh::Create({{"x", 0}}),
              StatusIs(kInvalid, "axis \"x\" has size 0, must be at least 1"));
}

TEST(MeshTest, RejectsDeviceIdsThatAreNotAPermutation) {
  EXPECT_THAT(Mesh::Create({{"x", 4}}, {0, 1, 2}),
              StatusIs(kInvalid, "has 4 devices but 3 device ids"));
  EXPECT_THAT(Mesh::Create({{"x", 4}}, {0, 1, 1, 3}),
              StatusIs(kInvalid, "device id 1 appears twice"));
  EXPECT_THAT(Mesh::Create({{"x", 2}}, {0, 2}),
              StatusIs(kInvalid, "device id 2 is out of range [0, 2)"));
  EXPECT_THAT(Mesh::Create({}, {-1}), StatusIs(kInvalid, "device id -1 is negative"));
}

TEST(MeshTest, RejectsDeviceCountsThatOverflow) {
  int64_t big = int64_t{1} << 40;
  EXPECT_THAT(Mesh::Create({{"x", big}, {"y", big}}), StatusIs(kInvalid, "overflows"));
}

TEST(MeshTest, EqualityComparesNameAxesAndOrder) {
  Mesh a = *Mesh::Create({{"x", 2}});
  EXPECT_EQ(a, *Mesh::Create({{"x", 2}}));
  EXPECT_NE(a, *Mesh::CreateNamed("other", {{"x", 2}}));
  EXPECT_NE(a, *Mesh::Create({{"x", 2}}, {1, 0}));
}

}  // namespace
}  // namespace tessel
