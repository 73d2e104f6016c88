// Auto-sharding's memory model: the bytes each device holds at every point of the function,
// as a function of the plan, so that the ILP can keep the peak the cost report computes
// (cost_model/peak_memory.h: every value live from its op to its last use, parameters
// throughout) under the memory limit.
//
// A point is a top-level op. What is live there:
//   - every parameter, and every value defined at or before the op and used at or after
//     it, in the layout its node's strategy gives it (a merged elementwise op's value is
//     its node's);
//   - the buffers the partitioner adds at the op: each operand resharded into the layout
//     the op's strategy needs (a table over the producer's and the consumer's strategies),
//     and the partial result of an op whose strategy all-reduces, held beside the reduced
//     one;
//   - values the graph does not describe, and values inside regions, whole (a constant).
// A point whose live values are a subset of a neighbour's, and which adds no buffers of its
// own, cannot be the peak and is left out.
//
//   LivenessPoints live = livenessPoints(graph, main);
//   problem.memoryPoints = live.points;   // live.ops[p]: the op of point p
#ifndef TESSEL_PARTITIONER_AUTO_LIVENESS_H_
#define TESSEL_PARTITIONER_AUTO_LIVENESS_H_

#include <vector>

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "partitioner/auto/cost_graph.h"
#include "partitioner/auto/ilp.h"

namespace tessel::auto_sharding {

struct LivenessPoints {
  std::vector<IlpMemoryPoint> points;
  std::vector<mlir::Operation*> ops;  // per point, the op it stands at
};

// The points of `func`, whose cost graph is `graph`.
LivenessPoints livenessPoints(const CostGraph& graph, mlir::func::FuncOp func);

// A lower bound of the bytes live at `point` under any plan: each term at its smallest.
// Where it exceeds the memory limit, no plan fits, and that point is the place to name.
double fewestBytes(const IlpMemoryPoint& point);

// Bytes per device the partitioner holds beside `from` while it turns `type` laid out as
// `from` into `to` and until the consumer has run: `to`'s piece when one collective (or one
// local slice) does it; with several steps (an uneven dimension's gather is two: the padded
// gather, then the slice), two intermediates at once, each at most the padded piece of the
// layout that keeps only the axes both share.
double reshardBufferBytes(const Layout& from, const Layout& to, mlir::ShapedType type,
                          ir::MeshAttr mesh);

}  // namespace tessel::auto_sharding

#endif  // TESSEL_PARTITIONER_AUTO_LIVENESS_H_
