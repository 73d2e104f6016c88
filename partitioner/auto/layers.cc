// Repeated-layer detection by the longest repeated period of node signatures, and the ILP
// over tied groups.
#include "partitioner/auto/layers.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <utility>

#include "llvm/ADT/DenseMap.h"
#include "mlir/IR/Block.h"
#include "mlir/IR/Operation.h"
#include "partitioner/auto/dominated.h"
#include "partitioner/auto/memory_rows.h"

namespace tessel::auto_sharding {
namespace {

uint64_t mix(uint64_t hash, uint64_t value) {
  // splitmix64's finalizer over the running hash: cheap, and spreads every input bit.
  hash ^= value + 0x9e3779b97f4a7c15ULL + (hash << 6) + (hash >> 2);
  hash ^= hash >> 30;
  hash *= 0xbf58476d1ce4e5b9ULL;
  hash ^= hash >> 27;
  hash *= 0x94d049bb133111ebULL;
  return hash ^ (hash >> 31);
}

uint64_t mixDoubles(uint64_t hash, const std::vector<double>& values) {
  hash = mix(hash, values.size());
  for (double v : values) {
    uint64_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    hash = mix(hash, bits);
  }
  return hash;
}

uint64_t mixString(uint64_t hash, const std::string& text) {
  for (char c : text) hash = mix(hash, static_cast<unsigned char>(c));
  return hash;
}

// Costs and bytes are compared bit for bit: identical ops on identical shapes get identical
// doubles from the same arithmetic, and anything else is not the same layer.
bool sameCosts(const IlpProblem& problem, int a, int b) {
  if (problem.nodeCosts[a] != problem.nodeCosts[b]) return false;
  if (problem.persistentBytes.empty()) return true;
  return problem.persistentBytes[a] == problem.persistentBytes[b] &&
         problem.transientBytes[a] == problem.transientBytes[b];
}

// Runs of layers looked for, the longest first (an encoder and a decoder make two).
constexpr int kMaxRuns = 8;
// Mixed with a position into the signature of a position already searched.
constexpr uint64_t kSearched = 0x5ea4c4edULL;

class Finder {
 public:
  Finder(const CostGraph& graph, const IlpProblem& problem)
      : graph_(graph),
        problem_(problem),
        inEdges_(problem.nodeCosts.size()),
        followed_(problem.nodeCosts.size(), false) {
    for (size_t e = 0; e < problem.edges.size(); ++e) {
      inEdges_[problem.edges[e].to].push_back(static_cast<int>(e));
    }
    for (size_t n = 0; n < graph.nodes.size(); ++n) {
      sequencePosition_.push_back(graph.nodes[n].op ? static_cast<int64_t>(sequence_.size()) : -1);
      if (graph.nodes[n].op != nullptr) sequence_.push_back(static_cast<int>(n));
    }
  }

  RepeatedLayers find() {
    RepeatedLayers result;
    const size_t numNodes = problem_.nodeCosts.size();
    result.leader.resize(numNodes);
    for (size_t n = 0; n < numNodes; ++n) result.leader[n] = static_cast<int>(n);
    std::vector<uint64_t> signatures;
    signatures.reserve(sequence_.size());
    for (int n : sequence_) signatures.push_back(signature(n));
    // An encoder and a decoder are two runs: after the longest run, the longest among the
    // positions left, and so on.
    for (int run = 0; run < kMaxRuns; ++run) {
      const Period best = longestPeriod(signatures);
      if (best.count < 2) break;
      // Tie layer by layer; a layer that turns out different on exact comparison (a hash
      // collision, or copies that do not follow one another) ends the run there.
      int64_t layers = 1;
      for (; layers < best.count; ++layers) {
        if (!followsPrevious(best, layers) || !tieLayer(best, layers, result.leader)) break;
      }
      // The positions searched are not searched again, tied or not: the same period would
      // be found again. Each gets a signature of its own, which matches nothing.
      const size_t end = best.start + static_cast<size_t>(layers < 2 ? best.count : layers) *
                                          best.length;
      for (size_t i = best.start; i < end && i < signatures.size(); ++i) {
        signatures[i] = mix(kSearched, i);
      }
      if (layers < 2) continue;
      if (result.layers == 1) {
        result.layers = layers;
        result.nodesPerLayer = best.length;
      }
      result.runs.push_back(layers);
    }
    return result;
  }

