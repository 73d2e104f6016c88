// The strategy-choice ILP handed to CBC (CLP for the LP relaxations).
#include "partitioner/auto/ilp.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <utility>

#include "absl/strings/str_cat.h"
#include "coin/CbcModel.hpp"
#include "coin/CoinPackedMatrix.hpp"
#include "coin/CoinPackedVector.hpp"
#include "coin/OsiClpSolverInterface.hpp"
#include "partitioner/auto/initial_plan.h"

namespace tessel::auto_sharding {
namespace {

// Costs go to CBC in microseconds and bytes in MiB: values near 1 keep its tolerances
// (1e-6 and up) meaningful, where seconds of 1e-7 and bytes of 1e10 would not be.
constexpr double kCostScale = 1e6;
constexpr double kByteScale = 1.0 / (1 << 20);

struct Rows {
  std::vector<CoinPackedVector> rows;
  std::vector<double> lower, upper;
  void add(CoinPackedVector row, double lo, double hi) {
    rows.push_back(std::move(row));
    lower.push_back(lo);
    upper.push_back(hi);
  }
};

}  // namespace

double costOf(const IlpProblem& problem, const std::vector<int>& choice) {
  double total = 0;
  for (size_t n = 0; n < problem.nodeCosts.size(); ++n) total += problem.nodeCosts[n][choice[n]];
  for (const IlpEdge& edge : problem.edges) {
    const size_t width = problem.nodeCosts[edge.to].size();
    total += edge.cost[choice[edge.from] * width + choice[edge.to]];
  }
  return total;
}

std::pair<double, int> peakOf(const IlpProblem& problem, const std::vector<int>& choice) {
  double peak = 0;
  int where = -1;
  for (size_t p = 0; p < problem.memoryPoints.size(); ++p) {
    const IlpMemoryPoint& point = problem.memoryPoints[p];
    double bytes = point.constantBytes;
    for (const auto& [node, perStrategy] : point.nodeBytes) bytes += perStrategy[choice[node]];
    for (const IlpEdge& edge : point.edgeBytes) {
      const size_t width = problem.nodeCosts[edge.to].size();
      bytes += edge.cost[choice[edge.from] * width + choice[edge.to]];
    }
    if (where < 0 || bytes > peak) {
      peak = bytes;
      where = static_cast<int>(p);
    }
  }
  return {peak, where};
}

absl::StatusOr<IlpSolution> solveIlp(const IlpProblem& problem) {
  const auto start = std::chrono::steady_clock::now();
  const int numNodes = static_cast<int>(problem.nodeCosts.size());
  for (int n = 0; n < numNodes; ++n) {
    if (problem.nodeCosts[n].empty()) {
      return absl::InvalidArgumentError(absl::StrCat("node ", n, " has no strategies"));
    }
  }
  const bool withPoints = problem.memoryLimit > 0 && !problem.memoryPoints.empty();
  const bool withMemory =
      !withPoints && problem.memoryLimit > 0 && !problem.persistentBytes.empty();
  auto fits = [&](const IlpEdge& edge) {
    return edge.from >= 0 && edge.from < numNodes && edge.to >= 0 && edge.to < numNodes &&
           edge.cost.size() == problem.nodeCosts[edge.from].size() *
                                   problem.nodeCosts[edge.to].size();
  };
  for (const IlpEdge& edge : problem.edges) {
    if (!fits(edge)) {
      return absl::InvalidArgumentError("an edge's cost table does not fit its nodes");
    }
  }
  for (const IlpMemoryPoint& point : problem.memoryPoints) {
    for (const IlpEdge& edge : point.edgeBytes) {
      if (!fits(edge)) {
        return absl::InvalidArgumentError("a memory point's edge table does not fit its nodes");
      }
    }
    for (const auto& [node, bytes] : point.nodeBytes) {
      if (node < 0 || node >= numNodes || bytes.size() != problem.nodeCosts[node].size()) {
        return absl::InvalidArgumentError("a memory point's node bytes do not fit the node");
      }
    }
  }
  for (const std::vector<int>& plan : problem.excluded) {
    bool valid = plan.size() == static_cast<size_t>(numNodes);
    for (int n = 0; valid && n < numNodes; ++n) {
      valid = plan[n] >= 0 && static_cast<size_t>(plan[n]) < problem.nodeCosts[n].size();
    }
    if (!valid) {
      return absl::InvalidArgumentError("an excluded plan does not have one strategy per node");
    }
  }

  // Edge costs that depend on one real choice fold into that node; edges between the same
  // two nodes add up, so each pair gets one set of y variables.
  std::vector<std::vector<double>> nodeCosts = problem.nodeCosts;
  std::map<std::pair<int, int>, std::vector<double>> pairCosts;
  // Adds `edge`'s table, read as costs or bytes, to `perNode` (folded) or `perPair`.
  auto fold = [&](const IlpEdge& edge, std::vector<std::vector<double>>& perNode,
                  std::map<std::pair<int, int>, std::vector<double>>& perPair) {
    const size_t rows = problem.nodeCosts[edge.from].size();
    const size_t cols = problem.nodeCosts[edge.to].size();
    if (edge.from == edge.to) {
      for (size_t s = 0; s < rows; ++s) perNode[edge.from][s] += edge.cost[s * cols + s];
    } else if (rows == 1) {
      for (size_t t = 0; t < cols; ++t) perNode[edge.to][t] += edge.cost[t];
    } else if (cols == 1) {
      for (size_t s = 0; s < rows; ++s) perNode[edge.from][s] += edge.cost[s];
    } else {
      // Keyed by (low, high) node; a table from high to low is transposed.
      const bool forward = edge.from < edge.to;
      auto key = forward ? std::make_pair(edge.from, edge.to) : std::make_pair(edge.to, edge.from);
      std::vector<double>& sum = perPair[key];
      const size_t lowWidth = forward ? cols : rows;
      sum.resize(rows * cols, 0.0);
      for (size_t s = 0; s < rows; ++s) {
        for (size_t t = 0; t < cols; ++t) {
          const size_t at = forward ? s * lowWidth + t : t * lowWidth + s;
          sum[at] += edge.cost[s * cols + t];
        }
      }
    }
  };
  for (const IlpEdge& edge : problem.edges) fold(edge, nodeCosts, pairCosts);
  // Each memory point folded the same way: bytes per x, and per pair for the y variables.
  struct FoldedPoint {
    std::vector<std::vector<double>> perNode;
    std::map<std::pair<int, int>, std::vector<double>> perPair;
  };
  std::vector<FoldedPoint> points;
  if (withPoints) {
    for (const IlpMemoryPoint& point : problem.memoryPoints) {
      FoldedPoint folded;
      for (int n = 0; n < numNodes; ++n) {
        folded.perNode.emplace_back(problem.nodeCosts[n].size(), 0.0);
      }
      for (const auto& [node, bytes] : point.nodeBytes) {
        for (size_t s = 0; s < bytes.size(); ++s) folded.perNode[node][s] += bytes[s];
      }
      for (const IlpEdge& edge : point.edgeBytes) fold(edge, folded.perNode, folded.perPair);
      for (const auto& [key, bytes] : folded.perPair) {
        // A pair with memory but no cost still needs its y variables.
        pairCosts[key].resize(bytes.size(), 0.0);
      }
      points.push_back(std::move(folded));
    }
  }

  // Columns: x for every node and strategy, then y per kept edge, then M.
  std::vector<int> firstX(numNodes);
  int numCols = 0;
  for (int n = 0; n < numNodes; ++n) {
    firstX[n] = numCols;
    numCols += static_cast<int>(nodeCosts[n].size());
  }
  std::vector<double> objective(numCols), colLower(numCols, 0.0), colUpper(numCols, 1.0);
  for (int n = 0; n < numNodes; ++n) {
    for (size_t s = 0; s < nodeCosts[n].size(); ++s) {
      objective[firstX[n] + s] = nodeCosts[n][s] * kCostScale;
    }
  }
  Rows rows;
  for (int n = 0; n < numNodes; ++n) {
    CoinPackedVector one;
    for (size_t s = 0; s < nodeCosts[n].size(); ++s) one.insert(firstX[n] + s, 1.0);
    rows.add(one, 1.0, 1.0);
  }
  // The y block of each kept pair, to write the initial plan's columns.
  struct PairColumns {
    int low, high, firstY;
  };
  std::vector<PairColumns> pairColumns;
  std::map<std::pair<int, int>, int> firstYOf;
  for (const auto& [key, cost] : pairCosts) {
    const auto [low, high] = key;
    const size_t rowsN = nodeCosts[low].size(), colsN = nodeCosts[high].size();
    // A table with one value everywhere does not depend on the choice (costOf counts it,
    // and it shifts every plan alike), unless a memory point needs the pair.
    const auto [minIt, maxIt] = std::minmax_element(cost.begin(), cost.end());
    bool needed = *maxIt - *minIt > 1e-15;
    for (const FoldedPoint& point : points) needed |= point.perPair.count(key) > 0;
    if (!needed) continue;
    const int firstY = numCols;
    pairColumns.push_back({low, high, firstY});
    firstYOf[key] = firstY;
    numCols += static_cast<int>(rowsN * colsN);
    for (size_t i = 0; i < rowsN * colsN; ++i) {
      objective.push_back(cost[i] * kCostScale);
      colLower.push_back(0.0);
      colUpper.push_back(1.0);
    }
    for (size_t s = 0; s < rowsN; ++s) {
      CoinPackedVector row;
      for (size_t t = 0; t < colsN; ++t) row.insert(firstY + s * colsN + t, 1.0);
      row.insert(firstX[low] + s, -1.0);
      rows.add(row, 0.0, 0.0);
    }
    for (size_t t = 0; t < colsN; ++t) {
      CoinPackedVector row;
      for (size_t s = 0; s < rowsN; ++s) row.insert(firstY + s * colsN + t, 1.0);
      row.insert(firstX[high] + t, -1.0);
      rows.add(row, 0.0, 0.0);
    }
  }
  for (size_t p = 0; p < points.size(); ++p) {
    std::map<int, double> coefficients;
    for (int n = 0; n < numNodes; ++n) {
      for (size_t s = 0; s < points[p].perNode[n].size(); ++s) {
        if (points[p].perNode[n][s] != 0) {
          coefficients[firstX[n] + s] += points[p].perNode[n][s] * kByteScale;
        }
      }
    }
    for (const auto& [key, bytes] : points[p].perPair) {
      const int firstY = firstYOf.at(key);
      for (size_t i = 0; i < bytes.size(); ++i) {
        if (bytes[i] != 0) coefficients[firstY + static_cast<int>(i)] += bytes[i] * kByteScale;
      }
    }
    CoinPackedVector row;
    for (const auto& [column, value] : coefficients) row.insert(column, value);
    rows.add(row, -COIN_DBL_MAX,
             (problem.memoryLimit - problem.memoryPoints[p].constantBytes) * kByteScale);
  }
  for (const std::vector<int>& plan : problem.excluded) {
    CoinPackedVector row;
    double choices = 0;
    for (int n = 0; n < numNodes; ++n) {
      if (nodeCosts[n].size() < 2) continue;
      row.insert(firstX[n] + plan[n], 1.0);
      ++choices;
    }
    rows.add(row, -COIN_DBL_MAX, choices - 1);
  }
  const int memoryColumn = withMemory ? numCols : -1;
  if (withMemory) {
    const int m = numCols++;
    objective.push_back(0.0);
    colLower.push_back(0.0);
    colUpper.push_back(COIN_DBL_MAX);
    CoinPackedVector total;
    for (int n = 0; n < numNodes; ++n) {
      CoinPackedVector largest;
      bool any = false;
      for (size_t s = 0; s < nodeCosts[n].size(); ++s) {
        const double transient = problem.transientBytes[n][s] * kByteScale;
        const double persistent = problem.persistentBytes[n][s] * kByteScale;
        if (transient != 0) {
          largest.insert(firstX[n] + s, transient);
          any = true;
        }
        if (persistent != 0) total.insert(firstX[n] + s, persistent);
      }
      if (any) {
        largest.insert(m, -1.0);
        rows.add(largest, -COIN_DBL_MAX, 0.0);
      }
    }
    total.insert(m, 1.0);
    rows.add(total, -COIN_DBL_MAX, problem.memoryLimit * kByteScale);
  }

  CoinPackedMatrix matrix(false, 0, 0);
  matrix.setDimensions(0, numCols);
  // All rows at once: appended one by one, the matrix is copied into a larger buffer each
  // time, quadratic in its size (a 1k-instruction program's memory rows took 20 s so).
  std::vector<const CoinPackedVectorBase*> rowPointers;
  rowPointers.reserve(rows.rows.size());
  for (const CoinPackedVector& row : rows.rows) rowPointers.push_back(&row);
  matrix.appendRows(static_cast<int>(rowPointers.size()), rowPointers.data());
  OsiClpSolverInterface lp;
  lp.messageHandler()->setLogLevel(0);
  lp.loadProblem(matrix, colLower.data(), colUpper.data(), objective.data(), rows.lower.data(),
                 rows.upper.data());
  for (int n = 0; n < numNodes; ++n) {
    for (size_t s = 0; s < nodeCosts[n].size(); ++s) lp.setInteger(firstX[n] + s);
  }
  CbcModel model(lp);
  model.setLogLevel(0);
  model.messageHandler()->setLogLevel(0);

  // The initial plan is CBC's first incumbent: the search prunes against it from the start,
  // and a time limit that ends the search early still returns at least this plan.
  std::optional<std::vector<int>> initial = initialPlan(problem);
  // A first plan must be one the problem allows: a plan the cuts exclude (the runner-up's
  // search starts from the same greedy plan) would be taken as an incumbent unchecked.
  if (initial && std::find(problem.excluded.begin(), problem.excluded.end(), *initial) !=
                     problem.excluded.end()) {
    initial.reset();
  }
  if (initial) {
    std::vector<double> columns(numCols, 0.0);
    for (int n = 0; n < numNodes; ++n) columns[firstX[n] + (*initial)[n]] = 1.0;
    for (const PairColumns& pair : pairColumns) {
      const size_t width = nodeCosts[pair.high].size();
      columns[pair.firstY + (*initial)[pair.low] * width + (*initial)[pair.high]] = 1.0;
    }
    if (withMemory) {
      for (int n = 0; n < numNodes; ++n) {
        columns[memoryColumn] = std::max(
            columns[memoryColumn], problem.transientBytes[n][(*initial)[n]] * kByteScale);
      }
    }
    double value = 0;
    for (int c = 0; c < numCols; ++c) value += objective[c] * columns[c];
    model.setBestSolution(columns.data(), numCols, value, /*check=*/false);
  }
  // The limit counts from the call, so setting up (large graphs take a while) is in it.
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const bool searched = elapsed < problem.timeLimitSeconds;
  if (searched) {
    // CBC measures its limit in CPU seconds by default; on a loaded machine a 10 s limit
    // then took 26 s of wall time. The limit is the user's wall-clock wait.
    model.setUseElapsedTime(true);
    model.setMaximumSeconds(problem.timeLimitSeconds - elapsed);
    // CBC checks its limit between nodes, not inside an LP: the root relaxation of a large
    // memory-limited problem alone can outlast it. The LP solver gets the limit too.
    if (auto* clp = dynamic_cast<OsiClpSolverInterface*>(model.solver())) {
      clp->getModelPtr()->setMaximumWallSeconds(problem.timeLimitSeconds - elapsed);
    }
    model.branchAndBound();
  }

  IlpSolution solution;
  solution.solveSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const double* best = searched ? model.bestSolution() : nullptr;
  if (!searched && initial) {
    solution.choice = *initial;
    solution.objective = costOf(problem, solution.choice);
    return solution;
  }
  if (best == nullptr) {
    if (searched && model.isProvenInfeasible()) {
      if (!problem.excluded.empty()) {
        return absl::ResourceExhaustedError(
            absl::StrCat("no other plan fits the memory limit of ",
                         static_cast<int64_t>(problem.memoryLimit), " bytes per device"));
      }
      return absl::ResourceExhaustedError(
          absl::StrCat("no plan fits the memory limit of ",
                       static_cast<int64_t>(problem.memoryLimit), " bytes per device"));
    }
    return absl::DeadlineExceededError(absl::StrCat(
        "the solver found no plan within its time limit of ", problem.timeLimitSeconds, " s"));
  }
  solution.optimal = model.isProvenOptimal();
  solution.choice.resize(numNodes);
  for (int n = 0; n < numNodes; ++n) {
    int chosen = 0;
    for (size_t s = 0; s < nodeCosts[n].size(); ++s) {
      if (best[firstX[n] + s] > best[firstX[n] + chosen]) chosen = static_cast<int>(s);
    }
    solution.choice[n] = chosen;
  }
  solution.objective = costOf(problem, solution.choice);
  return solution;
}

}  // namespace tessel::auto_sharding
