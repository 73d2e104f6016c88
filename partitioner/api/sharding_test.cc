// Tests of PartitionSpec and Sharding: the JAX-like spelling, validation against a mesh and a
// rank, and the printed attribute.
#include "partitioner/api/sharding.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "support/status_matchers.h"

namespace tessel {
namespace {

using ::tessel::testing::IsOk;
using ::tessel::testing::StatusIs;
constexpr absl::StatusCode kInvalid = absl::StatusCode::kInvalidArgument;

class ShardingTest : public ::testing::Test {
 protected:
  Mesh mesh_ = *Mesh::Create({{"data", 4}, {"model", 2}});
};

TEST_F(ShardingTest, OneAxisPerDimensionReadsLikeJax) {
  absl::StatusOr<Sharding> sharding = Sharding::Create(mesh_, {"data", Replicated()});
  ASSERT_THAT(sharding, IsOk());
  EXPECT_EQ(sharding->rank(), 2);
  EXPECT_EQ(sharding->num_shards(0), 4);
  EXPECT_EQ(sharding->num_shards(1), 1);
  EXPECT_EQ(sharding->ToString(), "#tessel.sharding<@mesh, [{\"data\"}, {}]>");
}

TEST_F(ShardingTest, SeveralAxesSplitOneDimensionMajorToMinor) {
  absl::StatusOr<Sharding> sharding = Sharding::Create(mesh_, {Axes({"data", "model"})});
  ASSERT_THAT(sharding, IsOk());
  EXPECT_EQ(sharding->num_shards(0), 8);
  EXPECT_EQ(sharding->ToString(), "#tessel.sharding<@mesh, [{\"data\", \"model\"}]>");
}

TEST_F(ShardingTest, OpenDimensionsAndPrioritiesPrint) {
  absl::StatusOr<Sharding> sharding = Sharding::Create(
      mesh_,
      {DimSpec("data").Open().WithPriority(0), Unconstrained(), DimSpec("model").WithPriority(2)});
  ASSERT_THAT(sharding, IsOk());
  EXPECT_TRUE(sharding->spec().dims()[0].is_open());
  EXPECT_EQ(sharding->spec().dims()[2].priority(), 2);
  EXPECT_EQ(sharding->ToString(), "#tessel.sharding<@mesh, [{\"data\", ?}p0, {?}, {\"model\"}p2]>");
}

TEST_F(ShardingTest, ReplicatedAndUnreducedAxesPrint) {
  absl::StatusOr<Sharding> sharding = Sharding::Create(
      mesh_, PartitionSpec{Replicated()}.WithReplicated({"data"}).WithUnreduced({"model"}));
  ASSERT_THAT(sharding, IsOk());
  EXPECT_EQ(sharding->ToString(),
            "#tessel.sharding<@mesh, [{}], replicated={\"data\"}, unreduced={\"model\"}>");
}

TEST_F(ShardingTest, ReplicatedHelperCoversEveryDimension) {
  Sharding sharding = Sharding::Replicated(mesh_, 3);
  EXPECT_EQ(sharding.ToString(), "#tessel.sharding<@mesh, [{}, {}, {}]>");
}

TEST_F(ShardingTest, LocalShapeRoundsUnevenSplitsUp) {
  Sharding sharding = *Sharding::Create(mesh_, {"data", "model"});
  // 10 rows over 4 devices: ceil(10 / 4) = 3 per device, the last holding one padding row.
  EXPECT_EQ(sharding.LocalShape(TensorType(ElementType::kF32, {10, 6})),
            (std::vector<int64_t>{3, 3}));
}

TEST_F(ShardingTest, RejectsAnAxisNotInTheMesh) {
  EXPECT_THAT(Sharding::Create(mesh_, {"modle"}),
              StatusIs(kInvalid,
                       "dimension 0: axis \"modle\" is not in mesh @mesh (axes: "
                       "\"data\", \"model\")"));
  EXPECT_THAT(Sharding::Create(mesh_, PartitionSpec{}.WithUnreduced({"x"})),
              StatusIs(kInvalid, "the unreduced axes: axis \"x\" is not in mesh @mesh"));
}

TEST_F(ShardingTest, RejectsAnAxisUsedTwice) {
  EXPECT_THAT(Sharding::Create(mesh_, {"data", "data"}),
              StatusIs(kInvalid, "axis \"data\" is used by dimension 0 and by dimension 1"));
  EXPECT_THAT(Sharding::Create(mesh_, {Axes({"model", "model"})}),
              StatusIs(kInvalid, "axis \"model\" is used by dimension 0 and by dimension 0"));
  EXPECT_THAT(
      Sharding::Create(mesh_, PartitionSpec{"data"}.WithReplicated({"data"})),
      StatusIs(kInvalid, "axis \"data\" is used by dimension 0 and by the replicated axes"));
  EXPECT_THAT(
      Sharding::Create(mesh_, PartitionSpec{}.WithReplicated({"model"}).WithUnreduced({"model"})),
      StatusIs(kInvalid, "used by the replicated axes and by the unreduced axes"));
}

TEST_F(ShardingTest, RejectsEmptyAxisNamesAndNegativePriorities) {
  EXPECT_THAT(Sharding::Create(mesh_, {""}), StatusIs(kInvalid, "dimension 0 names an empty axis"));
  EXPECT_THAT(Sharding::Create(mesh_, {DimSpec("data").WithPriority(-1)}),
              StatusIs(kInvalid, "dimension 0: priority -1 is negative"));
}

TEST_F(ShardingTest, RankMismatchNamesBothRanks) {
  EXPECT_THAT(Sharding::Create(mesh_, {"data", Replicated()}, 3),
              StatusIs(kInvalid, "partition spec has 2 dimensions but the tensor has rank 3"));
  Sharding sharding = *Sharding::Create(mesh_, {"data", Replicated()});
  EXPECT_THAT(sharding.CheckFits(TensorType(ElementType::kF32, {4})),
              StatusIs(kInvalid, "has 2 dimensions but f32[4] has rank 1"));
  EXPECT_THAT(sharding.CheckFits(TensorType(ElementType::kF32, {4, 4})), IsOk());
}

TEST(SubAxisTest, SubAxesSplitPartOfAnAxis) {
  Mesh mesh = *Mesh::Create({{"x", 16}, {"y", 2}});
  absl::StatusOr<Sharding> sharding =
      Sharding::Create(mesh, {SubAxis("x", 1, 2), Axes({SubAxis("x", 2, 4), "y"})});
  ASSERT_THAT(sharding, IsOk());
  EXPECT_EQ(sharding->num_shards(0), 2);
  EXPECT_EQ(sharding->num_shards(1), 8);
  EXPECT_EQ(sharding->LocalShape(TensorType(ElementType::kF32, {6, 32})),
            (std::vector<int64_t>{3, 4}));
  EXPECT_EQ(sharding->ToString(),
            "#tessel.sharding<@mesh, [{\"x\":(1)2}, {\"x\":(2)4, \"y\"}]>");
  // The rest of "x" may be named as replicated or unreduced.
  EXPECT_THAT(Sharding::Create(mesh, PartitionSpec{SubAxis("x", 1, 4)}.WithUnreduced(
                                         {SubAxis("x", 4, 4)})),
              IsOk());
}

TEST(SubAxisTest, SubAxesThatDoNotFitTheirAxisAreRejected) {
  Mesh mesh = *Mesh::Create({{"x", 8}});
  EXPECT_THAT(Sharding::Create(mesh, {SubAxis("x", 3, 2)}),
              StatusIs(kInvalid, "dimension 0: sub-axis \"x\":(3)2: 3 * 2 does not divide the "
                                 "size 8 of axis \"x\""));
  EXPECT_THAT(Sharding::Create(mesh, {SubAxis("x", 1, 8)}),
              StatusIs(kInvalid, "sub-axis \"x\":(1)8 is all of axis \"x\""));
  EXPECT_THAT(Sharding::Create(mesh, {SubAxis("x", 0, 2)}),
              StatusIs(kInvalid, "needs a pre-size of at least 1 and a size of at least 2"));
  EXPECT_THAT(Sharding::Create(mesh, {SubAxis("x", 2, 1)}),
              StatusIs(kInvalid, "needs a pre-size of at least 1 and a size of at least 2"));
  EXPECT_THAT(Sharding::Create(mesh, {SubAxis("z", 1, 2)}),
              StatusIs(kInvalid, "dimension 0: axis \"z\" is not in mesh @mesh"));
}

TEST(SubAxisTest, PartsOfOneAxisMayNotOverlapOrSplitItIncompatibly) {
  Mesh mesh = *Mesh::Create({{"x", 8}});
  EXPECT_THAT(Sharding::Create(mesh, {SubAxis("x", 1, 2), SubAxis("x", 1, 2)}),
              StatusIs(kInvalid, "axis \"x\":(1)2 is used by dimension 0 and by dimension 1"));
  EXPECT_THAT(Sharding::Create(mesh, {"x", SubAxis("x", 2, 2)}),
              StatusIs(kInvalid,
                       "axis \"x\":(2)2 of dimension 1 overlaps axis \"x\" of dimension 0"));
  EXPECT_THAT(Sharding::Create(mesh, {SubAxis("x", 1, 4), SubAxis("x", 2, 4)}),
              StatusIs(kInvalid, "overlaps"));
  Mesh twelve = *Mesh::Create({{"x", 12}});
  EXPECT_THAT(Sharding::Create(twelve, {SubAxis("x", 1, 2), SubAxis("x", 3, 2)}),
              StatusIs(kInvalid, "sub-axes \"x\":(1)2 of dimension 0 and \"x\":(3)2 of "
                                 "dimension 1 do not split axis \"x\" compatibly"));
}

TEST(SubAxisTest, ParsePrintsBack) {
  for (const char* text : {"\"x\"", "\"x\":(2)4", "\"model\":(1)2"}) {
    absl::StatusOr<AxisRef> axis = AxisRef::Parse(text);
    ASSERT_THAT(axis, IsOk()) << text;
    EXPECT_EQ(axis->ToString(), text);
  }
  EXPECT_EQ(*AxisRef::Parse("x:(2)4"), SubAxis("x", 2, 4));
  EXPECT_EQ(*AxisRef::Parse("data"), AxisRef("data"));
  EXPECT_THAT(AxisRef::Parse("x:(2"), StatusIs(kInvalid, "axis 'x:(2' is neither a name nor"));
  EXPECT_THAT(AxisRef::Parse("x:(a)2"), StatusIs(kInvalid, "is neither a name nor"));
  EXPECT_THAT(AxisRef::Parse("\"x"), StatusIs(kInvalid, "has no closing quote"));
  EXPECT_THAT(AxisRef::Parse(""), StatusIs(kInvalid, "has no name"));
}

}  // namespace
}  // namespace tessel
