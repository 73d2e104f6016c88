// Repeated layers in a cost graph, solved once. An unrolled model repeats the same layer N
// times: the same ops on the same shapes with the same strategy costs, each layer with its
// own weights of the same shapes. Its N copies are then made to take the same strategies
// ("tied"): the ILP keeps one variable set per group of tied nodes, with their costs added
// up, so a 96-layer program is solved as about one layer.
//
//   RepeatedLayers layers = findRepeatedLayers(graph, problem);
//   TESSEL_ASSIGN_OR_RETURN(IlpSolution solved, solveTied(problem, layers.leader));
//   // solved.choice: a strategy per node, tied copies alike; layers.runs: copies tied
//
// What tying gives up: a plan in which layers take different strategies. The tied optimum
// equals the untied one unless layers would want to differ (e.g. under a memory limit that
// only some split weights can meet); docs/auto_sharding.md reports both on a 4-layer stack.
#ifndef TESSEL_PARTITIONER_AUTO_LAYERS_H_
#define TESSEL_PARTITIONER_AUTO_LAYERS_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "partitioner/auto/cost_graph.h"
#include "partitioner/auto/ilp.h"

namespace tessel::auto_sharding {

struct RepeatedLayers {
  // Consecutive identical segments of the op sequence in the longest run; 1 when nothing
  // repeats.
  int64_t layers = 1;
  // Op nodes in each segment of that run.
  int64_t nodesPerLayer = 0;
  // The copies of each run tied, the longest first (an encoder's and a decoder's layers
  // are two runs); empty when nothing repeats.
  std::vector<int64_t> runs;
  // Per node of the problem: the node whose strategy it takes (its counterpart in the first
  // layer), or itself. Leaders are their own leaders, so one lookup suffices.
  std::vector<int> leader;
};

// Finds the longest run of consecutive, structurally identical segments among the graph's
// op nodes (in program order) and ties each later segment's nodes to the first segment's;
// then, among the nodes left, the next longest run, and so on (a few runs at most).
// Identical means: same op name, same strategy costs and bytes, and in-edges in the same
// order, those from inside the layer with the same reshard tables. Each copy must use a
// result of the one before (layers, not parallel branches) and read weights of its own:
// parameters its counterparts in the first layer do not read. Those are tied too, when
// they have the same strategies and costs. A segment's first node may sit anywhere in a
// layer: the segments are whatever period repeats.
// REQUIRES: `problem` is `graph.problem(...)` (one problem node per graph node).
RepeatedLayers findRepeatedLayers(const CostGraph& graph, const IlpProblem& problem);

// The problem with each group of tied nodes as one node: node costs and persistent bytes
// add up over the group (every member takes the strategy), transient bytes are the
// members' largest, and an edge joins the groups of its ends (an edge inside one group
// prices the same strategy at both ends). `groupOf` gets each original node's group.
// REQUIRES: tied nodes have the same number of strategies.
IlpProblem tieNodes(const IlpProblem& problem, const std::vector<int>& leader,
                    std::vector<int>* groupOf);

// Solves `problem` with the nodes tied by `leader`, and returns the plan for every node;
// its objective is the untied problem's cost of that plan. `optimal` means optimal among
// tied plans. Fails as solveIlp does.
absl::StatusOr<IlpSolution> solveTied(const IlpProblem& problem, const std::vector<int>& leader);

// The same within `timeLimitSeconds` instead of the problem's own limit.
absl::StatusOr<IlpSolution> solveTied(const IlpProblem& problem, const std::vector<int>& leader,
                                      double timeLimitSeconds);

}  // namespace tessel::auto_sharding

#endif  // TESSEL_PARTITIONER_AUTO_LAYERS_H_
