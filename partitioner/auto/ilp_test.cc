// The ILP on graphs small enough to solve by hand: its choice, its objective, the memory
// limit, and the errors for impossible problems.
#include "partitioner/auto/ilp.h"

#include "gtest/gtest.h"

namespace tessel::auto_sharding {
namespace {

TEST(IlpTest, PicksTheCheapestNodeStrategiesWithoutEdges) {
  IlpProblem problem;
  problem.nodeCosts = {{3, 1, 2}, {5, 4}};
  absl::StatusOr<IlpSolution> solution = solveIlp(problem);
  ASSERT_TRUE(solution.ok()) << solution.status();
  EXPECT_EQ(solution->choice, (std::vector<int>{1, 1}));
  EXPECT_DOUBLE_EQ(solution->objective, 5);
  EXPECT_TRUE(solution->optimal);
}

TEST(IlpTest, AnEdgeCostMakesNeighboursAgree) {
  // Alone, node 0 prefers strategy 1 (cost 1 vs 2) and node 1 strategy 0 (0 vs 0.5).
  // Changing layout between them costs 5, so the plans are: (0,0) 2+0, (1,1) 1+0.5, (0,1)
  // and (1,0) 2+0.5+5 and 1+0+5. The optimum is (1,1) at 1.5.
  IlpProblem problem;
  problem.nodeCosts = {{2, 1}, {0, 0.5}};
  problem.edges.push_back({0, 1, {0, 5, 5, 0}});
  absl::StatusOr<IlpSolution> solution = solveIlp(problem);
  ASSERT_TRUE(solution.ok()) << solution.status();
  EXPECT_EQ(solution->choice, (std::vector<int>{1, 1}));
  EXPECT_DOUBLE_EQ(solution->objective, 1.5);
}

TEST(IlpTest, EdgesBetweenTheSamePairAddUpInEitherDirection) {
  // The edge from 1 to 0 is the transpose of one from 0 to 1: cost 4 when node 1 takes 0 and
  // node 0 takes 1. With the forward edge's 4 for (0 takes 0, 1 takes 1), only agreeing
  // plans (0,0) and (1,1) are free of edge costs; node costs make (0,0) cost 1, (1,1) 3.
  IlpProblem problem;
  problem.nodeCosts = {{0, 1}, {1, 2}};
  problem.edges.push_back({0, 1, {0, 4, 0, 0}});
  problem.edges.push_back({1, 0, {0, 4, 0, 0}});
  absl::StatusOr<IlpSolution> solution = solveIlp(problem);
  ASSERT_TRUE(solution.ok()) << solution.status();
  EXPECT_EQ(solution->choice, (std::vector<int>{0, 0}));
  EXPECT_DOUBLE_EQ(solution->objective, 1);
}

TEST(IlpTest, AChainAvoidsOneExpensiveTransition) {
  // Three nodes a-b-c where a is fixed to strategy 1 (only choice), c is cheap only in 0,
  // and b must bridge: switching costs 3 on either edge; b's strategies cost 0. Keeping
  // a's layout until c costs 3 (b=1, then switch) + c's 0; switching at once also 3; the
  // alternative of c taking 1 costs 10. Either bridge gives 3.
  IlpProblem problem;
  problem.nodeCosts = {{0}, {0, 0}, {0, 10}};
  problem.edges.push_back({0, 1, {3, 0}});
  problem.edges.push_back({1, 2, {0, 3, 3, 0}});
  absl::StatusOr<IlpSolution> solution = solveIlp(problem);
  ASSERT_TRUE(solution.ok()) << solution.status();
  EXPECT_EQ(solution->choice[2], 0);
  EXPECT_DOUBLE_EQ(solution->objective, 3);
}

TEST(IlpTest, TheMemoryLimitForcesTheSmallerStrategy) {
  // Node 0 is a parameter: replicated (strategy 0) holds 8 MiB, split holds 2 MiB but costs
  // 1 more. Without a limit it stays replicated; under 4 MiB (2 MiB + the 1 MiB transient
  // of node 1) it must split.
  IlpProblem problem;
  problem.nodeCosts = {{0, 1}, {0}};
  problem.persistentBytes = {{8 << 20, 2 << 20}, {0}};
  problem.transientBytes = {{0, 0}, {1 << 20}};
  absl::StatusOr<IlpSolution> unlimited = solveIlp(problem);
  ASSERT_TRUE(unlimited.ok()) << unlimited.status();
  EXPECT_EQ(unlimited->choice[0], 0);
  problem.memoryLimit = 4 << 20;
  absl::StatusOr<IlpSolution> limited = solveIlp(problem);
  ASSERT_TRUE(limited.ok()) << limited.status();
  EXPECT_EQ(limited->choice[0], 1);
  EXPECT_DOUBLE_EQ(limited->objective, 1);
}

TEST(IlpTest, AnImpossibleMemoryLimitIsResourceExhausted) {
  IlpProblem problem;
  problem.nodeCosts = {{0, 1}};
  problem.persistentBytes = {{8 << 20, 2 << 20}};
  problem.transientBytes = {{0, 0}};
  problem.memoryLimit = 1 << 20;
  absl::StatusOr<IlpSolution> solution = solveIlp(problem);
  EXPECT_EQ(solution.status().code(), absl::StatusCode::kResourceExhausted);
}

TEST(IlpTest, AMemoryPointCountsAReshardBufferThroughBothEnds) {
  // Two nodes of two strategies; node 0 prefers 0, node 1 prefers 1, and disagreeing
  // costs 0.5 and a reshard buffer of 3 MiB. Plans: (0,0) 2, (1,1) 2, (0,1) 0.5, (1,0)
  // 4.5. Without a limit (0,1) wins; a 4 MiB limit at a point already holding 2 MiB
  // forbids its buffer, so the nodes agree, at a cost of 2 either way.
  IlpProblem problem;
  problem.nodeCosts = {{0, 2}, {2, 0}};
  problem.edges.push_back({0, 1, {0, 0.5, 0.5, 0}});
  IlpMemoryPoint point;
  point.constantBytes = 2 << 20;
  point.edgeBytes.push_back({0, 1, {0, 3 << 20, 3 << 20, 0}});
  problem.memoryPoints.push_back(point);
  absl::StatusOr<IlpSolution> unlimited = solveIlp(problem);
  ASSERT_TRUE(unlimited.ok()) << unlimited.status();
  EXPECT_EQ(unlimited->choice, (std::vector<int>{0, 1}));
  EXPECT_DOUBLE_EQ(peakOf(problem, unlimited->choice).first, 5 << 20);
  problem.memoryLimit = 4 << 20;
  absl::StatusOr<IlpSolution> limited = solveIlp(problem);
  ASSERT_TRUE(limited.ok()) << limited.status();
  EXPECT_EQ(limited->choice[0], limited->choice[1]);
  EXPECT_DOUBLE_EQ(limited->objective, 2);
  EXPECT_DOUBLE_EQ(peakOf(problem, limited->choice).first, 2 << 20);
}

TEST(IlpTest, MemoryPointsTakeTheHighestOfTheirSums) {
  // Point 0 holds node 0's bytes, point 1 node 0's and node 1's: the limit binds at point
  // 1, where strategy 0 of both (4 + 4 MiB) does not fit under 6 MiB but 0 and 1 do.
  IlpProblem problem;
  problem.nodeCosts = {{0, 5}, {0, 1}};
  IlpMemoryPoint first, second;
  first.nodeBytes = {{0, {4 << 20, 1 << 20}}};
  second.nodeBytes = {{0, {4 << 20, 1 << 20}}, {1, {4 << 20, 1 << 20}}};
  problem.memoryPoints = {first, second};
  problem.memoryLimit = 6 << 20;
  absl::StatusOr<IlpSolution> solution = solveIlp(problem);
  ASSERT_TRUE(solution.ok()) << solution.status();
  EXPECT_EQ(solution->choice, (std::vector<int>{0, 1}));
  auto [peak, point] = peakOf(problem, solution->choice);
  EXPECT_DOUBLE_EQ(peak, 5 << 20);
  EXPECT_EQ(point, 1);
}

TEST(IlpTest, AnExcludedPlanGivesTheRunnerUp) {
  // Node 2 has one strategy (cost 2) and takes no part in the cut. The best plan is
  // (1, 1) at 1 + 4 + 2 = 7; the next best is (0, 1) at 3 + 4 + 2 = 9 rather than (1, 0)
  // at 1 + 7 + 2 = 10 or (0, 0) at 12.
  IlpProblem problem;
  problem.nodeCosts = {{3, 1}, {7, 4}, {2}};
  absl::StatusOr<IlpSolution> best = solveIlp(problem);
  ASSERT_TRUE(best.ok()) << best.status();
  EXPECT_EQ(best->choice, (std::vector<int>{1, 1, 0}));
  problem.excluded.push_back(best->choice);
  absl::StatusOr<IlpSolution> next = solveIlp(problem);
  ASSERT_TRUE(next.ok()) << next.status();
  EXPECT_EQ(next->choice, (std::vector<int>{0, 1, 0}));
  EXPECT_DOUBLE_EQ(next->objective, 9);
  // Every plan excluded: none is left.
  problem.excluded = {{0, 0, 0}, {0, 1, 0}, {1, 0, 0}, {1, 1, 0}};
  EXPECT_EQ(solveIlp(problem).status().code(), absl::StatusCode::kResourceExhausted);
}

TEST(IlpTest, MalformedProblemsAreInvalidArguments) {
  IlpProblem empty;
  empty.nodeCosts = {{}};
  EXPECT_EQ(solveIlp(empty).status().code(), absl::StatusCode::kInvalidArgument);
  IlpProblem badEdge;
  badEdge.nodeCosts = {{0, 1}, {0, 1}};
  badEdge.edges.push_back({0, 1, {0, 1, 2}});
  EXPECT_EQ(solveIlp(badEdge).status().code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace tessel::auto_sharding
