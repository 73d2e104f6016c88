// Tests of the shortest common factorization.
#include "partitioner/sharding/factorization.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace tessel::sharding {
namespace {

using ::testing::ElementsAre;

TEST(CommonFactorizationTest, SplitsBothShapesIntoTheirCommonRefinement) {
  // ALGORITHMS.md §1.3: [4,8] and [8,4] → [4,2,4].
  std::optional<Factorization> common = CommonFactorization({4, 8}, {8, 4});
  ASSERT_TRUE(common.has_value());
  EXPECT_THAT(common->factors, ElementsAre(4, 2, 4));
  EXPECT_THAT(common->a_dim, ElementsAre(0, 1, 1));
  EXPECT_THAT(common->b_dim, ElementsAre(0, 0, 1));
}

TEST(CommonFactorizationTest, FailsWhenNoRefinementExists) {
  // ALGORITHMS.md §1.3: [2,3] and [3,2] have none (2 does not divide 3).
  EXPECT_FALSE(CommonFactorization({2, 3}, {3, 2}).has_value());
}

TEST(CommonFactorizationTest, SkipsDimsOfSizeOne) {
  std::optional<Factorization> common = CommonFactorization({1, 4, 1}, {2, 1, 2});
  ASSERT_TRUE(common.has_value());
  EXPECT_THAT(common->factors, ElementsAre(2, 2));
  EXPECT_THAT(common->a_dim, ElementsAre(1, 1));
  EXPECT_THAT(common->b_dim, ElementsAre(0, 2));
}

TEST(CommonFactorizationTest, EqualShapesFactorIntoThemselves) {
  std::optional<Factorization> common = CommonFactorization({2, 3, 5}, {2, 3, 5});
  ASSERT_TRUE(common.has_value());
  EXPECT_THAT(common->factors, ElementsAre(2, 3, 5));
}

TEST(CommonFactorizationTest, AllOnesHaveNoFactors) {
  std::optional<Factorization> common = CommonFactorization({1, 1}, {1});
  ASSERT_TRUE(common.has_value());
  EXPECT_TRUE(common->factors.empty());
}

}  // namespace
}  // namespace tessel::sharding
