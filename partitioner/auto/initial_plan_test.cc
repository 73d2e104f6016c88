// The solver's starting plan on problems small enough to follow by hand, and what a time
// limit that runs out before the search returns.
#include "partitioner/auto/initial_plan.h"

#include "gtest/gtest.h"

namespace tessel::auto_sharding {
namespace {

TEST(InitialPlanTest, ImprovesTheGreedyChoiceOneNodeAtATime) {
  // In node order, node 0 takes 0 (cheaper alone) and node 1 then takes 1 (5 against 0 + 1
  // for the layout change). Looking again at node 0 with node 1 fixed, 1 costs 0.1 and
  // saves the change: the plan (1, 1) costs 0.1 where the greedy one cost 1.
  IlpProblem problem;
  problem.nodeCosts = {{0, 0.1}, {5, 0}};
  problem.edges.push_back({0, 1, {0, 1, 1, 0}});
  std::optional<std::vector<int>> plan = initialPlan(problem);
  ASSERT_TRUE(plan.has_value());
  EXPECT_EQ(*plan, (std::vector<int>{1, 1}));
  EXPECT_DOUBLE_EQ(costOf(problem, *plan), 0.1);
}

TEST(InitialPlanTest, StartsFromTheLeanestPlanWhenTheCheapestBreaksTheLimit) {
  // Whole (8 bytes) is cheaper but only split (2 bytes) fits under 4.
  IlpProblem problem;
  problem.nodeCosts = {{0, 1}, {0}};
  problem.persistentBytes = {{8, 2}, {0}};
  problem.transientBytes = {{0, 0}, {1}};
  problem.memoryLimit = 4;
  std::optional<std::vector<int>> plan = initialPlan(problem);
  ASSERT_TRUE(plan.has_value());
  EXPECT_EQ(*plan, (std::vector<int>{1, 0}));
  EXPECT_TRUE(fitsMemory(problem, *plan));
}

TEST(InitialPlanTest, NoPlanWhenEvenTheLeanestBreaksTheLimit) {
  IlpProblem problem;
  problem.nodeCosts = {{0, 1}};
  problem.persistentBytes = {{8, 2}};
  problem.transientBytes = {{0, 0}};
  problem.memoryLimit = 1;
  EXPECT_FALSE(initialPlan(problem).has_value());
}

TEST(InitialPlanTest, ATimeLimitSpentBeforeTheSearchReturnsTheInitialPlanAsNotOptimal) {
  IlpProblem problem;
  problem.nodeCosts = {{0, 0.1}, {5, 0}};
  problem.edges.push_back({0, 1, {0, 1, 1, 0}});
  problem.timeLimitSeconds = 1e-12;  // shorter than setting the problem up
  absl::StatusOr<IlpSolution> solution = solveIlp(problem);
  ASSERT_TRUE(solution.ok()) << solution.status();
  EXPECT_FALSE(solution->optimal);
  EXPECT_EQ(solution->choice, *initialPlan(problem));
  EXPECT_DOUBLE_EQ(solution->objective, 0.1);
}

TEST(InitialPlanTest, ATimeLimitSpentBeforeTheSearchWithoutAPlanIsDeadlineExceeded) {
  IlpProblem problem;
  problem.nodeCosts = {{0, 1}};
  problem.persistentBytes = {{8, 2}};
  problem.transientBytes = {{0, 0}};
  problem.memoryLimit = 1;
  problem.timeLimitSeconds = 1e-12;
  EXPECT_EQ(solveIlp(problem).status().code(), absl::StatusCode::kDeadlineExceeded);
}

}  // namespace
}  // namespace tessel::auto_sharding
