// Tests of the conversions between the mesh and GSPMD forms: every worked example of
// ALGORITHMS.md §1, the module-level mesh finder and its fallbacks. Round trips over
// generated inputs are in conversion_round_trip_test.cc.
#include "partitioner/sharding/conversion.h"

#include <set>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "partitioner/sharding/device_tile_map.h"
#include "support/status_matchers.h"

namespace tessel::sharding {
namespace {

using ::tessel::testing::IsOk;
using ::tessel::testing::StatusIs;
using ::testing::ElementsAre;

constexpr auto kInvalid = absl::StatusCode::kInvalidArgument;

DimSharding Dim(std::vector<AxisRef> axes) { return DimSharding{std::move(axes)}; }

std::string ToHloText(const Mesh& mesh, const TensorSharding& sharding,
                      const std::vector<std::string>& manual_axes = {}) {
  absl::StatusOr<HloSharding> hlo = MeshShardingToHlo(mesh, sharding, manual_axes);
  return hlo.ok() ? hlo->ToString() : std::string(hlo.status().message());
}

class MeshToHloTest : public ::testing::Test {
 protected:
  Mesh mesh_ = *Mesh::Create({{"x", 2}, {"y", 4}});  // ALGORITHMS.md §1.3
};

TEST_F(MeshToHloTest, TransposedAxesGiveTransposedIota) {
  EXPECT_EQ(ToHloText(mesh_, {"mesh", {Dim({AxisRef("y")}), Dim({AxisRef("x")})}}),
            "{devices=[4,2]<=[2,4]T(1,0)}");
}

TEST_F(MeshToHloTest, UnusedAxesBecomeTheReplicatedTrailingDim) {
  EXPECT_EQ(ToHloText(mesh_, {"mesh", {Dim({AxisRef("x")}), Dim({})}}),
            "{devices=[2,1,4]<=[8] last_tile_dim_replicate}");
}

TEST_F(MeshToHloTest, SubAxesSplitTheAxisIntoPieces) {
  // Axes x, y:(1)2, y:(2)2 with perm (2,0,1), canonicalized to <=[4,2]T(1,0).
  TensorSharding sharding{"mesh", {Dim({AxisRef("y", 2, 2)}), Dim({AxisRef("x")})}};
  HloSharding hlo = *MeshShardingToHlo(mesh_, sharding);
  EXPECT_EQ(hlo.ToString(), "{devices=[2,2,2]<=[4,2]T(1,0) last_tile_dim_replicate}");
  // Device 4x + 2y1 + y2 owns tile (y2, x), replicated over y1.
  DeviceTileMap map = *DeviceTileMapOf(hlo, 2, 8);
  for (int64_t x = 0; x < 2; ++x) {
    for (int64_t y1 = 0; y1 < 2; ++y1) {
      for (int64_t y2 = 0; y2 < 2; ++y2) {
        EXPECT_THAT(map.at(4 * x + 2 * y1 + y2).tile, ElementsAre(y2, x));
      }
    }
  }
}

TEST_F(MeshToHloTest, ManualAxesComeBeforeReplicatedOnes) {
  Mesh mesh = *Mesh::Create({{"x", 2}, {"y", 2}, {"z", 2}});
  EXPECT_EQ(ToHloText(mesh, {"mesh", {Dim({AxisRef("y")})}}, {"x"}),
            "{devices=[2,2,2]<=[2,2,2]T(1,0,2) last_tile_dims={manual, replicated}}");
}

TEST_F(MeshToHloTest, AllAxesManualIsManual) {
  EXPECT_EQ(ToHloText(mesh_, {"mesh", {Dim({}), Dim({})}}, {"x", "y"}), "{manual}");
}

TEST_F(MeshToHloTest, UnreducedAxesBecomeAnUnreducedTrailingDim) {
  EXPECT_EQ(ToHloText(mesh_, {"mesh", {Dim({AxisRef("x")})}, {}, {AxisRef("y")}}),
            "{devices=[2,4]<=[8] last_tile_dims={unreduced}}");
  EXPECT_EQ(ToHloText(mesh_, {"mesh", {Dim({})}, {}, {AxisRef("x"), AxisRef("y")}}), "{unreduced}");
}

TEST_F(MeshToHloTest, NoAxesIsReplicatedOrMaximal) {
  EXPECT_EQ(ToHloText(*Mesh::Create({}), {"mesh", {Dim({})}}), "{replicated}");
  EXPECT_EQ(ToHloText(*Mesh::Create({}, {3}), {"mesh", {Dim({})}}), "{maximal device=3}");
  EXPECT_EQ(ToHloText(mesh_, {"mesh", {Dim({}), Dim({})}}), "{replicated}");
  // Axes of size 1 hold no devices to tell apart.
  EXPECT_EQ(ToHloText(*Mesh::Create({{"x", 1}}), {"mesh", {Dim({AxisRef("x")})}}), "{replicated}");
}

TEST_F(MeshToHloTest, ExplicitDeviceIdsGiveADeviceList) {
  // The iota [[0,2],[1,3]] read through ids [3,2,1,0].
  Mesh mesh = *Mesh::Create({{"x", 2}, {"y", 2}}, {3, 2, 1, 0});
  EXPECT_EQ(ToHloText(mesh, {"mesh", {Dim({AxisRef("y")}), Dim({AxisRef("x")})}}),
            "{devices=[2,2]3,1,2,0}");
}

TEST_F(MeshToHloTest, RejectsInvalidInput) {
  EXPECT_THAT(MeshShardingToHlo(mesh_, {"mesh", {Dim({AxisRef("z")})}}),
              StatusIs(kInvalid, "axis \"z\" is not in the mesh"));
  EXPECT_THAT(MeshShardingToHlo(mesh_, {"mesh", {Dim({})}}, {"w"}),
              StatusIs(kInvalid, "manual axis \"w\" is not in the mesh"));
  EXPECT_THAT(MeshShardingToHlo(mesh_, {"mesh", {Dim({})}}, {"x", "x"}),
              StatusIs(kInvalid, "manual axis \"x\" is listed twice"));
  EXPECT_THAT(MeshShardingToHlo(mesh_, {"mesh", {Dim({AxisRef("y", 1, 2)})}}, {"y"}),
              StatusIs(kInvalid, "manual axis \"y\" is also used by the sharding"));
}

TEST(SubAxisTest, SubAxesDescribeASplitAxisAfterAReshape) {
  // ALGORITHMS.md §1.2: f32[8] [{"x"}] (x=4) reshaped to f32[2,4] is
  // [{"x":(1)2}, {"x":(2)2}]: every device holds the same elements before and after.
  Mesh mesh = *Mesh::Create({{"x", 4}});
  DeviceTileMap flat = *DeviceTileMapOf(mesh, {"mesh", {Dim({AxisRef("x")})}});
  DeviceTileMap split =
      *DeviceTileMapOf(mesh, {"mesh", {Dim({AxisRef("x", 1, 2)}), Dim({AxisRef("x", 2, 2)})}});
  for (int64_t device = 0; device < 4; ++device) {
    std::set<int64_t> before, after;
    auto [begin, end] = TileExtent(8, 4, flat.at(device).tile[0]);
    for (int64_t i = begin; i < end; ++i) before.insert(i);
    auto [row_begin, row_end] = TileExtent(2, 2, split.at(device).tile[0]);
    auto [col_begin, col_end] = TileExtent(4, 2, split.at(device).tile[1]);
    for (int64_t r = row_begin; r < row_end; ++r) {
      for (int64_t c = col_begin; c < col_end; ++c) after.insert(r * 4 + c);
    }
    EXPECT_EQ(before, after) << "device " << device;
  }
}

TEST(DeviceTileMapTest, TiledIotaPlacesTilesOnTheWorkedExampleDevices) {
  // ALGORITHMS.md §1.1: f32[16,6] on {devices=[4,2]<=[2,4]T(1,0)}: device 5 owns tile (1,1),
  // rows 4..7 and cols 3..5.
  DeviceTileMap map = *DeviceTileMapOf(*HloSharding::Parse("{devices=[4,2]<=[2,4]T(1,0)}"), 2, 8);
  EXPECT_THAT(map.at(5).tile, ElementsAre(1, 1));
  EXPECT_EQ(TileExtent(16, 4, 1), (std::pair<int64_t, int64_t>(4, 8)));
  EXPECT_EQ(TileExtent(6, 2, 1), (std::pair<int64_t, int64_t>(3, 6)));
}

TEST(DeviceTileMapTest, MaximalHoldsOnlyItsDevice) {
  DeviceTileMap map = *DeviceTileMapOf(*HloSharding::Maximal(3), 1, 8);
  ASSERT_EQ(map.size(), 1u);
  EXPECT_THAT(map.at(3).tile, ElementsAre(0));
}

//===------------------------------------------------------------------------------------===//
// GSPMD → mesh
//===------------------------------------------------------------------------------------===//

class HloToMeshTest : public ::testing::Test {
 protected:
  // Imports one sharding and checks it places data exactly as the original does.
  ImportedSharding ImportOne(absl::string_view text, int64_t rank, int64_t num_devices,
                             Mesh* mesh) {
    HloSharding hlo = *HloSharding::Parse(text);
    absl::StatusOr<MeshShardingImport> imported = HloShardingToMesh(hlo, rank, num_devices);
    EXPECT_THAT(imported, IsOk());
    if (!imported.ok()) return {};
    const ImportedSharding& result = imported->shardings.front();
    *mesh = *imported->FindMesh(result.sharding.mesh_name);
    EXPECT_EQ(*DeviceTileMapOf(*mesh, result.sharding, result.manual_axes),
              *DeviceTileMapOf(hlo, rank, num_devices));
    return result;
  }
};

TEST_F(HloToMeshTest, TransposedIotaGivesTwoAxes) {
  Mesh mesh;
  ImportedSharding imported = ImportOne("{devices=[4,2]<=[2,4]T(1,0)}", 2, 8, &mesh);
  EXPECT_EQ(mesh.ToString(), "<[\"axis_0\"=2, \"axis_1\"=4]>");
  EXPECT_EQ(imported.sharding.ToString(), "<@mesh, [{\"axis_1\"}, {\"axis_0\"}]>");
}

TEST_F(HloToMeshTest, CommonFactorizationSplitsAxes) {
  // Tile dims [4,8] against device shape [8,4] factor as [4,2,4]. The factors in reshape
  // order (reshape dims [4,8]) are 4 (of reshape dim 0), then 4 and 2 (of reshape dim 1).
  Mesh mesh;
  ImportedSharding imported = ImportOne("{devices=[4,8]<=[4,8]T(1,0)}", 2, 32, &mesh);
  EXPECT_EQ(mesh.ToString(), "<[\"axis_0\"=4, \"axis_1\"=4, \"axis_2\"=2]>");
  EXPECT_EQ(imported.sharding.ToString(), "<@mesh, [{\"axis_1\"}, {\"axis_2\", \"axis_0\"}]>");
}

TEST_F(HloToMeshTest, TrailingDimsBecomeManualUnreducedOrNothing) {
  Mesh mesh;
  ImportedSharding imported =
      ImportOne("{devices=[2,1,4,2]<=[16] last_tile_dims={manual, replicated}}", 2, 16, &mesh);
  EXPECT_EQ(imported.sharding.ToString(), "<@mesh, [{\"axis_0\"}, {}]>");
  EXPECT_THAT(imported.manual_axes, ElementsAre("axis_1"));
  imported = ImportOne("{devices=[2,4]<=[8] last_tile_dims={unreduced}}", 1, 8, &mesh);
  EXPECT_EQ(imported.sharding.ToString(), "<@mesh, [{\"axis_0\"}], unreduced={\"axis_1\"}>");
}

TEST_F(HloToMeshTest, WholeKindsUseTheWholeMesh) {
  Mesh mesh;
  EXPECT_EQ(ImportOne("{replicated}", 2, 4, &mesh).sharding.ToString(), "<@mesh, [{}, {}]>");
  EXPECT_EQ(mesh.ToString(), "<[\"axis_0\"=4]>");
  EXPECT_THAT(ImportOne("{manual}", 1, 4, &mesh).manual_axes, ElementsAre("axis_0"));
  EXPECT_EQ(ImportOne("{unreduced}", 0, 4, &mesh).sharding.ToString(),
            "<@mesh, [], unreduced={\"axis_0\"}>");
}

TEST_F(HloToMeshTest, MaximalGetsAMaximalMesh) {
  Mesh mesh;
  ImportedSharding imported = ImportOne("{maximal device=3}", 1, 4, &mesh);
  EXPECT_EQ(imported.sharding.mesh_name, "maximal_mesh_3");
  EXPECT_EQ(mesh.ToString(), "<[], device_ids=[3]>");
}

TEST_F(HloToMeshTest, UnfactorableIotaFallsBackToDeviceIds) {
  // ALGORITHMS.md §1.3: tile dims [2,3] against device shape [3,2] have no common
  // factorization. XLA CHECK-fails here; Tessel lists the devices: the tile array
  // [[0,3,1],[4,2,5]].
  Mesh mesh;
  ImportedSharding imported = ImportOne("{devices=[2,3]<=[2,3]T(1,0)}", 2, 6, &mesh);
  EXPECT_EQ(mesh.ToString(), "<[\"axis_0\"=2, \"axis_1\"=3], device_ids=[0, 3, 1, 4, 2, 5]>");
  EXPECT_EQ(imported.sharding.ToString(), "<@mesh_1, [{\"axis_0\"}, {\"axis_1\"}]>");
}

TEST_F(HloToMeshTest, ArbitraryDeviceListFallsBackToDeviceIds) {
  Mesh mesh;
  ImportedSharding imported =
      ImportOne("{devices=[2,1,2]3,0,1,2 last_tile_dim_replicate}", 2, 4, &mesh);
  // Replica groups are sorted on parse: [[0,3]], [[1,2]].
  EXPECT_EQ(mesh.ToString(), "<[\"axis_0\"=2, \"axis_1\"=2], device_ids=[0, 3, 1, 2]>");
  EXPECT_EQ(imported.sharding.ToString(), "<@mesh_1, [{\"axis_0\"}, {}]>");
}

TEST_F(HloToMeshTest, ArangeDeviceListIsTreatedAsIota) {
  Mesh mesh;
  ImportedSharding imported = ImportOne("{devices=[2,2]0,1,2,3}", 2, 4, &mesh);
  EXPECT_EQ(imported.sharding.mesh_name, "mesh");
  EXPECT_TRUE(mesh.device_ids.empty());
}

TEST(HloShardingsToMeshTest, ShardingsOfAModuleShareOneMesh) {
  // Bounds {1,4,8} and {1,2,8} merge into the chain 1|2|4|8: three axes of 2.
  std::vector<HloShardingLeaf> leaves = {{*HloSharding::Parse("{devices=[4,2]<=[8]}"), 2},
                                         {*HloSharding::Parse("{devices=[2,4]<=[8]}"), 2},
                                         {*HloSharding::Parse("{maximal device=3}"), 1},
                                         {*HloSharding::Parse("{maximal device=3}"), 0},
                                         {HloSharding::Replicated(), 1}};
  MeshShardingImport imported = *HloShardingsToMesh(leaves, 8);
  ASSERT_EQ(imported.meshes.size(), 2u);  // "mesh" and one shared maximal mesh
  EXPECT_EQ(imported.FindMesh("mesh")->ToString(), "<[\"axis_0\"=2, \"axis_1\"=2, \"axis_2\"=2]>");
  EXPECT_EQ(imported.shardings[0].sharding.ToString(),
            "<@mesh, [{\"axis_0\", \"axis_1\"}, {\"axis_2\"}]>");
  EXPECT_EQ(imported.shardings[1].sharding.ToString(),
            "<@mesh, [{\"axis_0\"}, {\"axis_1\", \"axis_2\"}]>");
  EXPECT_EQ(imported.shardings[2].sharding.mesh_name, "maximal_mesh_3");
  EXPECT_EQ(imported.shardings[3].sharding.mesh_name, "maximal_mesh_3");
  EXPECT_EQ(imported.shardings[4].sharding.ToString(), "<@mesh, [{}]>");
}

TEST(HloShardingsToMeshTest, ShardingThatBreaksTheChainGetsItsOwnMesh) {
  // Bounds {1,2,6} and {1,3,6}: 2 does not divide 3, so the second cannot share axes.
  std::vector<HloShardingLeaf> leaves = {{*HloSharding::Parse("{devices=[2,3]<=[6]}"), 2},
                                         {*HloSharding::Parse("{devices=[3,2]<=[6]}"), 2}};
  MeshShardingImport imported = *HloShardingsToMesh(leaves, 6);
  EXPECT_EQ(imported.shardings[0].sharding.mesh_name, "mesh");
  EXPECT_EQ(imported.shardings[1].sharding.mesh_name, "mesh_1");
  EXPECT_EQ(imported.FindMesh("mesh_1")->ToString(), "<[\"axis_0\"=3, \"axis_1\"=2]>");
  for (size_t i = 0; i < leaves.size(); ++i) {
    const ImportedSharding& result = imported.shardings[i];
    EXPECT_EQ(*DeviceTileMapOf(*imported.FindMesh(result.sharding.mesh_name), result.sharding),
              *DeviceTileMapOf(leaves[i].sharding, 2, 6));
  }
}

TEST(HloShardingsToMeshTest, RejectsInconsistentInput) {
  EXPECT_THAT(HloShardingToMesh(*HloSharding::Parse("{devices=[2]<=[2]}"), 2, 2),
              StatusIs(kInvalid, "tiles 1 dims but the array has rank 2"));
  EXPECT_THAT(HloShardingToMesh(*HloSharding::Parse("{devices=[2]<=[2]}"), 1, 4),
              StatusIs(kInvalid, "places 2 devices but the module has 4"));
  EXPECT_THAT(HloShardingToMesh(*HloSharding::Maximal(4), 1, 4),
              StatusIs(kInvalid, "device 4 is out of range [0, 4)"));
  EXPECT_THAT(HloShardingToMesh(*HloSharding::Tuple({}), 1, 4), StatusIs(kInvalid, "is a tuple"));
  EXPECT_THAT(HloShardingToMesh(HloSharding::Replicated(), 1, 0),
              StatusIs(kInvalid, "at least 1, got 0"));
}

}  // namespace
}  // namespace tessel::sharding
