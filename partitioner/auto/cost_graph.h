// The cost graph of one function for auto-sharding: a node per choice to make (a parameter's
// layout, an op's strategy), each strategy's cost (compute on one device, plus the all-reduce
// of partial results), and edges that price the reshard between what a producer's strategy
// yields and what a consumer's strategy needs.
//
// Elementwise ops join the node of the operand they follow instead of making their own:
// their layout is that operand's, their compute is added to that node's strategies, and
// their other operands become edges into it. A chain `add -> mul -> tanh` after a dot is
// then one choice, the dot's, which keeps the ILP small on large programs.
//
//   TESSEL_ASSIGN_OR_RETURN(CostGraph graph, buildCostGraph(main, spec));
//   IlpProblem problem = graph.problem(/*memoryLimit=*/16.0 * (1 << 30), /*seconds=*/10);
#ifndef TESSEL_PARTITIONER_AUTO_COST_GRAPH_H_
#define TESSEL_PARTITIONER_AUTO_COST_GRAPH_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "cost_model/hardware_spec.h"
#include "llvm/ADT/DenseMap.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "partitioner/auto/ilp.h"
#include "partitioner/auto/layout.h"

namespace tessel::auto_sharding {

struct GraphNode {
  // "parameter 0", or the op's name; for messages and explanations.
  std::string name;
  // The op whose strategy this node chooses (null for a parameter or a result's sink).
  mlir::Operation* op = nullptr;
  // Elementwise ops that joined this node.
  std::vector<mlir::Operation*> followers;
  // The user fixed the layout (an annotated parameter, a sharding constraint, an op with a
  // sharding, a function result's sharding): the node has that one strategy.
  bool fixed = false;
  // An op without a sharding rule (custom_call): one strategy that takes and gives whole
  // tensors; what propagation later gives it is not decided here.
  bool opaque = false;
  // Per strategy: seconds of local compute, seconds of collectives inside the op, bytes
  // held for the whole step (parameters), bytes of the largest value it produces.
  std::vector<double> computeSeconds;
  std::vector<double> communicationSeconds;
  std::vector<double> persistentBytes;
  std::vector<double> transientBytes;
  // Per strategy (rule ops only; empty elsewhere): bytes the partitioner's masks of padding
  // take while it zeroes the padded tail of operands split unevenly along a summed factor
  // (an index iota, the bound, the predicate, the zeros and the masked copy).
  std::vector<double> maskBytes;
  // Per strategy, a short description ("[{\"data\"}, {}]" for a parameter, the factor
  // assignment for an op).
  std::vector<std::string> descriptions;

  size_t numStrategies() const { return computeSeconds.size(); }
};

// A tensor of the function whose layout the graph decides.
struct GraphValue {
  mlir::Value value;
  int node = 0;                  // the node whose strategy fixes the layout
  std::vector<Layout> layouts;   // per strategy of that node
  bool annotated = false;        // the user gave its sharding; left as written
};

// A tensor operand of a node's op (or of one of its followers), with the layout each
// strategy of that node needs it in. Where the producer's layout differs, the partitioner
// reshards: the memory model (liveness.h) counts the buffer, explain lists the move.
struct OperandUse {
  mlir::Operation* user = nullptr;  // the op (or return) that takes the value
  mlir::Value value;
  int consumer = 0;                 // the node whose strategy decides `required`
  std::vector<Layout> required;     // per strategy of `consumer`
};

struct CostGraph {
  mlir::FlatSymbolRefAttr meshName;
  ir::MeshAttr mesh;
  std::vector<GraphNode> nodes;
  std::vector<GraphValue> values;
  llvm::DenseMap<mlir::Value, int> valueIndex;
  // Reshard costs (seconds) between a producer node's strategies and a consumer's.
  std::vector<IlpEdge> edges;
  // Every operand the graph prices, in program order, free moves included.
  std::vector<OperandUse> uses;
  // Ops that joined another node rather than making their own.
  int64_t mergedOps = 0;

  // The ILP over this graph: node cost = compute + communication.
  IlpProblem problem(double memoryLimit, double timeLimitSeconds) const;
};

// Builds the graph of `func`'s ops on the module's one mesh. The ops of a while loop's
// condition and body are nodes too, priced per trip, and each carried value is a node
// ("loop carry K") that fixes its layout through the loop; a case's branch ops are nodes,
// each branch priced in full, and each result a node ("case result K"). Fails with
// FailedPrecondition when the module has no mesh or several, and with Unimplemented,
// naming the value and its location, for a user sharding auto-sharding cannot take yet
// (sub-axes, replicated or unreduced axes).
absl::StatusOr<CostGraph> buildCostGraph(mlir::func::FuncOp func,
                                         const cost_model::HardwareSpec& spec);

}  // namespace tessel::auto_sharding

#endif  // TESSEL_PARTITIONER_AUTO_COST_GRAPH_H_