 private:
  struct Period {
    size_t start = 0;
    size_t length = 0;
    int64_t count = 0;
  };

  // Op name, costs, bytes and the number of in-edges. The edges' tables are compared when
  // a layer is tied (tieLayer): those inside a layer must match, while those that enter
  // it may not (the first layer reads the program's input where later layers read the
  // previous layer's output, which may offer other layouts).
  uint64_t signature(int n) const {
    uint64_t hash = mixString(0, graph_.nodes[n].name);
    hash = mixDoubles(hash, problem_.nodeCosts[n]);
    if (!problem_.persistentBytes.empty()) {
      hash = mixDoubles(hash, problem_.persistentBytes[n]);
      hash = mixDoubles(hash, problem_.transientBytes[n]);
    }
    return mix(hash, inEdges_[n].size());
  }

  // The period covering the most nodes: for each length P, every maximal run of positions
  // j with h[j] == h[j + P] makes a P-periodic stretch of run + P signatures, holding
  // floor((run + P) / P) whole copies. Ties go to the shorter period (the first found).
  // O(L^2 / 2) comparisons of 64-bit values: 17 million for 5,800 op nodes.
  static Period longestPeriod(const std::vector<uint64_t>& h) {
    Period best;
    const size_t length = h.size();
    for (size_t period = 1; period <= length / 2; ++period) {
      size_t run = 0;
      for (size_t j = 0; j + period <= length; ++j) {
        const bool same = j + period < length && h[j] == h[j + period];
        if (same) {
          ++run;
          continue;
        }
        const int64_t copies = static_cast<int64_t>((run + period) / period);
        if (copies >= 2 && copies * period > best.count * best.length) {
          best = Period{j - run, period, copies};
        }
        run = 0;
      }
    }
    return best;
  }

  // Ties layer `k` of `period` to layer 0: its op nodes, and the weights they read where
  // layer 0 reads other weights of the same kind. Returns false when layer k is not a copy
  // of layer 0: an op node differs, or an edge inside the layer does (another source
  // position, another table).
  bool tieLayer(const Period& period, int64_t k, std::vector<int>& leader) {
    const size_t offset = k * period.length;
    auto positionOf = [&](int node, size_t copy) -> int64_t {
      const int64_t at = sequencePosition_[node] - static_cast<int64_t>(period.start + copy);
      return at >= 0 && at < static_cast<int64_t>(period.length) ? at : -1;
    };
    // A layer has weights of its own: parameters that layer 0's counterparts do not read.
    // Without this, alike stretches inside one layer (softmax's two reductions) would pass.
    bool ownWeights = false;
    for (size_t i = 0; i < period.length; ++i) {
      const int first = sequence_[period.start + i];
      const int node = sequence_[period.start + offset + i];
      if (graph_.nodes[first].name != graph_.nodes[node].name ||
          !sameCosts(problem_, first, node) || inEdges_[first].size() != inEdges_[node].size()) {
        return false;
      }
      for (size_t e = 0; e < inEdges_[node].size(); ++e) {
        const IlpEdge& edge = problem_.edges[inEdges_[node][e]];
        const IlpEdge& counterpart = problem_.edges[inEdges_[first][e]];
        const int64_t source = positionOf(edge.from, offset);
        if (source != positionOf(counterpart.from, 0)) return false;
        if (source >= 0 && edge.cost != counterpart.cost) return false;
        ownWeights |= edge.from != counterpart.from && !graph_.nodes[edge.from].op &&
                      !graph_.nodes[counterpart.from].op &&
                      sameCosts(problem_, edge.from, counterpart.from);
      }
    }
    if (!ownWeights) return false;
    for (size_t i = 0; i < period.length; ++i) {
      const int first = sequence_[period.start + i];
      const int node = sequence_[period.start + offset + i];
      leader[node] = first;
      followed_[first] = true;
      for (size_t e = 0; e < inEdges_[node].size(); ++e) {
        tieOutside(problem_.edges[inEdges_[node][e]].from, problem_.edges[inEdges_[first][e]].from,
                   leader);
      }
    }
    return true;
  }

