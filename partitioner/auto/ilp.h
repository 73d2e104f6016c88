// The choice of one strategy per node of a cost graph as an integer linear program, solved
// with COIN-OR CBC (the formulation of Alpa's intra-operator pass):
//
//   minimize   sum_n sum_s c[n][s] x[n][s]  +  sum_e sum_(s,t) r[e][s][t] y[e][s][t]
//   subject to sum_s x[n][s] = 1                          one strategy per node
//              sum_t y[e][s][t] = x[from(e)][s]            y is the product x[from][s] x[to][t],
//              sum_s y[e][s][t] = x[to(e)][t]              written linearly
//              sum_s v[n][s] x[n][s] <= M                  M: the largest transient value
//              sum_n sum_s p[n][s] x[n][s] + M <= limit    persistent bytes plus that value
//              x binary, 0 <= y <= 1, M >= 0
//
// With memory points (liveness.h) the two memory rows give way to one row per point of the
// program: the bytes live there, a sum over x (values in their producers' layouts) and over
// y (reshard buffers, whose size depends on both ends of an edge), stays under the limit.
// A cut can exclude given plans, which is how the runner-up plan is found.
//
// An edge whose ends have one strategy each, or one of them, folds into the node costs, so
// only edges between two real choices add y variables.
//
//   IlpProblem problem;
//   problem.nodeCosts = {{0, 1}, {2, 0}};
//   problem.edges.push_back({0, 1, {0, 5, 5, 0}});
//   TESSEL_ASSIGN_OR_RETURN(IlpSolution solution, solveIlp(problem));
#ifndef TESSEL_PARTITIONER_AUTO_ILP_H_
#define TESSEL_PARTITIONER_AUTO_ILP_H_

#include <utility>
#include <vector>

#include "absl/status/statusor.h"

namespace tessel::auto_sharding {

struct IlpEdge {
  int from = 0;
  int to = 0;
  // Row-major: cost[s * strategies(to) + t] when `from` takes s and `to` takes t.
  std::vector<double> cost;
};

// The bytes live at one point of the program, as a function of the plan: a constant, per
// node and strategy, and per pair of strategies at the two ends of an edge.
struct IlpMemoryPoint {
  double constantBytes = 0;
  std::vector<std::pair<int, std::vector<double>>> nodeBytes;  // node, bytes per strategy
  std::vector<IlpEdge> edgeBytes;                               // tables as IlpEdge's costs
};

struct IlpProblem {
  // Per node, per strategy: the cost of choosing it (seconds). Every node has at least one.
  std::vector<std::vector<double>> nodeCosts;
  std::vector<IlpEdge> edges;
  // Per node, per strategy: bytes each device holds for the whole step (parameters), and
  // the bytes of the largest value the node produces (held at least while it is made).
  // Empty: no memory constraint.
  std::vector<std::vector<double>> persistentBytes;
  std::vector<std::vector<double>> transientBytes;
  // When not empty, the memory constraint is one row per point (and the two fields above
  // are not read).
  std::vector<IlpMemoryPoint> memoryPoints;
  // Bytes per device; 0 for no limit.
  double memoryLimit = 0;
  // Plans (a strategy per node) the solution must differ from, each at some node with more
  // than one strategy.
  std::vector<std::vector<int>> excluded;
  // The solver stops after this long and returns the best plan found so far.
  double timeLimitSeconds = 10;
};

struct IlpSolution {
  std::vector<int> choice;  // per node, the strategy taken
  double objective = 0;     // seconds, node and edge costs of `choice`
  bool optimal = false;     // false when the time limit stopped the search first
  double solveSeconds = 0;
};

// Solves `problem`. Fails with ResourceExhausted when no choice meets the memory limit
// (or, with `excluded` plans, when no other plan exists),
// DeadlineExceeded when the time limit passed before any choice was found, and
// InvalidArgument for a malformed problem (a node without strategies, an edge whose cost
// table has the wrong size).
absl::StatusOr<IlpSolution> solveIlp(const IlpProblem& problem);

// The cost of `choice` under `problem`'s node and edge costs (the objective).
double costOf(const IlpProblem& problem, const std::vector<int>& choice);

// The largest bytes over `problem`'s memory points under `choice`, and the index of the
// point where it is reached (-1 without points).
std::pair<double, int> peakOf(const IlpProblem& problem, const std::vector<int>& choice);

}  // namespace tessel::auto_sharding

#endif  // TESSEL_PARTITIONER_AUTO_ILP_H_
