// Greedy start and one-node-at-a-time improvement for the strategy-choice ILP.
#include "partitioner/auto/initial_plan.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace tessel::auto_sharding {
namespace {

// Improvement passes over all nodes; each pass costs about one look at every edge table
// row, and on layered programs the plan settles in two or three.
constexpr int kMaxPasses = 8;

class Planner {
 public:
  explicit Planner(const IlpProblem& problem)
      : problem_(problem),
        incident_(problem.nodeCosts.size()),
        choice_(problem.nodeCosts.size(), -1),
        withPoints_(problem.memoryLimit > 0 && !problem.memoryPoints.empty()),
        withMemory_(!withPoints_ && problem.memoryLimit > 0 &&
                    !problem.persistentBytes.empty()) {
    if (withPoints_) {
      // Per node and strategy, its bytes summed over the points: what `leanest` minimises.
      pointBytes_.resize(problem.nodeCosts.size());
      for (size_t n = 0; n < problem.nodeCosts.size(); ++n) {
        pointBytes_[n].assign(problem.nodeCosts[n].size(), 0.0);
      }
      for (const IlpMemoryPoint& point : problem.memoryPoints) {
        for (const auto& [node, bytes] : point.nodeBytes) {
          for (size_t s = 0; s < bytes.size(); ++s) pointBytes_[node][s] += bytes[s];
        }
      }
    }
    for (size_t e = 0; e < problem.edges.size(); ++e) {
      incident_[problem.edges[e].from].push_back(static_cast<int>(e));
      if (problem.edges[e].to != problem.edges[e].from) {
        incident_[problem.edges[e].to].push_back(static_cast<int>(e));
      }
    }
  }

  std::optional<std::vector<int>> plan() {
    for (size_t n = 0; n < choice_.size(); ++n) choice_[n] = cheapest(static_cast<int>(n));
    if (!fitsMemory(problem_, choice_)) {
      for (size_t n = 0; n < choice_.size(); ++n) choice_[n] = leanest(static_cast<int>(n));
      if (!fitsMemory(problem_, choice_)) return std::nullopt;
    }
    improve();
    return choice_;
  }

 private:
  // The cost of `node` taking `s` given the choices made so far (unchosen neighbours, -1,
  // add nothing).
  double localCost(int node, int s) const {
    double cost = problem_.nodeCosts[node][s];
    for (int e : incident_[node]) {
      const IlpEdge& edge = problem_.edges[e];
      const size_t width = problem_.nodeCosts[edge.to].size();
      if (edge.from == edge.to) {
        cost += edge.cost[s * width + s];
      } else if (edge.from == node) {
        if (choice_[edge.to] >= 0) cost += edge.cost[s * width + choice_[edge.to]];
      } else if (choice_[edge.from] >= 0) {
        cost += edge.cost[choice_[edge.from] * width + s];
      }
    }
    return cost;
  }

  int cheapest(int node) const {
    int best = 0;
    double bestCost = std::numeric_limits<double>::infinity();
    for (size_t s = 0; s < problem_.nodeCosts[node].size(); ++s) {
      const double cost = localCost(node, static_cast<int>(s));
      if (cost < bestCost) {
        bestCost = cost;
        best = static_cast<int>(s);
      }
    }
    return best;
  }

  // The strategy holding the fewest bytes for the whole step, then the smallest value.
  int leanest(int node) const {
    if (withPoints_) {
      const std::vector<double>& bytes = pointBytes_[node];
      return static_cast<int>(std::min_element(bytes.begin(), bytes.end()) - bytes.begin());
    }
    if (!withMemory_) return 0;
    const auto& persistent = problem_.persistentBytes[node];
    const auto& transient = problem_.transientBytes[node];
    int best = 0;
    for (size_t s = 1; s < persistent.size(); ++s) {
      if (persistent[s] < persistent[best] ||
          (persistent[s] == persistent[best] && transient[s] < transient[best])) {
        best = static_cast<int>(s);
      }
    }
    return best;
  }

  void improve() {
    double persistent = 0, largest = 0;
    for (int pass = 0; pass < kMaxPasses; ++pass) {
      if (withMemory_) {
        persistent = largest = 0;
        for (size_t n = 0; n < choice_.size(); ++n) {
          persistent += problem_.persistentBytes[n][choice_[n]];
          largest = std::max(largest, problem_.transientBytes[n][choice_[n]]);
        }
      }
      bool changed = false;
      for (size_t n = 0; n < choice_.size(); ++n) {
        const int node = static_cast<int>(n);
        const int current = choice_[n];
        double bestCost = localCost(node, current);
        int best = current;
        for (size_t s = 0; s < problem_.nodeCosts[n].size(); ++s) {
          if (static_cast<int>(s) == current) continue;
          if (withMemory_) {
            // The largest value can only grow to this strategy's, so this bound is safe.
            const double bytes = persistent - problem_.persistentBytes[n][current] +
                                 problem_.persistentBytes[n][s] +
                                 std::max(largest, problem_.transientBytes[n][s]);
            if (bytes > problem_.memoryLimit) continue;
          }
          const double cost = localCost(node, static_cast<int>(s));
          // A relative margin keeps rounding noise from swapping equal strategies forever.
          if (cost < bestCost - 1e-12 * std::abs(bestCost) && pointsAllow(node, s)) {
            bestCost = cost;
            best = static_cast<int>(s);
          }
        }
        if (best == current) continue;
        if (withMemory_) {
          persistent += problem_.persistentBytes[n][best] - problem_.persistentBytes[n][current];
          largest = std::max(largest, problem_.transientBytes[n][best]);
        }
        choice_[n] = best;
        changed = true;
      }
      if (!changed) break;
    }
  }

  // Whether `node` may move to `s` under the memory points' rows: the whole peak is
  // evaluated again, but only for moves that would lower the cost.
  bool pointsAllow(int node, size_t s) {
    if (!withPoints_) return true;
    const int current = choice_[node];
    choice_[node] = static_cast<int>(s);
    const bool fits = peakOf(problem_, choice_).first <= problem_.memoryLimit;
    choice_[node] = current;
    return fits;
  }

  const IlpProblem& problem_;
  std::vector<std::vector<int>> incident_;  // per node, the edges that touch it
  std::vector<int> choice_;
  bool withPoints_;
  bool withMemory_;
  std::vector<std::vector<double>> pointBytes_;
};

}  // namespace

bool fitsMemory(const IlpProblem& problem, const std::vector<int>& choice) {
  if (problem.memoryLimit > 0 && !problem.memoryPoints.empty()) {
    return peakOf(problem, choice).first <= problem.memoryLimit;
  }
  if (problem.memoryLimit <= 0 || problem.persistentBytes.empty()) return true;
  double persistent = 0, largest = 0;
  for (size_t n = 0; n < choice.size(); ++n) {
    persistent += problem.persistentBytes[n][choice[n]];
    largest = std::max(largest, problem.transientBytes[n][choice[n]]);
  }
  return persistent + largest <= problem.memoryLimit;
}

std::optional<std::vector<int>> initialPlan(const IlpProblem& problem) {
  return Planner(problem).plan();
}

}  // namespace tessel::auto_sharding
