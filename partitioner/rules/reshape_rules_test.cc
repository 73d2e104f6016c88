// Unit tests of the reshape decomposition (the examples of ALGORITHMS.md §2.2 and the cases
// around them). Each expected rule is in the textual form; comments say why.
#include <gtest/gtest.h>

#include "partitioner/rules/reshape_rules.h"

namespace tessel::rules {
namespace {

std::string reshape(llvm::ArrayRef<int64_t> in, llvm::ArrayRef<int64_t> out) {
  return buildReshapeRule(in, out).toString();
}

TEST(ReshapeRuleTest, MergesLeadingDims) {
  EXPECT_EQ(reshape({2, 4, 32}, {8, 32}), "([i, j, k])->([ij, k]) {i=2, j=4, k=32}");
}

TEST(ReshapeRuleTest, SplitsAndMergesThroughASharedMiddleFactor) {
  // 8 = 2 * 4 and 16 = 4 * 4: the 4 that ends the first input dim starts the second output dim.
  EXPECT_EQ(reshape({8, 4}, {2, 16}), "([ij, k])->([i, jk]) {i=2, j=4, k=4}");
}

TEST(ReshapeRuleTest, MergesIntoOneDim) {
  EXPECT_EQ(reshape({4, 6}, {24}), "([i, j])->([ij]) {i=4, j=6}");
}

TEST(ReshapeRuleTest, SplitsOneDim) {
  EXPECT_EQ(reshape({24}, {4, 6}), "([ij])->([i, j]) {i=4, j=6}");
}

TEST(ReshapeRuleTest, SharesNothingWhenNoBoundaryLinesUp) {
  // gcd(3, 2) = 1: four factors of their own, so a sharding cannot cross (an all-to-all).
  EXPECT_EQ(reshape({3, 2}, {2, 3}), "([i, l])->([j, k]) {i=3, j=2, k=3, l=2}");
}

TEST(ReshapeRuleTest, RealignsAfterDrifting) {
  // 3 vs 2 drift apart; the output takes 3 of its 6 and the input 2 of its 4 to meet at 6,
  // and the last 2 is shared.
  EXPECT_EQ(reshape({3, 4}, {2, 6}),
            "([i, lm])->([j, km]) {i=3, j=2, k=3, l=2, m=2}");
}

TEST(ReshapeRuleTest, GivesUnitDimsTheirOwnFactors) {
  EXPECT_EQ(reshape({1, 4, 1}, {4, 1}), "([i, j, k])->([j, l]) {i=1, j=4, k=1, l=1}");
  EXPECT_EQ(reshape({4}, {1, 4}), "([j])->([i, j]) {i=1, j=4}");
}

TEST(ReshapeRuleTest, HandlesScalars) {
  EXPECT_EQ(reshape({1, 1}, {}), "([i, j])->([]) {i=1, j=1}");
  EXPECT_EQ(reshape({}, {1}), "([])->([i]) {i=1}");
}

TEST(ReshapeRuleTest, IdentityIsPassThroughPerDim) {
  EXPECT_EQ(reshape({2, 3}, {2, 3}), "([i, j])->([i, j]) {i=2, j=3}");
}

TEST(ReshapeRuleTest, ZeroElementsGiveEveryDimItsOwnFactor) {
  EXPECT_EQ(reshape({0, 4}, {2, 0}), "([i, j])->([k, l]) {i=0, j=4, k=2, l=0}");
}

TEST(ReshapeRuleTest, EveryRuleFitsItsShapes) {
  // The decomposition is exact: every dim is the product of its factors.
  const std::pair<std::vector<int64_t>, std::vector<int64_t>> cases[] = {
      {{2, 4, 32}, {8, 32}}, {{8, 4}, {2, 16}}, {{3, 2}, {2, 3}},  {{6, 10}, {4, 15}},
      {{12, 5}, {10, 6}},    {{1, 6, 1}, {3, 2}}, {{5, 7}, {35}}, {{16}, {2, 2, 2, 2}}};
  for (const auto& [in, out] : cases) {
    OpShardingRule rule = buildReshapeRule(in, out);
    auto product = [&](const TensorFactors& tensor, size_t dim) {
      int64_t p = 1;
      for (int64_t f : tensor[dim]) p *= rule.getFactor(f).size;
      return p;
    };
    for (size_t d = 0; d < in.size(); ++d) EXPECT_EQ(product(rule.getOperand(0), d), in[d]);
    for (size_t d = 0; d < out.size(); ++d) EXPECT_EQ(product(rule.getResult(0), d), out[d]);
  }
}

}  // namespace
}  // namespace tessel::rules