  // Whether an op of copy `k` uses, through the program's values, a result of copy k - 1:
  // layers run one after another. Parallel branches that look alike (the q, k and v
  // projections of one attention) are not layers, and tying them could cost: q and k
  // enter their product from different sides.
  bool followsPrevious(const Period& period, int64_t k) {
    if (programOrder_.empty()) {
      mlir::Block* body = graph_.nodes[sequence_.front()].op->getBlock();
      for (mlir::Operation& op : *body) {
        orderOf_[&op] = static_cast<int>(programOrder_.size());
        programOrder_.push_back(&op);
      }
    }
    // Per op in program order: 1 in copy k - 1, 2 in copy k.
    std::vector<char> copyMark(programOrder_.size(), 0);
    size_t from = programOrder_.size(), to = 0;
    for (int64_t c : {k - 1, k}) {
      for (size_t i = 0; i < period.length; ++i) {
        const GraphNode& node = graph_.nodes[sequence_[period.start + c * period.length + i]];
        auto mark = [&](mlir::Operation* op) {
          auto it = orderOf_.find(op);
          if (it == orderOf_.end()) return;
          copyMark[it->second] = c == k ? 2 : 1;
          from = std::min<size_t>(from, it->second);
          to = std::max<size_t>(to, it->second);
        };
        mark(node.op);
        for (mlir::Operation* follower : node.followers) mark(follower);
      }
    }
    std::vector<char> reached(programOrder_.size(), 0);
    for (size_t i = from; i <= to && i < programOrder_.size(); ++i) {
      for (mlir::Value operand : programOrder_[i]->getOperands()) {
        auto it = orderOf_.find(operand.getDefiningOp());
        if (it == orderOf_.end()) continue;
        if (copyMark[it->second] == 1 || reached[it->second]) reached[i] = 1;
      }
      if (reached[i] && copyMark[i] == 2) return true;
    }
    return false;
  }

  // A node outside the op sequence (a parameter) read by a tied node follows the one its
  // counterpart reads, when both are parameters of the same kind and `node` is still free.
  // A parameter read by every layer (the residual stream's) is its own counterpart.
  void tieOutside(int node, int counterpart, std::vector<int>& leader) {
    if (node == counterpart || graph_.nodes[node].op || graph_.nodes[counterpart].op) return;
    const int target = leader[counterpart];
    // A node others already follow stays a leader: one lookup must reach the group.
    if (leader[node] != node || followed_[node] || target == node ||
        !sameCosts(problem_, node, target)) {
      return;
    }
    leader[node] = target;
    followed_[target] = true;
  }

