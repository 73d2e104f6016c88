// Tests of Mesh and TensorSharding: geometry, validation (the dialect verifier's rules), text.
#include "partitioner/sharding/tensor_sharding.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "partitioner/sharding/mesh.h"
#include "support/status_matchers.h"

namespace tessel::sharding {
namespace {

using ::tessel::testing::IsOk;
using ::tessel::testing::StatusIs;
using ::testing::ElementsAre;

constexpr auto kInvalid = absl::StatusCode::kInvalidArgument;

DimSharding Dim(std::vector<AxisRef> axes) { return DimSharding{std::move(axes)}; }

class TensorShardingTest : public ::testing::Test {
 protected:
  // x=2, y=4, the mesh of ALGORITHMS.md §1.2.
  Mesh mesh_ = *Mesh::Create({{"x", 2}, {"y", 4}});
};

TEST(MeshTest, DeviceAtCoordinateIsRowMajorIndexIntoIds) {
  // ALGORITHMS.md §1.2: on x=2, y=4 the device at (x, y) is ids[4x + y].
  Mesh mesh = *Mesh::Create({{"x", 2}, {"y", 4}}, {7, 6, 5, 4, 3, 2, 1, 0});
  EXPECT_EQ(mesh.DeviceId(4 * 1 + 2), 1);
  EXPECT_THAT(mesh.Coordinates(6), ElementsAre(1, 2));
  EXPECT_EQ(mesh.NumDevices(), 8);
  EXPECT_EQ(mesh.ToString(), "<[\"x\"=2, \"y\"=4], device_ids=[7, 6, 5, 4, 3, 2, 1, 0]>");
}

TEST(MeshTest, WithoutIdsTheLinearIndexIsTheDevice) {
  Mesh mesh = *Mesh::Create({{"x", 2}, {"y", 4}});
  EXPECT_EQ(mesh.DeviceId(5), 5);
  EXPECT_FALSE(mesh.IsMaximal());
}

TEST(MeshTest, AxislessMeshWithOneIdIsMaximal) {
  Mesh mesh = *Mesh::Create({}, {3});
  EXPECT_TRUE(mesh.IsMaximal());
  EXPECT_EQ(mesh.NumDevices(), 1);
  EXPECT_EQ(mesh.DeviceId(0), 3);
}

TEST(MeshTest, RejectsInvalidMeshes) {
  EXPECT_THAT(Mesh::Create({{"", 2}}), StatusIs(kInvalid, "name must not be empty"));
  EXPECT_THAT(Mesh::Create({{"x", 0}}), StatusIs(kInvalid, "\"x\" has size 0"));
  EXPECT_THAT(Mesh::Create({{"x", 2}, {"x", 2}}), StatusIs(kInvalid, "\"x\" appears twice"));
  EXPECT_THAT(Mesh::Create({{"x", 2}}, {0}), StatusIs(kInvalid, "must have 2 entries"));
  EXPECT_THAT(Mesh::Create({{"x", 2}}, {0, 2}), StatusIs(kInvalid, "device id 2 is out of range"));
  EXPECT_THAT(Mesh::Create({{"x", 2}}, {1, 1}), StatusIs(kInvalid, "device id 1 appears twice"));
  EXPECT_THAT(Mesh::Create({}, {1, 2}), StatusIs(kInvalid, "exactly one device id"));
  EXPECT_THAT(Mesh::Create({}, {-1}), StatusIs(kInvalid, "must not be negative"));
  // Device counts past the limit, including products that overflow int64 (found by the
  // sharding text fuzz target in an sdy.mesh).
  EXPECT_THAT(Mesh::Create({{"x", 2711423064081920848}, {"y", 4}}),
              StatusIs(kInvalid, "mesh has more than 1048576 devices (at axis \"x\""));
  EXPECT_THAT(Mesh::Create({{"x", 1024}, {"y", 2048}}),
              StatusIs(kInvalid, "(at axis \"y\" of size 2048)"));
  EXPECT_TRUE(Mesh::Create({{"x", 1024}, {"y", 1024}}).ok());
}

TEST_F(TensorShardingTest, AcceptsShardingWithSubAxesReplicatedAndUnreduced) {
  TensorSharding sharding{
      "mesh", {Dim({AxisRef("y", 2, 2)}), Dim({})}, {AxisRef("y", 1, 2)}, {AxisRef("x")}};
  EXPECT_THAT(sharding.Validate(mesh_, 2), IsOk());
  EXPECT_EQ(sharding.ToString(),
            "<@mesh, [{\"y\":(2)2}, {}], replicated={\"y\":(1)2}, unreduced={\"x\"}>");
}

TEST_F(TensorShardingTest, PrintsOpenDimsAndPriorities) {
  TensorSharding sharding{"mesh", {DimSharding{{AxisRef("x")}, false, 1}, DimSharding{{}, false}}};
  EXPECT_EQ(sharding.ToString(), "<@mesh, [{\"x\", ?}p1, {?}]>");
}

TEST_F(TensorShardingTest, RejectsUnknownAxis) {
  TensorSharding sharding{"mesh", {Dim({AxisRef("z")})}};
  EXPECT_THAT(sharding.Validate(mesh_), StatusIs(kInvalid, "axis \"z\" is not in the mesh"));
}

TEST_F(TensorShardingTest, RejectsAxisUsedTwice) {
  TensorSharding sharding{"mesh", {Dim({AxisRef("x")}), Dim({AxisRef("x")})}};
  EXPECT_THAT(sharding.Validate(mesh_), StatusIs(kInvalid, "axis \"x\" is used twice"));
}

TEST_F(TensorShardingTest, RejectsAxisUsedAgainAsUnreduced) {
  TensorSharding sharding{"mesh", {Dim({AxisRef("x")})}, {}, {AxisRef("x")}};
  EXPECT_THAT(sharding.Validate(mesh_), StatusIs(kInvalid, "axis \"x\" is used twice"));
}

TEST_F(TensorShardingTest, RejectsOverlappingSubAxes) {
  TensorSharding whole_and_part{"mesh", {Dim({AxisRef("y")}), Dim({AxisRef("y", 1, 2)})}};
  EXPECT_THAT(whole_and_part.Validate(mesh_),
              StatusIs(kInvalid, "axis \"y\" overlaps axis \"y\":(1)2"));
  Mesh mesh = *Mesh::Create({{"z", 8}});
  TensorSharding parts{"mesh", {Dim({AxisRef("z", 1, 4)}), Dim({AxisRef("z", 2, 2)})}};
  EXPECT_THAT(parts.Validate(mesh), StatusIs(kInvalid, "overlaps"));
}

TEST_F(TensorShardingTest, RejectsSubAxisThatDoesNotDivide) {
  TensorSharding sharding{"mesh", {Dim({AxisRef("y", 3, 2)})}};
  EXPECT_THAT(sharding.Validate(mesh_), StatusIs(kInvalid, "3 * 2 does not divide the size 4"));
}

TEST_F(TensorShardingTest, RejectsSubAxisThatIsTheWholeAxis) {
  TensorSharding sharding{"mesh", {Dim({AxisRef("y", 1, 4)})}};
  EXPECT_THAT(sharding.Validate(mesh_), StatusIs(kInvalid, "write the axis instead"));
}

TEST_F(TensorShardingTest, RejectsMalformedSubAxes) {
  EXPECT_THAT((TensorSharding{"mesh", {Dim({AxisRef("y", 0, 2)})}}.Validate(mesh_)),
              StatusIs(kInvalid, "pre-size at least 1"));
  EXPECT_THAT((TensorSharding{"mesh", {Dim({AxisRef("y", 2, 1)})}}.Validate(mesh_)),
              StatusIs(kInvalid, "size greater than 1"));
  EXPECT_THAT((TensorSharding{"mesh", {Dim({AxisRef("y", 2, 0)})}}.Validate(mesh_)),
              StatusIs(kInvalid, "has a pre-size but no sub-axis size"));
}

TEST_F(TensorShardingTest, RejectsIncompatibleSplitsOfOneAxis) {
  // On an axis of 12, (1)2 ends at 2 and (3)2 starts at 3: no split has both as factors.
  Mesh mesh = *Mesh::Create({{"w", 12}});
  TensorSharding sharding{"mesh", {Dim({AxisRef("w", 1, 2)}), Dim({AxisRef("w", 3, 2)})}};
  EXPECT_THAT(sharding.Validate(mesh), StatusIs(kInvalid, "do not split axis \"w\" compatibly"));
}

TEST_F(TensorShardingTest, RejectsRankMismatchAndNegativePriority) {
  TensorSharding sharding{"mesh", {Dim({AxisRef("x")})}};
  EXPECT_THAT(sharding.Validate(mesh_, 2), StatusIs(kInvalid, "rank 1 but the tensor has rank 2"));
  TensorSharding negative{"mesh", {DimSharding{{}, true, -1}}};
  EXPECT_THAT(negative.Validate(mesh_), StatusIs(kInvalid, "priority must not be negative"));
}

TEST(LocalShapeTest, DividesEachDimByItsShardsRoundingUp) {
  // ALGORITHMS.md §1.2: x=2, y=4, z=2; f32[4,8] with [{"x"}, {"z","y"}] is f32[2,1] locally.
  Mesh mesh = *Mesh::Create({{"x", 2}, {"y", 4}, {"z", 2}});
  TensorSharding sharding{"mesh", {Dim({AxisRef("x")}), Dim({AxisRef("z"), AxisRef("y")})}};
  EXPECT_THAT(sharding.LocalShape({4, 8}, mesh), ElementsAre(2, 1));
  // Uneven: 5 over 2 pads to 3.
  EXPECT_THAT(sharding.LocalShape({5, 9}, mesh), ElementsAre(3, 2));
}

TEST(TileExtentTest, UnevenSplitsPadTheTrailingTiles) {
  // ALGORITHMS.md §1.1: D=9, n=5 gives [0,2) [2,4) [4,6) [6,8) [8,9).
  EXPECT_EQ(TileExtent(9, 5, 0), (std::pair<int64_t, int64_t>(0, 2)));
  EXPECT_EQ(TileExtent(9, 5, 3), (std::pair<int64_t, int64_t>(6, 8)));
  EXPECT_EQ(TileExtent(9, 5, 4), (std::pair<int64_t, int64_t>(8, 9)));
  // D=5, n=4: [4,5) then [5,5), a tile that is all padding.
  EXPECT_EQ(TileExtent(5, 4, 2), (std::pair<int64_t, int64_t>(4, 5)));
  EXPECT_EQ(TileExtent(5, 4, 3), (std::pair<int64_t, int64_t>(5, 5)));
}

}  // namespace
}  // namespace tessel::sharding
