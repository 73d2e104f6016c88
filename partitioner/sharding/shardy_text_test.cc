// Tests of reading Shardy's sharding strings and comparing them with GSPMD's.
#include "partitioner/sharding/shardy_text.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "support/status_matchers.h"

namespace tessel::sharding {
namespace {

using ::tessel::testing::IsOk;
using ::tessel::testing::StatusIs;

class ShardyTextTest : public ::testing::Test {
 protected:
  ShardyTextTest() { context_.loadDialect<ir::TesselDialect>(); }

  HloSharding Gspmd(const std::string& text) { return *HloSharding::Parse(text); }

  mlir::MLIRContext context_;
  Mesh mesh_ = *Mesh::Create({{"data", 4}, {"model", 2}});
};

TEST_F(ShardyTextTest, ReadsAParameterSharding) {
  absl::StatusOr<std::vector<ir::ShardingAttr>> parsed =
      ParseShardyShardings(&context_, R"(#sdy.sharding<@mesh, [{"data"}, {}]>)");
  ASSERT_THAT(parsed, IsOk());
  ASSERT_EQ(parsed->size(), 1u);
  EXPECT_EQ((*parsed)[0].getMeshName().getValue(), "mesh");
  EXPECT_EQ((*parsed)[0].getRank(), 2);
}

TEST_F(ShardyTextTest, ReadsOneShardingPerValue) {
  absl::StatusOr<std::vector<ir::ShardingAttr>> parsed = ParseShardyShardings(
      &context_,
      R"(#sdy.sharding_per_value<[<@mesh, [{"data", ?}, {?}]>, <@other, [{"x":(1)2}]>]>)");
  ASSERT_THAT(parsed, IsOk());
  ASSERT_EQ(parsed->size(), 2u);
  EXPECT_FALSE((*parsed)[0].getDimShardings()[1].getIsClosed());
  EXPECT_EQ((*parsed)[1].getMeshName().getValue(), "other");
}

TEST_F(ShardyTextTest, RefusesOtherTextWithoutReportingToTheContext) {
  int reported = 0;
  mlir::ScopedDiagnosticHandler handler(&context_, [&](mlir::Diagnostic&) {
    ++reported;
    return mlir::success();
  });
  EXPECT_THAT(ParseShardyShardings(&context_, "{devices=[2]<=[2]}"),
              StatusIs(absl::StatusCode::kInvalidArgument, "neither"));
  EXPECT_THAT(ParseShardyShardings(&context_, R"(#sdy.sharding<@mesh, [{"data"}>)"),
              StatusIs(absl::StatusCode::kInvalidArgument, ""));
  EXPECT_THAT(ParseShardyShardings(&context_, R"(#sdy.sharding<@mesh, [{}]> trailing>)"),
              StatusIs(absl::StatusCode::kInvalidArgument, ""));
  EXPECT_EQ(reported, 0);
}

TEST_F(ShardyTextTest, ConvertsToTheGspmdFormJaxWritesBesideIt) {
  auto convert = [&](const std::string& text) {
    absl::StatusOr<std::vector<ir::ShardingAttr>> parsed = ParseShardyShardings(&context_, text);
    EXPECT_THAT(parsed, IsOk());
    absl::StatusOr<HloSharding> gspmd = ShardyShardingToHlo(mesh_, (*parsed)[0]);
    EXPECT_THAT(gspmd, IsOk());
    return gspmd.ok() ? gspmd->ToString() : std::string();
  };
  EXPECT_EQ(convert(R"(#sdy.sharding<@mesh, [{"data"}, {}]>)"),
            "{devices=[4,1,2]<=[8] last_tile_dim_replicate}");
  EXPECT_EQ(convert(R"(#sdy.sharding<@mesh, [{}, {"model"}]>)"),
            "{devices=[1,2,4]<=[4,2]T(1,0) last_tile_dim_replicate}");
  EXPECT_EQ(convert(R"(#sdy.sharding<@mesh, [{"data"}, {"model"}]>)"), "{devices=[4,2]<=[8]}");
  EXPECT_EQ(convert(R"(#sdy.sharding<@mesh, [{}, {}]>)"), "{replicated}");
}

TEST_F(ShardyTextTest, ConversionRefusesAnUnknownAxis) {
  absl::StatusOr<std::vector<ir::ShardingAttr>> parsed =
      ParseShardyShardings(&context_, R"(#sdy.sharding<@mesh, [{"nope"}]>)");
  ASSERT_THAT(parsed, IsOk());
  EXPECT_FALSE(ShardyShardingToHlo(mesh_, (*parsed)[0]).ok());
}

TEST_F(ShardyTextTest, SamePlacementLooksThroughTheSpelling) {
  EXPECT_TRUE(SamePlacement(Gspmd("{devices=[4,2]<=[8]}"), Gspmd("{devices=[4,2]0,1,2,3,4,5,6,7}")));
  EXPECT_TRUE(SamePlacement(Gspmd("{replicated}"), Gspmd("{devices=[1,1,8]<=[8] last_tile_dim_replicate}")));
  EXPECT_FALSE(SamePlacement(Gspmd("{devices=[4,2]<=[8]}"), Gspmd("{devices=[4,2]<=[2,4]T(1,0)}")));
  EXPECT_FALSE(SamePlacement(Gspmd("{devices=[2,1]<=[2]}"), Gspmd("{devices=[1,2]<=[2]}")));
  EXPECT_FALSE(SamePlacement(Gspmd("{maximal device=1}"), Gspmd("{maximal device=0}")));
  EXPECT_FALSE(SamePlacement(Gspmd("{replicated}"), Gspmd("{devices=[2]<=[2]}")));
}

}  // namespace
}  // namespace tessel::sharding
