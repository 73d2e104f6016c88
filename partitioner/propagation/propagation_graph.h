// What propagation works on: the module's values with their states, and the nodes that
// relate them — ops with sharding rules, and data-flow edges (while, case, calls, function
// results) that say several values are one.
#ifndef TESSEL_PARTITIONER_PROPAGATION_PROPAGATION_GRAPH_H_
#define TESSEL_PARTITIONER_PROPAGATION_PROPAGATION_GRAPH_H_

#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "mlir/IR/BuiltinOps.h"
#include "partitioner/ir/value_address_key.h"
#include "partitioner/propagation/tensor_state.h"
#include "partitioner/rules/op_sharding_rule.h"

namespace tessel::propagation {

// The op kinds in the order propagation enables them (see propagate.h).
enum class Stage : int { kElementwise = 0, kBroadcast = 1, kReshape = 2, kOther = 3 };
constexpr int kNumStages = 4;

struct Node {
  // The op the rule belongs to; for an edge, the op that owns it (while, case, call, or
  // the function for its results).
  mlir::Operation* op = nullptr;
  // One of the graph's distinct rules (PropagationGraph::rules).
  const rules::OpShardingRule* rule = nullptr;
  // The slots of the values in the rule's order (operands, then results; for an edge, its
  // members).
  llvm::SmallVector<int32_t, 4> slots;
  Stage stage = Stage::kOther;
};

struct PropagationGraph {
  // Moved, never copied: a copy's nodes would point at the original's rules.
  PropagationGraph() = default;
  PropagationGraph(const PropagationGraph&) = delete;
  PropagationGraph& operator=(const PropagationGraph&) = delete;
  PropagationGraph(PropagationGraph&&) = default;
  PropagationGraph& operator=(PropagationGraph&&) = default;

  std::vector<Node> nodes;
  // Each distinct rule once, for the nodes to point at (a deque, so they stay where they are
  // as it grows). The ops of a program share few rules (every layer of a model repeats the
  // same ones), and a step reads its node's rule: kept once, the rules stay in the caches
  // where a copy per op, about 500 bytes each, made every pass over the nodes read the
  // rules from memory.
  std::deque<rules::OpShardingRule> rules;
  // Every value the graph relates gets a slot, numbered in the order the build meets them
  // (program order), and the per-value data below is indexed by it: a step reads its
  // tensors' states without hashing, and neighbouring ops' states lie near each other in
  // memory, where a map keyed by value would scatter them over a table larger than the
  // caches.
  std::vector<mlir::Value> values;
  llvm::DenseMap<mlir::Value, int32_t, ir::ValueAddressKey> slotOf;
  // The nodes each slot's value takes part in.
  std::vector<llvm::SmallVector<int64_t, 2>> users;
  // Each slot's state; a value without a sharding yet has a null meshName.
  std::vector<TensorState> states;
  // Each slot's rank (-1 for a value that is no ranked tensor) and element count (0 unless
  // static), read from the type once: a step then leaves the IR untouched, whose values lie
  // far apart in memory.
  struct Shape {
    int32_t rank = -1;
    int64_t numElements = 0;
  };
  std::vector<Shape> shapes;

  // The state of `value`, or null when it has none (yet).
  const TensorState* stateOf(mlir::Value value) const {
    auto it = slotOf.find(value);
    if (it == slotOf.end() || !states[it->second].meshName) return nullptr;
    return &states[it->second];
  }
  // The first mesh of the module: values nothing reaches are replicated over it.
  mlir::FlatSymbolRefAttr defaultMeshName;
  MeshAttr defaultMesh;
  // User priority levels present in the annotations, ascending (at least {0}).
  llvm::SmallVector<int64_t> levels;
  // Whether the annotations' axes and the axes steps give values keep where they came
  // from (TensorState's axisLinks).
  bool recordAxisOrigins = false;
};

// Builds the graph of `module` and seeds the states from the annotations: function
// arguments and results, sharding constraints and reshards, manual computation results,
// and existing `tessel.sharding` on ops.
// With `enterManualBodies`, the ops of manual computation bodies join the graph too, their
// block arguments seeded with the in_shardings' automatic (non-manual) part: body values
// are split over the axes left to automatic partitioning. Without it a manual computation
// is a boundary.
// With `recordAxisOrigins`, the annotations' axes get their links and the graph asks its
// steps for theirs (PropagationGraph::recordAxisOrigins).
mlir::FailureOr<PropagationGraph> buildPropagationGraph(mlir::ModuleOp module,
                                                        bool conservative,
                                                        bool enterManualBodies = false,
                                                        bool recordAxisOrigins = false);

// `sharding` without the axes named in `manualAxes` (a list of StringAttr): the part that
// splits a manual computation's local value.
ir::ShardingAttr withoutManualAxes(ir::ShardingAttr sharding, mlir::ArrayAttr manualAxes);

// The mesh named `name` in `module`'s symbol table, or null.
MeshAttr lookupMeshIn(mlir::ModuleOp module, mlir::FlatSymbolRefAttr name);

}  // namespace tessel::propagation

#endif  // TESSEL_PARTITIONER_PROPAGATION_PROPAGATION_GRAPH_H_
