// Pairwise dominance per node over node costs, bytes and the rows or columns of every
// incident edge table.
#include "partitioner/auto/dominated.h"

namespace tessel::auto_sharding {
namespace {

class Dominance {
 public:
  explicit Dominance(const IlpProblem& problem)
      : problem_(problem), incident_(problem.nodeCosts.size()) {
    for (size_t e = 0; e < problem.edges.size(); ++e) {
      incident_[problem.edges[e].from].push_back(static_cast<int>(e));
      if (problem.edges[e].to != problem.edges[e].from) {
        incident_[problem.edges[e].to].push_back(static_cast<int>(e));
      }
    }
  }

  // Whether `t` may replace `s` at `node` in any plan without raising its cost or bytes.
  bool noWorse(int node, size_t t, size_t s) const {
    if (problem_.nodeCosts[node][t] > problem_.nodeCosts[node][s]) return false;
    if (!problem_.persistentBytes.empty() &&
        (problem_.persistentBytes[node][t] > problem_.persistentBytes[node][s] ||
         problem_.transientBytes[node][t] > problem_.transientBytes[node][s])) {
      return false;
    }
    for (int e : incident_[node]) {
      const IlpEdge& edge = problem_.edges[e];
      const size_t width = problem_.nodeCosts[edge.to].size();
      if (edge.from == edge.to) {
        // A tied group's edge to itself prices the same strategy at both ends.
        if (edge.cost[t * width + t] > edge.cost[s * width + s]) return false;
      } else if (edge.from == node) {
        for (size_t c = 0; c < width; ++c) {
          if (edge.cost[t * width + c] > edge.cost[s * width + c]) return false;
        }
      } else {
        const size_t rows = problem_.nodeCosts[edge.from].size();
        for (size_t r = 0; r < rows; ++r) {
          if (edge.cost[r * width + t] > edge.cost[r * width + s]) return false;
        }
      }
    }
    return true;
  }

  // Strictly dominated, or equal to an earlier strategy. The relation is acyclic, so every
  // dropped strategy has a kept one that is no worse.
  bool dropped(int node, size_t s) const {
    for (size_t t = 0; t < problem_.nodeCosts[node].size(); ++t) {
      if (t == s || !noWorse(node, t, s)) continue;
      if (t < s || !noWorse(node, s, t)) return true;
    }
    return false;
  }

 private:
  const IlpProblem& problem_;
  std::vector<std::vector<int>> incident_;
};

}  // namespace

std::vector<int> DominanceReduced::expand(const std::vector<int>& choice) const {
  std::vector<int> original(choice.size());
  for (size_t n = 0; n < choice.size(); ++n) original[n] = kept[n][choice[n]];
  return original;
}

DominanceReduced dropDominatedStrategies(const IlpProblem& problem) {
  DominanceReduced reduced;
  const size_t numNodes = problem.nodeCosts.size();
  reduced.kept.resize(numNodes);
  if ((problem.memoryLimit > 0 && !problem.memoryPoints.empty()) || !problem.excluded.empty()) {
    // A strategy that costs more may still hold fewer bytes at some point of the program
    // (its own value, or a reshard buffer on an edge), so under the per-point memory rows
    // no strategy is dropped. Nor with plans to exclude: the best plan other than an
    // excluded one may be that plan with one strategy swapped for a dominated one.
    reduced.problem = problem;
    for (size_t n = 0; n < numNodes; ++n) {
      for (size_t s = 0; s < problem.nodeCosts[n].size(); ++s) {
        reduced.kept[n].push_back(static_cast<int>(s));
      }
    }
    return reduced;
  }
  const Dominance dominance(problem);
  const bool withMemory = !problem.persistentBytes.empty();
  for (size_t n = 0; n < numNodes; ++n) {
    std::vector<double> costs, persistent, transient;
    for (size_t s = 0; s < problem.nodeCosts[n].size(); ++s) {
      if (dominance.dropped(static_cast<int>(n), s)) {
        ++reduced.dropped;
        continue;
      }
      reduced.kept[n].push_back(static_cast<int>(s));
      costs.push_back(problem.nodeCosts[n][s]);
      if (withMemory) {
        persistent.push_back(problem.persistentBytes[n][s]);
        transient.push_back(problem.transientBytes[n][s]);
      }
    }
    reduced.problem.nodeCosts.push_back(std::move(costs));
    if (withMemory) {
      reduced.problem.persistentBytes.push_back(std::move(persistent));
      reduced.problem.transientBytes.push_back(std::move(transient));
    }
  }
  for (const IlpEdge& edge : problem.edges) {
    const std::vector<int>& rows = reduced.kept[edge.from];
    const std::vector<int>& cols = reduced.kept[edge.to];
    const size_t width = problem.nodeCosts[edge.to].size();
    IlpEdge kept{edge.from, edge.to, {}};
    kept.cost.reserve(rows.size() * cols.size());
    for (int r : rows) {
      for (int c : cols) kept.cost.push_back(edge.cost[r * width + c]);
    }
    reduced.problem.edges.push_back(std::move(kept));
  }
  reduced.problem.memoryLimit = problem.memoryLimit;
  reduced.problem.timeLimitSeconds = problem.timeLimitSeconds;
  return reduced;
}

}  // namespace tessel::auto_sharding
