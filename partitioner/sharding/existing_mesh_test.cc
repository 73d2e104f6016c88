// Tests of importing GSPMD shardings onto a mesh the module already has.
#include "partitioner/sharding/existing_mesh.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace tessel::sharding {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

Mesh DataModel() { return *Mesh::Create({{"data", 4}, {"model", 2}}); }

ImportedSharding OnMesh(const std::string& text, int64_t rank, const Mesh& mesh) {
  absl::StatusOr<ImportedSharding> imported =
      HloShardingOnMesh(*HloSharding::Parse(text), rank, "m", mesh);
  EXPECT_TRUE(imported.ok()) << imported.status();
  return imported.ok() ? *imported : ImportedSharding{};
}

TEST(ExistingMeshTest, TiledShardingsTakeTheMeshAxes) {
  ImportedSharding rows = OnMesh("{devices=[4,2]<=[8]}", 2, DataModel());
  EXPECT_EQ(rows.sharding.ToString(), R"(<@m, [{"data"}, {"model"}]>)");
  EXPECT_TRUE(rows.manual_axes.empty());
  // [4,2] transposed: tile dim 0 (size 2) is the minor axis.
  ImportedSharding model = OnMesh(
      "{devices=[2,1,4]<=[4,2]T(1,0) last_tile_dim_replicate}", 2, DataModel());
  EXPECT_EQ(model.sharding.ToString(), R"(<@m, [{"model"}, {}]>)");
}

TEST(ExistingMeshTest, ManualShardingsNameManualAxes) {
  EXPECT_THAT(OnMesh("{manual}", 2, DataModel()).manual_axes, ElementsAre("data", "model"));
  ImportedSharding partial =
      OnMesh("{devices=[1,1,4,2]<=[8] last_tile_dims={manual, replicated}}", 2, DataModel());
  EXPECT_THAT(partial.manual_axes, ElementsAre("data"));
  EXPECT_EQ(partial.sharding.ToString(), R"(<@m, [{}, {}]>)");
}

TEST(ExistingMeshTest, SizeOneAxesAreKept) {
  Mesh mesh = *Mesh::Create({{"a", 1}, {"b", 8}});
  EXPECT_EQ(OnMesh("{devices=[8,1]<=[8]}", 2, mesh).sharding.ToString(), R"(<@m, [{"b"}, {}]>)");
}

TEST(ExistingMeshTest, RefusesShardingsTheMeshCannotExpress) {
  // 2x4 cuts the device order after 2 devices; the 4x2 mesh cuts it after 4 only.
  absl::StatusOr<ImportedSharding> finer =
      HloShardingOnMesh(*HloSharding::Parse("{devices=[2,4]<=[8]}"), 2, "m", DataModel());
  ASSERT_FALSE(finer.ok());
  EXPECT_THAT(finer.status().message(), HasSubstr("no axis boundary"));
  EXPECT_FALSE(HloShardingOnMesh(*HloSharding::Parse("{devices=[4]<=[4]}"), 1, "m", DataModel())
                   .ok());
  EXPECT_FALSE(HloShardingOnMesh(*HloSharding::Parse("{devices=[4,2]<=[8]}"), 3, "m", DataModel())
                   .ok());
  EXPECT_FALSE(HloShardingOnMesh(*HloSharding::Parse("{maximal device=1}"), 2, "m", DataModel())
                   .ok());
  Mesh permuted = *Mesh::Create({{"x", 2}}, {1, 0});
  EXPECT_FALSE(HloShardingOnMesh(HloSharding::Replicated(), 1, "m", permuted).ok());
}

TEST(ExistingMeshTest, AdoptsOnlyAnEqualMainMesh) {
  MeshShardingImport imported =
      *HloShardingsToMesh({MeshAsLeaf(DataModel()),
                           HloShardingLeaf{*HloSharding::Parse("{devices=[4,1,2]<=[8] "
                                                               "last_tile_dim_replicate}"),
                                           2}},
                          8);
  ASSERT_TRUE(AdoptMesh("m", DataModel(), imported));
  EXPECT_EQ(imported.meshes[0].name, "m");
  EXPECT_EQ(imported.shardings[1].sharding.ToString(), R"(<@m, [{"data"}, {}]>)");
  MeshShardingImport other = *HloShardingToMesh(*HloSharding::Parse("{devices=[2,4]<=[8]}"), 2, 8);
  EXPECT_FALSE(AdoptMesh("m", DataModel(), other));
  EXPECT_EQ(other.meshes[0].name, "mesh");
}

TEST(ExistingMeshTest, DeviceGroupsBecomeAFactorableSharding) {
  // Devices 0 and 2 differ along the middle of three axes of size 2.
  std::optional<HloSharding> middle = DeviceGroupsAsSharding({{0, 2}, {1, 3}, {4, 6}, {5, 7}}, 8);
  ASSERT_TRUE(middle.has_value());
  EXPECT_EQ(middle->ToString(), "{devices=[4,2]<=[2,2,2]T(0,2,1) last_tile_dim_replicate}");
  MeshShardingImport imported = *HloShardingToMesh(*middle, 1, 8);
  ASSERT_EQ(imported.meshes.size(), 1u);
  EXPECT_THAT(imported.meshes[0].mesh.axes,
              ElementsAre(MeshAxis{"axis_0", 2}, MeshAxis{"axis_1", 2}, MeshAxis{"axis_2", 2}));
  // Rows and columns of a 3x2 mesh; listed in any order.
  EXPECT_EQ(DeviceGroupsAsSharding({{4, 5}, {0, 1}, {2, 3}}, 6)->ToString(),
            "{devices=[3,2]<=[6] last_tile_dim_replicate}");
  EXPECT_EQ(DeviceGroupsAsSharding({{1, 3, 5}, {0, 2, 4}}, 6)->ToString(),
            "{devices=[2,3]<=[3,2]T(1,0) last_tile_dim_replicate}");
  // Two axes that are not adjacent: {0, 1, 4, 5}.
  EXPECT_TRUE(DeviceGroupsAsSharding({{0, 1, 4, 5}, {2, 3, 6, 7}}, 8).has_value());
}

TEST(ExistingMeshTest, DeviceGroupsOfNoAxesHaveNoSharding) {
  EXPECT_FALSE(DeviceGroupsAsSharding({{0, 3}, {1, 2}}, 4).has_value());
  EXPECT_FALSE(DeviceGroupsAsSharding({{0, 1}, {2}}, 3).has_value());
  EXPECT_FALSE(DeviceGroupsAsSharding({{0, 1}, {1, 2}}, 4).has_value());
  EXPECT_FALSE(DeviceGroupsAsSharding({{0, 1}, {2, 7}}, 4).has_value());
  EXPECT_FALSE(DeviceGroupsAsSharding({}, 4).has_value());
}

}  // namespace
}  // namespace tessel::sharding