  const CostGraph& graph_;
  const IlpProblem& problem_;
  std::vector<std::vector<int>> inEdges_;
  std::vector<int> sequence_;              // op nodes in program order
  std::vector<int64_t> sequencePosition_;  // per node, its index in sequence_, or -1
  std::vector<bool> followed_;             // whether some node takes this one's strategy
  // The function's ops in program order, for followsPrevious.
  std::vector<mlir::Operation*> programOrder_;
  llvm::DenseMap<mlir::Operation*, int> orderOf_;
};

}  // namespace

RepeatedLayers findRepeatedLayers(const CostGraph& graph, const IlpProblem& problem) {
  return Finder(graph, problem).find();
}

IlpProblem tieNodes(const IlpProblem& problem, const std::vector<int>& leader,
                    std::vector<int>* groupOf) {
  const size_t numNodes = problem.nodeCosts.size();
  groupOf->assign(numNodes, -1);
  IlpProblem tied;
  const bool withMemory = !problem.persistentBytes.empty();
  for (size_t n = 0; n < numNodes; ++n) {
    if (leader[n] != static_cast<int>(n)) continue;
    (*groupOf)[n] = static_cast<int>(tied.nodeCosts.size());
    tied.nodeCosts.push_back(problem.nodeCosts[n]);
    if (withMemory) {
      tied.persistentBytes.push_back(problem.persistentBytes[n]);
      tied.transientBytes.push_back(problem.transientBytes[n]);
    }
  }
  for (size_t n = 0; n < numNodes; ++n) {
    if (leader[n] == static_cast<int>(n)) continue;
    const int group = (*groupOf)[leader[n]];
    (*groupOf)[n] = group;
    for (size_t s = 0; s < problem.nodeCosts[n].size(); ++s) {
      tied.nodeCosts[group][s] += problem.nodeCosts[n][s];
      if (withMemory) {
        tied.persistentBytes[group][s] += problem.persistentBytes[n][s];
        tied.transientBytes[group][s] =
            std::max(tied.transientBytes[group][s], problem.transientBytes[n][s]);
      }
    }
  }
  // solveIlp adds up edges between the same two groups, so N layers' copies of an edge
  // become one table N times as costly.
  tied.edges.reserve(problem.edges.size());
  for (const IlpEdge& edge : problem.edges) {
    tied.edges.push_back({(*groupOf)[edge.from], (*groupOf)[edge.to], edge.cost});
  }
  // Each memory point keeps its row, now over the groups' variables, with the terms of one
  // group (or one pair of groups) added up: N layers' copies of a weight live at a point
  // are one term N times as large. The copies of a layer then give rows alike up to their
  // constants (the bytes of other layers' values live there): of rows with the same terms
  // only the one with the largest constant can bind, so one row per distinct set of terms
  // is kept and the ILP stays about one layer's size.
  MemoryRows rows;
  for (const IlpMemoryPoint& point : problem.memoryPoints) {
    for (const auto& [node, bytes] : point.nodeBytes) rows.addNodeTerm((*groupOf)[node], bytes);
    for (const IlpEdge& edge : point.edgeBytes) {
      rows.addEdgeTerm((*groupOf)[edge.from], (*groupOf)[edge.to], edge.cost);
    }
    rows.finishRow(point.constantBytes);
  }
  tied.memoryPoints = std::move(rows).take();
  // A plan to exclude is taken per group from the group's leader: exact for the plans a
  // tied solve returns, whose members all take their leader's strategy.
  for (const std::vector<int>& plan : problem.excluded) {
    std::vector<int> mapped(tied.nodeCosts.size(), 0);
    for (size_t n = 0; n < numNodes && n < plan.size(); ++n) {
      if (leader[n] == static_cast<int>(n)) mapped[(*groupOf)[n]] = plan[n];
    }
    tied.excluded.push_back(std::move(mapped));
  }
  tied.memoryLimit = problem.memoryLimit;
  tied.timeLimitSeconds = problem.timeLimitSeconds;
  return tied;
}

absl::StatusOr<IlpSolution> solveTied(const IlpProblem& problem, const std::vector<int>& leader,
                                      double timeLimitSeconds) {
  const size_t numNodes = problem.nodeCosts.size();
  if (leader.size() != numNodes) {
    return absl::InvalidArgumentError("the tie map does not cover every node");
  }
  for (size_t n = 0; n < numNodes; ++n) {
    const int l = leader[n];
    if (l < 0 || static_cast<size_t>(l) >= numNodes || leader[l] != l ||
        problem.nodeCosts[l].size() != problem.nodeCosts[n].size()) {
      return absl::InvalidArgumentError(
          "a node is tied to one that is not a leader or has other strategies");
    }
  }
  std::vector<int> groupOf;
  IlpProblem tied = tieNodes(problem, leader, &groupOf);
  tied.timeLimitSeconds = timeLimitSeconds;
  const DominanceReduced reduced = dropDominatedStrategies(tied);
  absl::StatusOr<IlpSolution> solved = solveIlp(reduced.problem);
  if (!solved.ok()) return solved.status();
  const std::vector<int> groupChoice = reduced.expand(solved->choice);
  IlpSolution solution = *solved;
  solution.choice.resize(numNodes);
  for (size_t n = 0; n < numNodes; ++n) solution.choice[n] = groupChoice[groupOf[n]];
  solution.objective = costOf(problem, solution.choice);
  return solution;
}

absl::StatusOr<IlpSolution> solveTied(const IlpProblem& problem, const std::vector<int>& leader) {
  return solveTied(problem, leader, problem.timeLimitSeconds);
}

}  // namespace tessel::auto_sharding
