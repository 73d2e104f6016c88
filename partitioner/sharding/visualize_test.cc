// Tests of the tile views and pictures of shardings: even and uneven splits, 2-D meshes,
// partial replication, sub-axes, partial sums, empty tiles, explicit device ids, elision of
// wide grids and the JSON form.
#include "partitioner/sharding/visualize.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "support/status_matchers.h"

namespace tessel::sharding {
namespace {

using ::testing::HasSubstr;
using ::tessel::testing::IsOk;
using ::tessel::testing::StatusIs;

Mesh MakeMesh(std::vector<MeshAxis> axes, std::vector<int64_t> device_ids = {}) {
  absl::StatusOr<Mesh> mesh = Mesh::Create(std::move(axes), std::move(device_ids));
  EXPECT_THAT(mesh, IsOk());
  return *mesh;
}

DimSharding Split(std::vector<AxisRef> axes) { return DimSharding(std::move(axes)); }

std::string Render(const Mesh& mesh, const TensorSharding& sharding,
                   const std::vector<int64_t>& shape, int width = 80) {
  absl::StatusOr<ShardingView> view = ViewSharding(mesh, sharding, shape);
  EXPECT_THAT(view, IsOk());
  return view.ok() ? RenderShardingView(*view, width) : "";
}

// The index ranges of each device's tile, "device: [b:e, b:e]".
std::vector<std::string> Ranges(const ShardingView& view) {
  std::vector<std::string> out;
  for (const DeviceView& device : DeviceViews(view)) {
    std::string text = std::to_string(device.device) + ":";
    for (const IndexRange& range : device.ranges) {
      text += " " + std::to_string(range.begin) + ":" + std::to_string(range.end);
    }
    out.push_back(text);
  }
  return out;
}

TEST(VisualizeTest, OneDimensionEven) {
  Mesh mesh = MakeMesh({{"x", 4}});
  EXPECT_EQ(Render(mesh, {"m", {Split({AxisRef("x")})}}, {16}),
            "dim 0: 16 over \"x\" (4 pieces of 4)\n"
            "+------------------+------------------+------------------+------------------+\n"
            "|        0         |        1         |        2         |        3         |\n"
            "|      [0:4]       |      [4:8]       |      [8:12]      |     [12:16]      |\n"
            "+------------------+------------------+------------------+------------------+\n");
}

TEST(VisualizeTest, OneDimensionUnevenShowsTheShortPiece) {
  Mesh mesh = MakeMesh({{"x", 4}});
  // ceil(14 / 4) = 4: the last device holds [12:14] and two rows of padding; its cell is
  // about half as wide as the others.
  EXPECT_EQ(Render(mesh, {"m", {Split({AxisRef("x")})}}, {14}),
            "dim 0: 14 over \"x\" (4 pieces of 4; [12:14] holds 2 of 4 elements, padded)\n"
            "+---------------------+---------------------+---------------------+----------+\n"
            "|          0          |          1          |          2          |    3     |\n"
            "|        [0:4]        |        [4:8]        |       [8:12]        | [12:14]  |\n"
            "+---------------------+---------------------+---------------------+----------+\n");
}

TEST(VisualizeTest, TwoDimensionsOnTwoByTwo) {
  Mesh mesh = MakeMesh({{"x", 2}, {"y", 2}});
  EXPECT_EQ(Render(mesh, {"m", {Split({AxisRef("x")}), Split({AxisRef("y")})}}, {8, 16}),
            "dim 0: 8 over \"x\" (2 pieces of 4)\n"
            "dim 1: 16 over \"y\" (2 pieces of 8)\n"
            "+------------------+------------------+\n"
            "|        0         |        1         |\n"
            "|    [0:4, 0:8]    |   [0:4, 8:16]    |\n"
            "+------------------+------------------+\n"
            "|        2         |        3         |\n"
            "|    [4:8, 0:8]    |   [4:8, 8:16]    |\n"
            "+------------------+------------------+\n");
}

TEST(VisualizeTest, TwoDimensionsOnTwoByThreeUneven) {
  Mesh mesh = MakeMesh({{"x", 2}, {"y", 3}});
  EXPECT_EQ(Render(mesh, {"m", {Split({AxisRef("x")}), Split({AxisRef("y")})}}, {4, 7}),
            "dim 0: 4 over \"x\" (2 pieces of 2)\n"
            "dim 1: 7 over \"y\" (3 pieces of 3; [6:7] holds 1 of 3 columns, padded)\n"
            "+----------------------+----------------------+------------+\n"
            "|          0           |          1           |     2      |\n"
            "|      [0:2, 0:3]      |      [0:2, 3:6]      | [0:2, 6:7] |\n"
            "+----------------------+----------------------+------------+\n"
            "|          3           |          4           |     5      |\n"
            "|      [2:4, 0:3]      |      [2:4, 3:6]      | [2:4, 6:7] |\n"
            "+----------------------+----------------------+------------+\n");
}

TEST(VisualizeTest, TransposedAxesSwapTheDevices) {
  // Rows over "y" and columns over "x": device 1 (x=0, y=1) holds the second row block.
  Mesh mesh = MakeMesh({{"x", 2}, {"y", 2}});
  absl::StatusOr<ShardingView> view =
      ViewSharding(mesh, {"m", {Split({AxisRef("y")}), Split({AxisRef("x")})}}, {4, 4});
  ASSERT_THAT(view, IsOk());
  EXPECT_THAT(Ranges(*view), ::testing::ElementsAre("0: 0:2 0:2", "1: 2:4 0:2", "2: 0:2 2:4",
                                                    "3: 2:4 2:4"));
}

TEST(VisualizeTest, PartialReplicationListsEveryHolder) {
  Mesh mesh = MakeMesh({{"data", 4}, {"model", 2}});
  EXPECT_EQ(Render(mesh, {"m", {Split({AxisRef("data")}), DimSharding()}}, {16, 64}),
            "dim 0: 16 over \"data\" (4 pieces of 4)\n"
            "dim 1: 64, whole\n"
            "+------------------+\n"
            "|       0,1        |\n"
            "|   [0:4, 0:64]    |\n"
            "+------------------+\n"
            "|       2,3        |\n"
            "|   [4:8, 0:64]    |\n"
            "+------------------+\n"
            "|       4,5        |\n"
            "|   [8:12, 0:64]   |\n"
            "+------------------+\n"
            "|       6,7        |\n"
            "|  [12:16, 0:64]   |\n"
            "+------------------+\n"
            "each tile is held by 2 devices\n");
}

TEST(VisualizeTest, MajorSubAxis) {
  Mesh mesh = MakeMesh({{"x", 8}});
  EXPECT_EQ(Render(mesh, {"m", {Split({AxisRef("x", 1, 2)})}}, {8}),
            "dim 0: 8 over \"x\":(1)2 (2 pieces of 4)\n"
            "+------------------+------------------+\n"
            "|       0-3        |       4-7        |\n"
            "|      [0:4]       |      [4:8]       |\n"
            "+------------------+------------------+\n"
            "each tile is held by 4 devices\n");
}

TEST(VisualizeTest, MinorSubAxisInterleavesDevices) {
  // "x":(2)4 of x=8 is the minor factor 4 of [2, 4]: device d holds piece d % 4.
  Mesh mesh = MakeMesh({{"x", 8}});
  EXPECT_EQ(Render(mesh, {"m", {Split({AxisRef("x", 2, 4)})}}, {8}),
            "dim 0: 8 over \"x\":(2)4 (4 pieces of 2)\n"
            "+------------------+------------------+------------------+------------------+\n"
            "|       0,4        |       1,5        |       2,6        |       3,7        |\n"
            "|      [0:2]       |      [2:4]       |      [4:6]       |      [6:8]       |\n"
            "+------------------+------------------+------------------+------------------+\n"
            "each tile is held by 2 devices\n");
}

TEST(VisualizeTest, UnreducedAxesGetANoteAndGroups) {
  Mesh mesh = MakeMesh({{"x", 2}, {"y", 2}});
  TensorSharding sharding("m", {Split({AxisRef("x")})}, {}, {AxisRef("y")});
  EXPECT_EQ(Render(mesh, sharding, {8}),
            "dim 0: 8 over \"x\" (2 pieces of 4)\n"
            "+------------------+------------------+\n"
            "|       0,1        |       2,3        |\n"
            "|      [0:4]       |      [4:8]       |\n"
            "+------------------+------------------+\n"
            "each tile is held by 2 devices\n"
            "partial sums over \"y\": the holders of a tile add up to its value\n");
  absl::StatusOr<ShardingView> view = ViewSharding(mesh, sharding, {8});
  ASSERT_THAT(view, IsOk());
  std::vector<int64_t> groups;
  for (const DeviceView& device : DeviceViews(*view)) groups.push_back(device.partial_sum_group);
  EXPECT_THAT(groups, ::testing::ElementsAre(0, 1, 0, 1));
}

TEST(VisualizeTest, UnreducedScalarIsWholeEverywhere) {
  Mesh mesh = MakeMesh({{"x", 4}});
  EXPECT_EQ(Render(mesh, {"m", {}, {}, {AxisRef("x")}}, {}),
            "whole on all 4 devices\n"
            "partial sums over \"x\": the holders of a tile add up to its value\n");
}

TEST(VisualizeTest, MoreDevicesThanRowsLeavesEmptyTiles) {
  Mesh mesh = MakeMesh({{"x", 8}});
  // ceil(5 / 8) = 1 row each: devices 5-7 hold only padding. Eight rows fit the grid.
  EXPECT_EQ(Render(mesh, {"m", {Split({AxisRef("x")}), DimSharding()}}, {5, 3}),
            "dim 0: 5 over \"x\" (8 pieces of 1; pieces 5-7 are empty, all padding)\n"
            "dim 1: 3, whole\n"
            "+------------------+\n"
            "|        0         |\n"
            "|    [0:1, 0:3]    |\n"
            "+------------------+\n"
            "|        1         |\n"
            "|    [1:2, 0:3]    |\n"
            "+------------------+\n"
            "|        2         |\n"
            "|    [2:3, 0:3]    |\n"
            "+------------------+\n"
            "|        3         |\n"
            "|    [3:4, 0:3]    |\n"
            "+------------------+\n"
            "|        4         |\n"
            "|    [4:5, 0:3]    |\n"
            "+------------------+\n"
            "|        5         |\n"
            "| [5:5, 0:3] empty |\n"
            "+------------------+\n"
            "|        6         |\n"
            "| [5:5, 0:3] empty |\n"
            "+------------------+\n"
            "|        7         |\n"
            "| [5:5, 0:3] empty |\n"
            "+------------------+\n"
            "devices 5-7 hold an empty tile (padding only)\n");
}

TEST(VisualizeTest, LongDeviceListsShowTheirEndsAndCount) {
  // Tile j of a split over "y" is held by devices j, j+2, ..., j+8: five runs of one id.
  Mesh mesh = MakeMesh({{"x", 5}, {"y", 2}});
  EXPECT_EQ(Render(mesh, {"m", {Split({AxisRef("y")})}}, {8}),
            "dim 0: 8 over \"y\" (2 pieces of 4)\n"
            "+-------------------------+-------------------------+\n"
            "| 0,2,4,...,8 (5 devices) | 1,3,5,...,9 (5 devices) |\n"
            "|          [0:4]          |          [4:8]          |\n"
            "+-------------------------+-------------------------+\n"
            "each tile is held by 5 devices\n");
  // The holders of empty tiles in the note are shortened alike ("2,3" is one run); four
  // runs are shown whole.
  Mesh wide = MakeMesh({{"x", 6}, {"y", 4}});
  std::string text = Render(wide, {"m", {Split({AxisRef("y")})}}, {2});
  EXPECT_THAT(text, HasSubstr("devices 2,3,6,7,10,11,...,22,23 (12 devices) hold an empty tile"));
  EXPECT_THAT(text, HasSubstr("| 0,4,8,...,20 (6 devices) | ... | 3,7,11,...,23 (6 devices) |"));
  Mesh four = MakeMesh({{"x", 4}, {"y", 2}});
  EXPECT_THAT(Render(four, {"m", {Split({AxisRef("y")})}}, {2}), HasSubstr("|     0,2,4,6      |"));
}

TEST(VisualizeTest, MillionDeviceMeshStaysNarrow) {
  // 2^20 devices, 1024 tiles of 1024 strided holders each, most of them empty: every list
  // is shortened, so no line grows with the number of devices (the grid is wider than 80
  // columns only because two labels need it).
  Mesh mesh = MakeMesh({{"x", 1024}, {"y", 1024}});
  absl::StatusOr<ShardingView> view = ViewSharding(mesh, {"m", {Split({AxisRef("y")})}}, {16});
  ASSERT_THAT(view, IsOk());
  const std::string text = RenderShardingView(*view);
  size_t start = 0;
  while (start < text.size()) {
    const size_t end = text.find('\n', start);
    ASSERT_NE(end, std::string::npos);
    EXPECT_LE(end - start, 120u) << text.substr(start, end - start);
    start = end + 1;
  }
  EXPECT_THAT(text, HasSubstr("| 0,1024,2048,...,1047552 (1024 devices) |"));
  EXPECT_THAT(text, HasSubstr("devices 16-1023,1040-2047,2064-3071,...,1047568-1048575 "
                              "(1032192 devices) hold an empty tile"));
  EXPECT_THAT(text, HasSubstr("each tile is held by 1024 devices"));
}

TEST(VisualizeTest, ReplicatedAndScalar) {
  Mesh mesh = MakeMesh({{"x", 2}, {"y", 2}});
  EXPECT_EQ(Render(mesh, {"m", {}}, {}), "replicated on all 4 devices\n");
  EXPECT_EQ(Render(mesh, {"m", {DimSharding(), DimSharding()}}, {3, 5}),
            "dim 0: 3, whole\ndim 1: 5, whole\nreplicated on all 4 devices\n");
}

TEST(VisualizeTest, RankThreeDrawsTheMostSplitDims) {
  Mesh mesh = MakeMesh({{"x", 2}, {"y", 4}});
  // Dims 1 (4 pieces) and 2 (2 pieces) make the grid; dim 0 is whole and shown as ":".
  EXPECT_EQ(Render(mesh, {"m", {DimSharding(), Split({AxisRef("y")}), Split({AxisRef("x")})}},
                   {3, 8, 4}),
            "dim 0: 3, whole\n"
            "dim 1: 8 over \"y\" (4 pieces of 2)\n"
            "dim 2: 4 over \"x\" (2 pieces of 2)\n"
            "+------------------+------------------+\n"
            "|        0         |        4         |\n"
            "|  [:, 0:2, 0:2]   |  [:, 0:2, 2:4]   |\n"
            "+------------------+------------------+\n"
            "|        1         |        5         |\n"
            "|  [:, 2:4, 0:2]   |  [:, 2:4, 2:4]   |\n"
            "+------------------+------------------+\n"
            "|        2         |        6         |\n"
            "|  [:, 4:6, 0:2]   |  [:, 4:6, 2:4]   |\n"
            "+------------------+------------------+\n"
            "|        3         |        7         |\n"
            "|  [:, 6:8, 0:2]   |  [:, 6:8, 2:4]   |\n"
            "+------------------+------------------+\n");
}

TEST(VisualizeTest, ExplicitDeviceIdsLabelTheCells) {
  // The device at row-major position i has id ids[i]: position 0 (x=0) is device 3.
  Mesh mesh = MakeMesh({{"x", 4}}, {3, 2, 1, 0});
  absl::StatusOr<ShardingView> view = ViewSharding(mesh, {"m", {Split({AxisRef("x")})}}, {8});
  ASSERT_THAT(view, IsOk());
  EXPECT_THAT(Ranges(*view), ::testing::ElementsAre("0: 6:8", "1: 4:6", "2: 2:4", "3: 0:2"));
  EXPECT_THAT(RenderShardingView(*view), HasSubstr("|        3         |        2         |"));
}

TEST(VisualizeTest, WideGridsElideMiddleColumnsWithinTheWidth) {
  Mesh mesh = MakeMesh({{"x", 32}});
  std::string picture = Render(mesh, {"m", {Split({AxisRef("x")})}}, {1024});
  EXPECT_EQ(picture,
            "dim 0: 1024 over \"x\" (32 pieces of 32)\n"
            "+-----------+-----------+-----------+-----------+-----------+-----+------------+\n"
            "|     0     |     1     |     2     |     3     |     4     | ... |     31     |\n"
            "|  [0:32]   |  [32:64]  |  [64:96]  | [96:128]  | [128:160] |     | [992:1024] |\n"
            "+-----------+-----------+-----------+-----------+-----------+-----+------------+\n"
            "pieces 5-30 of dim 0 are not drawn\n");
}

TEST(VisualizeTest, TallGridsElideMiddleRows) {
  Mesh mesh = MakeMesh({{"x", 16}});
  std::string picture = Render(mesh, {"m", {Split({AxisRef("x")}), DimSharding()}}, {16, 2});
  EXPECT_THAT(picture, HasSubstr("|       ...        |\n"
                                 "+------------------+\n"
                                 "|        15        |\n"
                                 "|   [15:16, 0:2]   |\n"));
  EXPECT_THAT(picture, HasSubstr("pieces 6-14 of dim 0 are not drawn\n"));
  EXPECT_THAT(picture, ::testing::Not(HasSubstr("[6:7, 0:2]")));
}

TEST(VisualizeTest, Json) {
  Mesh mesh = MakeMesh({{"x", 2}, {"y", 2}});
  absl::StatusOr<ShardingView> view = ViewSharding(
      mesh, {"m", {Split({AxisRef("x")}), DimSharding()}, {}, {AxisRef("y")}}, {3, 2});
  ASSERT_THAT(view, IsOk());
  EXPECT_EQ(ShardingViewToJson(*view, "  "),
            "{\"dims\": [{\"size\": 3, \"axes\": [\"x\"], \"pieces\": 2, \"piece_size\": 2}, "
            "{\"size\": 2, \"axes\": [], \"pieces\": 1, \"piece_size\": 2}], "
            "\"unreduced\": [\"y\"], \"devices\": [\n"
            "    {\"device\": 0, \"ranges\": [[0, 2], [0, 2]], \"empty\": false, "
            "\"partial_sum_group\": 0},\n"
            "    {\"device\": 1, \"ranges\": [[0, 2], [0, 2]], \"empty\": false, "
            "\"partial_sum_group\": 1},\n"
            "    {\"device\": 2, \"ranges\": [[2, 3], [0, 2]], \"empty\": false, "
            "\"partial_sum_group\": 0},\n"
            "    {\"device\": 3, \"ranges\": [[2, 3], [0, 2]], \"empty\": false, "
            "\"partial_sum_group\": 1}\n"
            "  ]}");
}

TEST(VisualizeTest, JsonNamesSubAxes) {
  Mesh mesh = MakeMesh({{"x", 4}});
  absl::StatusOr<ShardingView> view = ViewSharding(mesh, {"m", {Split({AxisRef("x", 1, 2)})}}, {4});
  ASSERT_THAT(view, IsOk());
  EXPECT_THAT(ShardingViewToJson(*view, ""), HasSubstr("\"axes\": [\"x:(1)2\"]"));
}

TEST(VisualizeTest, Errors) {
  Mesh mesh = MakeMesh({{"x", 2}});
  EXPECT_THAT(ViewSharding(mesh, {"m", {Split({AxisRef("x")})}}, {4, 4}),
              StatusIs(absl::StatusCode::kInvalidArgument, "rank"));
  EXPECT_THAT(ViewSharding(mesh, {"m", {Split({AxisRef("z")})}}, {4}),
              StatusIs(absl::StatusCode::kInvalidArgument, "\"z\""));
  EXPECT_THAT(ViewSharding(mesh, {"m", {Split({AxisRef("x")})}}, {-1}),
              StatusIs(absl::StatusCode::kInvalidArgument, "dimension 0 has no static size"));
}

TEST(VisualizeTest, FormatDeviceList) {
  EXPECT_EQ(FormatDeviceList({}), "");
  EXPECT_EQ(FormatDeviceList({5}), "5");
  EXPECT_EQ(FormatDeviceList({0, 1}), "0,1");
  EXPECT_EQ(FormatDeviceList({0, 1, 2, 3, 6}), "0-3,6");
  EXPECT_EQ(FormatDeviceList({0, 2, 4, 5, 6}), "0,2,4-6");
}

// Halos are drawn as given (the tools work them out): neighbouring pieces with the same
// halo share a line, pieces with none are left out, a dimension where none needs any says
// so, and a use that reshards first is one note.
TEST(VisualizeTest, HaloNotesGroupRunsOfPieces) {
  Mesh mesh = MakeMesh({{"x", 4}});
  absl::StatusOr<ShardingView> view =
      ViewSharding(mesh, {"m", {Split({AxisRef("x")}), DimSharding()}}, {16, 3});
  ASSERT_THAT(view, IsOk());
  view->halos.push_back({"hlo.reduce_window at f.mlir:3:8", {{0, {0, 1, 1, 1}, {1, 1, 1, 0}}}, ""});
  view->halos.push_back({"hlo.convolution at f.mlir:4:8", {{0, {0, 0, 0, 0}, {0, 0, 0, 0}}}, ""});
  view->halos.push_back({"hlo.reduce_window at f.mlir:5:8", {}, "split otherwise"});
  const std::string text = RenderShardingView(*view);
  EXPECT_THAT(text, HasSubstr(
      "used by hlo.reduce_window at f.mlir:3:8 with halos from neighbouring tiles:\n"
      "  piece 0 [0:4]: halo: 0 low, 1 high on dim 0\n"
      "  pieces 1-2 [4:12]: halo: 1 low, 1 high on dim 0\n"
      "  piece 3 [12:16]: halo: 1 low, 0 high on dim 0\n"
      "used by hlo.convolution at f.mlir:4:8 with halos from neighbouring tiles:\n"
      "  no halo on dim 0: every window stays inside its piece\n"
      "used by hlo.reduce_window at f.mlir:5:8: split otherwise\n"));
  const std::string json = ShardingViewToJson(*view, "");
  EXPECT_THAT(json, HasSubstr("{\"piece\": 1, \"range\": [4, 8], \"low\": 1, \"high\": 1}"));
  EXPECT_THAT(json, HasSubstr("{\"user\": \"hlo.reduce_window at f.mlir:5:8\", \"note\": "
                              "\"split otherwise\", \"dims\": []}"));
}

}  // namespace
}  // namespace tessel::sharding
