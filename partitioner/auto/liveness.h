// Auto-sharding's memory model: the bytes each device holds at every point of the function,
// as a function of the plan, so that the ILP can keep the peak the cost report computes
// (cost_model/peak_memory.h: every value live from its op to its last use, parameters
// throughout) under the memory limit.
//
// A point is an op of the function: a top-level op, or an op of a while loop's condition
// or body or of a case's branch (the inner points come just before the op's own). What is
// live there:
//   - every parameter, and every value defined at or before the op and used at or after
//     it, in the layout its node's strategy gives it (a merged elementwise op's value is
//     its node's); a loop's inputs and results are live over all its inner points, its
//     region arguments are the same state and count no more, and the body's values that
//     the partitioner hoists before the loop (computed from what does not change) are
//     live over all of it;
//   - the buffers the partitioner adds at the op: each operand resharded into the layout
//     the op's strategy needs (a table over the producer's and the consumer's strategies),
//     and the partial result of an op whose strategy all-reduces, held beside the reduced
//     one;
//   - the same for a case: its results over its branches' points, the ops every branch
//     computes alike (hoisted before it) over all of them;
//   - values the graph does not describe, and values inside the regions of other ops
//     (reducers), whole (a constant).
// A point whose live values are a subset of a neighbour's, and which adds no buffers of its
// own, cannot be the peak and is left out.
//
// Only points that some plan could fill past the limit become rows: the others cannot bind.
// The model keeps live ranges, not live sets, so it is linear in the program; a row lists
// the values live at its point.
//
//   LivenessModel memory(graph, main);
//   LivenessPoints live = memory.rowsOver(limit);
//   problem.memoryPoints = live.points;           // live.ops[p]: the op of point p
//   auto [peak, at] = memory.peakOf(solution.choice);
#ifndef TESSEL_PARTITIONER_AUTO_LIVENESS_H_
#define TESSEL_PARTITIONER_AUTO_LIVENESS_H_

#include <cstdint>
#include <utility>
#include <vector>

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "partitioner/auto/cost_graph.h"
#include "partitioner/auto/ilp.h"

namespace tessel::auto_sharding {

struct LivenessPoints {
  std::vector<IlpMemoryPoint> points;
  std::vector<mlir::Operation*> ops;  // per point, the op it stands at
};

class LivenessModel {
 public:
  // A live range: the first and last point (op index) a value is held at.
  struct Range {
    int64_t first = 0;
    int64_t last = 0;
  };

  // The model of `func`, whose cost graph is `graph` (which must outlive it).
  LivenessModel(const CostGraph& graph, mlir::func::FuncOp func);

  // The ILP's rows: the points where the most a plan can hold exceeds `limit` bytes, one
  // term per node and pair of nodes. With `leader` (layers.h), every node's terms go to
  // its leader, so the rows hold for plans whose tied nodes take their leader's strategy
  // (what a tied solve returns), and copies of a layer give one row. Rows with the same
  // terms are one, with the largest constant (and its op).
  LivenessPoints rowsOver(double limit, const std::vector<int>* leader = nullptr) const;

  // The model's peak under `choice` (a strategy per graph node) and the op where it is
  // first reached (null for an empty function).
  std::pair<double, mlir::Operation*> peakOf(const std::vector<int>& choice) const;

 private:
  template <typename Visit>
  void forEachLiveValue(int64_t point, Visit visit) const;

  const CostGraph* graph_;
  std::vector<mlir::Operation*> ops_;     // per point
  std::vector<IlpMemoryPoint> own_;       // per point: its buffers and whole bytes
  std::vector<bool> kept_;                // per point: false where a neighbour dominates
  std::vector<Range> valueRanges_;        // per graph value (last < first: never live)
  std::vector<std::vector<double>> valueBytes_;  // per graph value, per strategy of its node
};

// A lower bound of the bytes live at `point` under any plan: each term at its smallest.
// Where it exceeds the memory limit, no plan fits, and that point is the place to name.
double fewestBytes(const IlpMemoryPoint& point);

// An upper bound of the bytes live at `point` under any plan: each term at its largest.
double mostBytes(const IlpMemoryPoint& point);

// Bytes per device the partitioner holds beside `from` while it turns `type` laid out as
// `from` into `to` and until the consumer has run: `to`'s piece when one collective (or one
// local slice) does it; with several steps (an uneven dimension's gather is two: the padded
// gather, then the slice), two intermediates at once, each at most the padded piece of the
// layout that keeps only the axes both share.
double reshardBufferBytes(const Layout& from, const Layout& to, mlir::ShapedType type,
                          ir::MeshAttr mesh);

}  // namespace tessel::auto_sharding

#endif  // TESSEL_PARTITIONER_AUTO_LIVENESS_H_
