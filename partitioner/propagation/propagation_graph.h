// What propagation works on: the module's values with their states, and the nodes that
// relate them — ops with sharding rules, and data-flow edges (while, case, calls, function
// results) that say several values are one.
#ifndef TESSEL_PARTITIONER_PROPAGATION_PROPAGATION_GRAPH_H_
#define TESSEL_PARTITIONER_PROPAGATION_PROPAGATION_GRAPH_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "mlir/IR/BuiltinOps.h"
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
  rules::OpShardingRule rule;
  // The values in the rule's order (operands, then results; for an edge, its members).
  llvm::SmallVector<mlir::Value, 4> values;
  Stage stage = Stage::kOther;
};

struct PropagationGraph {
  std::vector<Node> nodes;
  // The nodes each value takes part in.
  llvm::DenseMap<mlir::Value, llvm::SmallVector<int64_t, 2>> users;
  llvm::DenseMap<mlir::Value, TensorState> states;
  // The first mesh of the module: values nothing reaches are replicated over it.
  mlir::FlatSymbolRefAttr defaultMeshName;
  MeshAttr defaultMesh;
  // User priority levels present in the annotations, ascending (at least {0}).
  llvm::SmallVector<int64_t> levels;
};

// Builds the graph of `module` and seeds the states from the annotations: function
// arguments and results, sharding constraints and reshards, manual computation results,
// and existing `tessel.sharding` on ops.
// With `enterManualBodies`, the ops of manual computation bodies join the graph too, their
// block arguments seeded with the in_shardings' automatic (non-manual) part: body values
// are split over the axes left to automatic partitioning. Without it a manual computation
// is a boundary.
mlir::FailureOr<PropagationGraph> buildPropagationGraph(mlir::ModuleOp module,
                                                        bool conservative,
                                                        bool enterManualBodies = false);

// `sharding` without the axes named in `manualAxes` (a list of StringAttr): the part that
// splits a manual computation's local value.
ir::ShardingAttr withoutManualAxes(ir::ShardingAttr sharding, mlir::ArrayAttr manualAxes);

// The mesh named `name` in `module`'s symbol table, or null.
MeshAttr lookupMeshIn(mlir::ModuleOp module, mlir::FlatSymbolRefAttr name);

}  // namespace tessel::propagation

#endif  // TESSEL_PARTITIONER_PROPAGATION_PROPAGATION_GRAPH_H_
