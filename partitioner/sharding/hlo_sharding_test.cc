// Tests of HloSharding: XLA text round trips, normalization, and located parse errors.
#include "partitioner/sharding/hlo_sharding.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "support/status_matchers.h"

namespace tessel::sharding {
namespace {

using ::tessel::testing::StatusIs;
using ::testing::ElementsAre;

constexpr auto kInvalid = absl::StatusCode::kInvalidArgument;

// Parses `text` and prints it again.
std::string Reprint(absl::string_view text) {
  absl::StatusOr<HloSharding> sharding = HloSharding::Parse(text);
  if (!sharding.ok()) return std::string(sharding.status().message());
  return sharding->ToString();
}

class HloShardingTextTest : public ::testing::TestWithParam<const char*> {};

TEST_P(HloShardingTextTest, CanonicalTextRoundTrips) { EXPECT_EQ(Reprint(GetParam()), GetParam()); }

// Every form of ALGORITHMS.md §1.1 that Tessel supports, in canonical spelling.
INSTANTIATE_TEST_SUITE_P(
    AllForms, HloShardingTextTest,
    ::testing::Values("{replicated}", "{manual}", "{unreduced}", "{maximal device=3}",
                      "{devices=[2,4]0,1,2,3,4,5,6,7}", "{devices=[4,2]<=[2,4]T(1,0)}",
                      "{devices=[4,2]<=[8]}", "{devices=[2,1,4]<=[8] last_tile_dim_replicate}",
                      "{devices=[2,1,4]0,1,2,3,4,5,6,7 last_tile_dim_replicate}",
                      "{devices=[2,1,4,2]<=[16] last_tile_dims={manual, replicated}}",
                      "{devices=[2,2,2]<=[8] last_tile_dims={manual, unreduced}}",
                      "{{replicated}, {devices=[2]0,1}}", "{}",
                      "{{replicated}, {manual}, {replicated}, {replicated}, {replicated}, "
                      "/*index=5*/{maximal device=1}}"));

TEST(HloShardingTest, ReadsTheTiledStructure) {
  HloSharding sharding =
      *HloSharding::Parse("{devices=[2,1,4,2]<=[16] last_tile_dims={manual, replicated}}");
  EXPECT_EQ(sharding.kind(), HloSharding::Kind::kTiled);
  EXPECT_EQ(sharding.TiledDataRank(), 2);
  EXPECT_THAT(sharding.subgroup_types(),
              ElementsAre(SubgroupType::kManual, SubgroupType::kReplicated));
  EXPECT_FALSE(sharding.ReplicateOnLastTileDim());
  EXPECT_EQ(sharding.tile_assignment().NumDevices(), 16);
}

TEST(HloShardingTest, ToleratesWhiteSpaceAndOmittedTranspose) {
  EXPECT_EQ(Reprint(" { devices = [ 4 , 2 ] <= [ 2 , 4 ] T ( 1 , 0 ) } "),
            "{devices=[4,2]<=[2,4]T(1,0)}");
  EXPECT_EQ(Reprint("{maximal device = 3}"), "{maximal device=3}");
}

TEST(HloShardingTest, CanonicalizesIotaOnParse) {
  // ALGORITHMS.md §1.3: the printer merges reshape dims that stay adjacent.
  EXPECT_EQ(Reprint("{devices=[2,2,2]<=[2,2,2]T(2,0,1) last_tile_dim_replicate}"),
            "{devices=[2,2,2]<=[4,2]T(1,0) last_tile_dim_replicate}");
  EXPECT_EQ(Reprint("{devices=[4,2]<=[2,4]T(0,1)}"), "{devices=[4,2]<=[8]}");
}

TEST(HloShardingTest, LoneReplicatedTrailingDimPrintsAsLastTileDimReplicate) {
  EXPECT_EQ(Reprint("{devices=[2,1,4]<=[8] last_tile_dims={replicated}}"),
            "{devices=[2,1,4]<=[8] last_tile_dim_replicate}");
}

TEST(HloShardingTest, OrdersAndMergesTrailingDims) {
  // Replicated before manual is reordered to manual first; the iota follows the transpose.
  EXPECT_EQ(Reprint("{devices=[2,2,2]<=[8] last_tile_dims={replicated, manual}}"),
            "{devices=[2,2,2]<=[2,2,2]T(0,2,1) last_tile_dims={manual, replicated}}");
  // Two manual dims merge into one.
  EXPECT_EQ(Reprint("{devices=[2,2,2]<=[8] last_tile_dims={manual, manual}}"),
            "{devices=[2,4]<=[8] last_tile_dims={manual}}");
}

TEST(HloShardingTest, DropsTrailingDimsOfSizeOne) {
  EXPECT_EQ(Reprint("{devices=[4,1]<=[4] last_tile_dim_replicate}"), "{devices=[4]<=[4]}");
}

TEST(HloShardingTest, TilingNothingWithOneTrailingTypeBecomesTheWholeKind) {
  EXPECT_EQ(Reprint("{devices=[1,1,4]<=[4] last_tile_dim_replicate}"), "{replicated}");
  EXPECT_EQ(Reprint("{devices=[1,4]<=[4] last_tile_dims={manual}}"), "{manual}");
  EXPECT_EQ(Reprint("{devices=[1,4]<=[4] last_tile_dims={unreduced}}"), "{unreduced}");
  EXPECT_EQ(Reprint("{devices=[1]<=[1] last_tile_dim_replicate}"), "{replicated}");
}

TEST(HloShardingTest, SortsDevicesWithinExplicitReplicaGroups) {
  EXPECT_EQ(Reprint("{devices=[2,2]3,1,0,2 last_tile_dim_replicate}"),
            "{devices=[2,2]1,3,0,2 last_tile_dim_replicate}");
}

TEST(HloShardingTest, RejectsNestedTuples) {
  EXPECT_THAT(HloSharding::Parse("{{replicated}, {{manual}}}"),
              StatusIs(kInvalid, "a tuple element must not be a tuple at offset 15"));
  EXPECT_THAT(HloSharding::Tuple({*HloSharding::Tuple({})}), StatusIs(kInvalid, "is a tuple"));
}

TEST(HloShardingTest, ParseErrorsNameTheOffset) {
  EXPECT_THAT(HloSharding::Parse("replicated"), StatusIs(kInvalid, "expected '{' at offset 0"));
  EXPECT_THAT(HloSharding::Parse("{replicated"), StatusIs(kInvalid, "expected '}' at offset 11"));
  EXPECT_THAT(HloSharding::Parse("{bogus}"), StatusIs(kInvalid, "at offset 1"));
  EXPECT_THAT(HloSharding::Parse("{devices=[2,x]0,1}"),
              StatusIs(kInvalid, "expected a non-negative integer at offset 12"));
  EXPECT_THAT(HloSharding::Parse("{devices=[2]0,1"),
              StatusIs(kInvalid, "expected '}' at offset 15"));
  EXPECT_THAT(HloSharding::Parse("{maximal dev=1}"),
              StatusIs(kInvalid, "expected 'device' at offset 9"));
  EXPECT_THAT(HloSharding::Parse("{replicated} x"),
              StatusIs(kInvalid, "expected the end of the sharding at offset 13"));
  EXPECT_THAT(HloSharding::Parse("{devices=[2,2]<=[4] last_tile_dims={bogus}}"),
              StatusIs(kInvalid, "expected 'manual', 'unreduced' or 'replicated' at offset 36"));
  EXPECT_THAT(HloSharding::Parse("{devices=[2]<=[2]T(0}"),
              StatusIs(kInvalid, "expected ')' at offset 20"));
}

TEST(HloShardingTest, SemanticErrorsPointAtTheTileAssignment) {
  EXPECT_THAT(HloSharding::Parse("{devices=[4,2]<=[4]}"), StatusIs(kInvalid, "at offset 1"));
  EXPECT_THAT(HloSharding::Parse("{devices=[2]0,0}"),
              StatusIs(kInvalid, "device 0 appears twice at offset 1"));
  EXPECT_THAT(
      HloSharding::Parse("{devices=[2]<=[2] last_tile_dims={manual, replicated}}"),
      StatusIs(kInvalid, "2 trailing dim types for a tile assignment of rank 1 at offset 1"));
  EXPECT_THAT(
      HloSharding::Parse("{devices=[2,2]<=[4] last_tile_dim_replicate last_tile_dims={manual}}"),
      StatusIs(kInvalid, "'last_tile_dims' after last_tile_dim_replicate at offset 44"));
}

TEST(HloShardingTest, RejectsUnsupportedAttributes) {
  // ALGORITHMS.md §1.1 lists {unknown shard_as 0}; Tessel has no use for placeholders.
  EXPECT_THAT(HloSharding::Parse("{unknown shard_as 0}"),
              StatusIs(kInvalid, "unsupported sharding attribute 'unknown' at offset 1"));
  EXPECT_THAT(HloSharding::Parse("{replicated metadata={op_name=\"a\"}}"),
              StatusIs(kInvalid, "unsupported sharding attribute 'metadata' at offset 12"));
  EXPECT_THAT(HloSharding::Parse("{devices=[2]<=[2] shard_as 1}"),
              StatusIs(kInvalid, "unsupported sharding attribute 'shard_as' at offset 18"));
}

}  // namespace
}  // namespace tessel::sharding
