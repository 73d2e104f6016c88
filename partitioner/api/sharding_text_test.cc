// Tests of Sharding::Parse: Shardy's and Tessel's printed forms on a mesh, and the errors
// for other text, another mesh's name and axes the mesh lacks.
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "partitioner/api/sharding.h"
#include "support/status_matchers.h"

namespace tessel {
namespace {

using ::tessel::testing::IsOk;
using ::tessel::testing::StatusIs;
constexpr absl::StatusCode kInvalid = absl::StatusCode::kInvalidArgument;

class ShardingTextTest : public ::testing::Test {
 protected:
  Mesh mesh_ = *Mesh::Create({{"data", 4}, {"model", 2}});
};

TEST_F(ShardingTextTest, ParsesShardyText) {
  absl::StatusOr<Sharding> sharding =
      Sharding::Parse(mesh_, R"(#sdy.sharding<@mesh, [{"data"}, {}]>)");
  ASSERT_THAT(sharding, IsOk());
  EXPECT_EQ(*sharding, *Sharding::Create(mesh_, {"data", Replicated()}));
}

TEST_F(ShardingTextTest, ParsesTesselTextWithOpenDimsAndPriorities) {
  absl::StatusOr<Sharding> sharding = Sharding::Parse(
      mesh_, R"(  #tessel.sharding<@mesh, [{"data", "model"}, {?}p0]> )");
  ASSERT_THAT(sharding, IsOk());
  EXPECT_EQ(*sharding, *Sharding::Create(mesh_, {Axes({"data", "model"}),
                                                 Unconstrained().WithPriority(0)}));
  // The printed form reads back.
  EXPECT_EQ(*Sharding::Parse(mesh_, sharding->ToString()), *sharding);
}

TEST_F(ShardingTextTest, RejectsOtherText) {
  EXPECT_THAT(Sharding::Parse(mesh_, "P('data')"), StatusIs(kInvalid, "P('data')"));
  EXPECT_THAT(Sharding::Parse(mesh_, R"(#sdy.sharding<@mesh, [{"data"}, {}>)"),
              StatusIs(kInvalid, "is not a sharding"));
  EXPECT_THAT(Sharding::Parse(mesh_, R"(#sdy.sharding_per_value<[<@mesh, [{}]>]>)"),
              StatusIs(kInvalid, "is not a sharding"));
}

TEST_F(ShardingTextTest, ChecksTheMesh) {
  EXPECT_THAT(Sharding::Parse(mesh_, R"(#sdy.sharding<@other, [{"data"}]>)"),
              StatusIs(kInvalid, "names mesh @other but the mesh is @mesh"));
  EXPECT_THAT(Sharding::Parse(mesh_, R"(#sdy.sharding<@mesh, [{"rows"}]>)"),
              StatusIs(kInvalid, "rows"));
}

}  // namespace
}  // namespace tessel
