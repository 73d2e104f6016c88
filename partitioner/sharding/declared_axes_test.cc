// Tests of naming imported axes after the mesh a frontend declared.
#include "partitioner/sharding/declared_axes.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace tessel::sharding {
namespace {

using ::testing::ElementsAre;

MeshShardingImport Imported(std::vector<MeshAxis> axes, std::vector<TensorSharding> shardings) {
  MeshShardingImport imported;
  Mesh mesh;
  mesh.axes = std::move(axes);
  imported.meshes.push_back({"mesh", mesh});
  for (TensorSharding& sharding : shardings) {
    imported.shardings.push_back({std::move(sharding), {}});
  }
  return imported;
}

TensorSharding On(std::vector<std::vector<std::string>> dims) {
  TensorSharding sharding;
  sharding.mesh_name = "mesh";
  for (const auto& axes : dims) {
    DimSharding dim;
    for (const std::string& axis : axes) dim.axes.push_back(AxisRef(axis));
    sharding.dims.push_back(dim);
  }
  return sharding;
}

TEST(DeclaredAxesTest, ParsesShardyMeshes) {
  absl::StatusOr<std::vector<DeclaredMesh>> meshes = ParseShardyMeshes(
      R"({mesh = #sdy.mesh<["data"=4, "model"=2]>, other = #sdy.mesh<["x"=2], device_ids=[1, 0]>, empty = #sdy.mesh<[]>})");
  ASSERT_TRUE(meshes.ok()) << meshes.status();
  ASSERT_EQ(meshes->size(), 3u);
  EXPECT_EQ((*meshes)[0].name, "mesh");
  EXPECT_THAT((*meshes)[0].mesh.axes, ElementsAre(MeshAxis{"data", 4}, MeshAxis{"model", 2}));
  EXPECT_THAT((*meshes)[1].mesh.device_ids, ElementsAre(1, 0));
  EXPECT_TRUE((*meshes)[2].mesh.axes.empty());
  // The escaped form the HLO exporter writes reads the same.
  absl::StatusOr<std::vector<DeclaredMesh>> escaped =
      ParseShardyMeshes(R"({mesh = #sdy.mesh<[\"data\"=4]>})");
  ASSERT_TRUE(escaped.ok());
  EXPECT_THAT((*escaped)[0].mesh.axes, ElementsAre(MeshAxis{"data", 4}));
  EXPECT_FALSE(ParseShardyMeshes("{mesh = 3}").ok());
  EXPECT_FALSE(ParseShardyMeshes(R"({m = #sdy.mesh<["a"=x]>})").ok());
}

TEST(DeclaredAxesTest, RefusesWhatIsNotAMeshAndLeavesSizesToValidate) {
  // A mesh the pattern does not match is not skipped over.
  EXPECT_FALSE(ParseShardyMeshes(R"({mesh = #sdy.mesh<["x"=2]>, other = #sdy.mesh<"y"=2>})").ok());
  EXPECT_FALSE(ParseShardyMeshes(R"({mesh = #sdy.mesh<["x"]>})").ok());
  // A size below 1 is read as written, for Mesh::Validate to name.
  absl::StatusOr<std::vector<DeclaredMesh>> negative =
      ParseShardyMeshes(R"({mesh = #sdy.mesh<["x"=-2]>})");
  ASSERT_TRUE(negative.ok()) << negative.status();
  EXPECT_FALSE((*negative)[0].mesh.Validate().ok());
}

TEST(DeclaredAxesTest, RenamesAxesThatLineUp) {
  std::vector<DeclaredMesh> declared = *ParseShardyMeshes(R"({mesh = #sdy.mesh<["data"=4, "model"=2]>})");
  MeshShardingImport imported =
      Imported({{"axis_0", 4}, {"axis_1", 2}}, {On({{"axis_0"}, {}}), On({{}, {"axis_1"}})});
  ASSERT_TRUE(NameAxesAsDeclared(declared, imported));
  EXPECT_THAT(imported.meshes[0].mesh.axes,
              ElementsAre(MeshAxis{"data", 4}, MeshAxis{"model", 2}));
  EXPECT_EQ(imported.shardings[0].sharding, On({{"data"}, {}}));
  EXPECT_EQ(imported.shardings[1].sharding, On({{}, {"model"}}));
}

TEST(DeclaredAxesTest, MergesAxesUsedTogether) {
  std::vector<DeclaredMesh> declared = *ParseShardyMeshes(R"({mesh = #sdy.mesh<["data"=4, "model"=2]>})");
  MeshShardingImport imported = Imported({{"axis_0", 2}, {"axis_1", 2}, {"axis_2", 2}},
                                         {On({{"axis_0", "axis_1"}, {"axis_2"}})});
  ASSERT_TRUE(NameAxesAsDeclared(declared, imported));
  EXPECT_EQ(imported.shardings[0].sharding, On({{"data"}, {"model"}}));
}

TEST(DeclaredAxesTest, KeepsImportedNamesWhenTheyDoNotLineUp) {
  std::vector<DeclaredMesh> declared = *ParseShardyMeshes(R"({mesh = #sdy.mesh<["data"=4, "model"=2]>})");
  // Half of "data" alone would need a sub-axis.
  MeshShardingImport half = Imported({{"axis_0", 2}, {"axis_1", 2}, {"axis_2", 2}},
                                     {On({{"axis_0"}, {"axis_2"}})});
  EXPECT_FALSE(NameAxesAsDeclared(declared, half));
  EXPECT_EQ(half.meshes[0].mesh.axes[0].name, "axis_0");
  // Another shape, another order, devices in another order.
  MeshShardingImport other = Imported({{"axis_0", 2}, {"axis_1", 4}}, {On({{"axis_0"}})});
  EXPECT_FALSE(NameAxesAsDeclared(declared, other));
  std::vector<DeclaredMesh> permuted =
      *ParseShardyMeshes(R"({mesh = #sdy.mesh<["data"=4, "model"=2], device_ids=[7,6,5,4,3,2,1,0]>})");
  MeshShardingImport lined = Imported({{"axis_0", 4}, {"axis_1", 2}}, {On({{"axis_0"}})});
  EXPECT_FALSE(NameAxesAsDeclared(permuted, lined));
}

}  // namespace
}  // namespace tessel::sharding
