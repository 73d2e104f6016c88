// A quick plan for the strategy-choice ILP, found without a solver: the solver starts from
// it, so a time limit that runs out early still has a plan to return, and the search can
// cut every branch that cannot beat it.
//
//   std::optional<std::vector<int>> start = initialPlan(problem);
//   if (start) { /* hand *start to the solver as its first solution */ }
#ifndef TESSEL_PARTITIONER_AUTO_INITIAL_PLAN_H_
#define TESSEL_PARTITIONER_AUTO_INITIAL_PLAN_H_

#include <optional>
#include <vector>

#include "partitioner/auto/ilp.h"

namespace tessel::auto_sharding {

// Per node a strategy: greedily in node order (each node the cheapest given the nodes
// chosen before it), then improved one node at a time (each the cheapest given all its
// neighbours) until no node changes or a few passes are done. Under a memory limit, moves
// that would break it are refused, and when the greedy start breaks it the start is each
// node's least-memory strategy instead. Returns nullopt when even that breaks the limit.
std::optional<std::vector<int>> initialPlan(const IlpProblem& problem);

// Whether `choice` holds within the problem's memory limit (always, without one).
bool fitsMemory(const IlpProblem& problem, const std::vector<int>& choice);

}  // namespace tessel::auto_sharding

#endif  // TESSEL_PARTITIONER_AUTO_INITIAL_PLAN_H_
