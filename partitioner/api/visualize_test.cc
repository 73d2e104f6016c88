// Tests of ShardingPicture: tiles of even, uneven and empty splits against hand-computed
// ranges, partial sums, and the halos Partition() records for windowed ops' operands.
#include "partitioner/api/visualize.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "partitioner/api/partition.h"
#include "partitioner/api/program.h"
#include "support/status_matchers.h"

namespace tessel {
namespace {

using ::tessel::testing::StatusIs;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using Range = std::pair<int64_t, int64_t>;

std::vector<Range> RangesOfDim(const ShardingPicture& picture, int dim) {
  std::vector<Range> ranges;
  for (const ShardingPicture::Tile& tile : picture.Tiles()) ranges.push_back(tile.ranges[dim]);
  return ranges;
}

TEST(ShardingPictureTest, UnevenSplitPadsTheLastPiece) {
  Mesh mesh = *Mesh::Create({{"data", 4}});
  // 10 over 4: pieces of ceil(10 / 4) = 3, the last holding only index 9.
  absl::StatusOr<ShardingPicture> picture =
      ShardingPicture::Create(*Sharding::Create(mesh, {"data"}), {10});
  ASSERT_TRUE(picture.ok()) << picture.status();
  EXPECT_THAT(RangesOfDim(*picture, 0),
              ElementsAre(Range{0, 3}, Range{3, 6}, Range{6, 9}, Range{9, 10}));
  EXPECT_EQ(picture->dims()[0].piece_size, 3);
  EXPECT_THAT(picture->Text(), HasSubstr("[9:10]"));
  EXPECT_THAT(picture->Text(), ::testing::Not(HasSubstr("\x1b[")));
  EXPECT_THAT(picture->Text(80, /*color=*/true), HasSubstr("\x1b["));
}

TEST(ShardingPictureTest, PieceWhollyInThePaddingIsEmpty) {
  Mesh mesh = *Mesh::Create({{"x", 2}, {"y", 3}});
  // 2 rows over y=3: pieces of 1, the third [2:2); each tile is held by both x devices.
  absl::StatusOr<ShardingPicture> picture =
      ShardingPicture::Create(*Sharding::Create(mesh, {"y", Replicated()}), {2, 5});
  ASSERT_TRUE(picture.ok()) << picture.status();
  std::vector<ShardingPicture::Tile> tiles = picture->Tiles();
  ASSERT_EQ(tiles.size(), 6u);
  // Device 5 is (x=1, y=2).
  EXPECT_TRUE(tiles[5].empty);
  EXPECT_EQ(tiles[5].ranges[0], (Range{2, 2}));
  EXPECT_FALSE(tiles[3].empty);
  EXPECT_THAT(picture->Text(), HasSubstr("empty"));
  EXPECT_THAT(picture->Html("t", "b"), HasSubstr("class=\"tile empty\""));
}

TEST(ShardingPictureTest, UnreducedAxesGivePartialSumGroups) {
  Mesh mesh = *Mesh::Create({{"x", 2}, {"y", 3}});
  absl::StatusOr<Sharding> sharding =
      Sharding::Create(mesh, PartitionSpec{"x"}.WithUnreduced({"y"}));
  ASSERT_TRUE(sharding.ok()) << sharding.status();
  absl::StatusOr<ShardingPicture> picture = ShardingPicture::Create(*sharding, {6});
  ASSERT_TRUE(picture.ok()) << picture.status();
  std::vector<int64_t> groups;
  for (const ShardingPicture::Tile& tile : picture->Tiles()) groups.push_back(tile.partial_sum_group);
  // Devices 0-2 hold summands 0, 1, 2 of [0:3]; devices 3-5 those of [3:6].
  EXPECT_THAT(groups, ElementsAre(0, 1, 2, 0, 1, 2));
  EXPECT_THAT(picture->Text(), HasSubstr("partial sums over \"y\""));
}

TEST(ShardingPictureTest, RankMismatchIsAnError) {
  Mesh mesh = *Mesh::Create({{"data", 4}});
  EXPECT_THAT(ShardingPicture::Create(*Sharding::Create(mesh, {"data"}), {4, 4}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, "rank 2"));
}

TEST(ShardingPictureTest, PartitionRecordsHalosOfWindowedOperands) {
  // A padded max over windows of 3 on 12 elements split 3 ways: output o reads
  // [o - 1, o + 2), so piece i (outputs [4i, 4i + 4)) reads [4i - 1, 4i + 5).
  absl::StatusOr<Program> program = Program::FromMlirText(R"(
tessel.mesh @row = <["r"=3]>
func.func @main(%v: tensor<12xf32> {tessel.sharding = #tessel.sharding<@row, [{"r"}]>},
                %z: tensor<f32>) -> tensor<12xf32> {
  %m = hlo.reduce_window(%v) init(%z) window_dimensions = [3], padding = [[1, 1]]
      : (tensor<12xf32>, tensor<f32>) -> tensor<12xf32> reducer {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = hlo.max %a, %b : tensor<f32>
    hlo.return %s : tensor<f32>
  }
  return %m : tensor<12xf32>
}
)");
  ASSERT_TRUE(program.ok()) << program.status();
  absl::StatusOr<PartitionResult> result = Partition(*program);
  ASSERT_TRUE(result.ok()) << result.status();
  const ShardedValue& v = result->parameters[0];
  ASSERT_EQ(v.halos.size(), 1u);
  EXPECT_THAT(v.halos[0].user, HasSubstr("hlo.reduce_window"));
  ASSERT_EQ(v.halos[0].dims.size(), 1u);
  EXPECT_THAT(v.halos[0].dims[0].low, ElementsAre(0, 1, 1));
  EXPECT_THAT(v.halos[0].dims[0].high, ElementsAre(1, 1, 0));
  EXPECT_TRUE(result->parameters[1].halos.empty());
  absl::StatusOr<ShardingPicture> picture = ShardingPicture::Create(*result, v);
  ASSERT_TRUE(picture.ok()) << picture.status();
  EXPECT_THAT(picture->Text(), HasSubstr("piece 1 [4:8]: halo: 1 low, 1 high on dim 0"));
  // The unsharded scalar is whole on every device of the mesh.
  absl::StatusOr<ShardingPicture> scalar =
      ShardingPicture::Create(*result, result->parameters[1]);
  ASSERT_TRUE(scalar.ok()) << scalar.status();
  EXPECT_EQ(scalar->num_devices(), 3);
  EXPECT_THAT(scalar->Text(), HasSubstr("replicated on all 3 devices"));
}

}  // namespace
}  // namespace tessel
