// Memory rows of the strategy-choice ILP built term by term, the way both the liveness model
// and the tying of layers need them: the terms of one node (or one pair of nodes) added up,
// and rows whose terms are all alike kept once, with the largest constant (only that one
// can bind).
//
//   MemoryRows rows;
//   rows.addNodeTerm(group, bytes);                       // per node, bytes per strategy
//   rows.addEdgeTerm(from, to, table);                    // per pair, a table as IlpEdge's
//   auto [row, kept] = rows.finishRow(constantBytes);
//   problem.memoryPoints = std::move(rows).take();
#ifndef TESSEL_PARTITIONER_AUTO_MEMORY_ROWS_H_
#define TESSEL_PARTITIONER_AUTO_MEMORY_ROWS_H_

#include <cstddef>
#include <map>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "partitioner/auto/ilp.h"

namespace tessel::auto_sharding {

class MemoryRows {
 public:
  // Terms of the row being built; a node's (or a pair's) bytes add up with its earlier ones.
  void addNodeTerm(int node, const std::vector<double>& bytes);
  void addEdgeTerm(int from, int to, const std::vector<double>& bytes);

  // Ends the row being built, holding `constantBytes` besides its terms. Returns the index
  // of the row that stands for it, and whether its constant is the one that row keeps (a
  // new row, or a larger constant than an alike row's).
  std::pair<size_t, bool> finishRow(double constantBytes);

  std::vector<IlpMemoryPoint> take() && { return std::move(rows_); }

 private:
  std::map<int, std::vector<double>> nodeTerms_;
  std::map<std::pair<int, int>, std::vector<double>> edgeTerms_;
  std::vector<IlpMemoryPoint> rows_;
  // Each row's terms as bytes, to find alike rows.
  std::unordered_map<std::string, size_t> rowOf_;
};

}  // namespace tessel::auto_sharding

#endif  // TESSEL_PARTITIONER_AUTO_MEMORY_ROWS_H_
