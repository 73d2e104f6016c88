// Dominated strategies on problems small enough to check by hand: what is dropped, what
// must stay, and that the reduced optimum is the original's.
#include "partitioner/auto/dominated.h"

#include "gtest/gtest.h"

namespace tessel::auto_sharding {
namespace {

TEST(DominatedTest, DropsAStrategyNoBetterAnywhereAndKeepsTheFirstOfEquals) {
  // Node 0: strategy 1 costs more than 0 and prices the edge no lower in either column;
  // strategy 2 is a copy of 0. Node 1's strategy 1 is cheaper alone but dearer through the
  // edge: the two trade off, and both stay.
  IlpProblem problem;
  problem.nodeCosts = {{1, 2, 1}, {1, 0}};
  problem.edges.push_back({0, 1, {0, 3, 0, 4, 0, 3}});
  DominanceReduced reduced = dropDominatedStrategies(problem);
  EXPECT_EQ(reduced.kept[0], (std::vector<int>{0}));
  EXPECT_EQ(reduced.kept[1], (std::vector<int>{0, 1}));
  EXPECT_EQ(reduced.dropped, 2);
  ASSERT_EQ(reduced.problem.edges.size(), 1u);
  EXPECT_EQ(reduced.problem.edges[0].cost, (std::vector<double>{0, 3}));
}

TEST(DominatedTest, KeepsAStrategyThatIsBetterForSomeNeighbourChoice) {
  // Strategy 1 costs more alone but is cheaper when node 1 takes 1: no dominance.
  IlpProblem problem;
  problem.nodeCosts = {{0, 1}, {0, 0}};
  problem.edges.push_back({0, 1, {0, 5, 0, 0}});
  DominanceReduced reduced = dropDominatedStrategies(problem);
  EXPECT_EQ(reduced.kept[0], (std::vector<int>{0, 1}));
  // Node 1's strategy 1 costs the same alone and never less through the edge: dropped.
  EXPECT_EQ(reduced.kept[1], (std::vector<int>{0}));
}

TEST(DominatedTest, KeepsACheaperStrategyThatHoldsMoreBytes) {
  // Under a memory limit the leaner strategy may be the only one that fits.
  IlpProblem problem;
  problem.nodeCosts = {{0, 1}};
  problem.persistentBytes = {{8, 2}};
  problem.transientBytes = {{0, 0}};
  problem.memoryLimit = 4;
  DominanceReduced reduced = dropDominatedStrategies(problem);
  EXPECT_EQ(reduced.dropped, 0);
  absl::StatusOr<IlpSolution> solution = solveIlp(reduced.problem);
  ASSERT_TRUE(solution.ok()) << solution.status();
  EXPECT_EQ(reduced.expand(solution->choice), (std::vector<int>{1}));
}

TEST(DominatedTest, TheReducedOptimumIsTheOriginalOne) {
  // A chain of three nodes with three strategies each; the middle node's strategy 2 is
  // dominated by 0 (more cost, the same tables), the others trade off.
  IlpProblem problem;
  problem.nodeCosts = {{0, 1, 2}, {1, 0, 3}, {2, 0, 1}};
  problem.edges.push_back({0, 1, {0, 1, 0, 1, 0, 1, 2, 2, 2}});
  problem.edges.push_back({1, 2, {0, 2, 1, 2, 0, 1, 0, 2, 1}});
  DominanceReduced reduced = dropDominatedStrategies(problem);
  EXPECT_GT(reduced.dropped, 0);
  absl::StatusOr<IlpSolution> full = solveIlp(problem);
  absl::StatusOr<IlpSolution> small = solveIlp(reduced.problem);
  ASSERT_TRUE(full.ok() && small.ok());
  EXPECT_DOUBLE_EQ(costOf(problem, reduced.expand(small->choice)), full->objective);
}

}  // namespace
}  // namespace tessel::auto_sharding
