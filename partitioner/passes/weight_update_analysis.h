// Finding the optimizer updates of a data-parallel step: the elementwise subgraphs that a
// gradient (a dot_general whose contracting dimensions are split over mesh axes, so that
// every device holds a partial sum) feeds, together with the arguments they read and the
// results they return. weight_update_sharding.cc rewrites the shardings of what this finds.
//
//   WeightUpdateOrReason found = analyzeWeightUpdate(dot, func);
//   if (const auto* update = std::get_if<WeightUpdate>(&found)) ... // shard it
//   else emitRemark() << std::get<std::string>(found);                // why not
#ifndef TESSEL_PARTITIONER_PASSES_WEIGHT_UPDATE_ANALYSIS_H_
#define TESSEL_PARTITIONER_PASSES_WEIGHT_UPDATE_ANALYSIS_H_

#include <string>
#include <variant>

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallVector.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Value.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/ir/tessel/tessel_ops.h"

namespace tessel::passes {

using AxisList = llvm::SmallVector<ir::AxisRefAttr, 2>;

// The sharding of `value` as propagation left it: a function argument's attribute or the
// entry of its op's `tessel.sharding`; null when it has none.
ir::ShardingAttr shardingOf(mlir::Value value);

// The mesh axes over which the partitioner leaves `dot`'s local result a partial sum: the
// axes of its contracting dimensions, as the rule-driven partitioner claims them (axes the
// result's own dimensions use are taken first and cannot also be summed over). Empty when
// the contraction is not split, the result's sharding already names unreduced axes, or
// shapes are dynamic.
AxisList partialSumAxes(hlo::DotGeneralOp dot);

// Whether `reduce` has one input, a reducer that adds, and a zero constant as init.
bool isZeroInitSum(hlo::ReduceOp reduce);

// The same for a sum over the batch (a bias or LayerNorm-scale gradient): the axes of the
// reduced dimensions of `reduce`'s input, for a one-input reduce whose reducer adds and whose
// init is zero, where the result's dimensions do not use them. Empty otherwise.
AxisList partialSumAxes(hlo::ReduceOp reduce);

// One update found from a gradient.
struct WeightUpdate {
  // The mesh and axes A the gradients are partial sums over.
  ir::MeshAttr mesh;
  mlir::FlatSymbolRefAttr meshName;
  AxisList axes;
  // The gradients: the dot_general (or reduce) results the update reads, all partial over
  // `axes`
  // (usually one; two when, say, a shared weight gets two gradient terms).
  llvm::SetVector<mlir::Value> gradients;
  // The elementwise ops of the update, in program order.
  llvm::SmallVector<mlir::Operation*> ops;
  // Broadcasts of scalars and constants that only the update reads.
  llvm::SmallVector<mlir::Operation*> sideInputs;
  // Arguments only the update reads (optimizer state).
  llvm::SmallVector<mlir::BlockArgument> stateArgs;
  // Arguments other ops read too (the weights), replicated over `axes`.
  llvm::SmallVector<mlir::BlockArgument> weightArgs;
  // Function results the update computes without reading a weight (new optimizer state);
  // the others it returns are new weights.
  llvm::SmallVector<unsigned> stateResults;
  llvm::SmallVector<unsigned> weightResults;
  // The dimension the update is split along, and whether it divides evenly.
  int64_t dim = 0;
  bool even = true;
};

// Either the update `gradient` feeds, or why it is left alone ("the updated value feeds
// 'hlo.dot_general' at f.mlir:7:8, which is not elementwise").
using WeightUpdateOrReason = std::variant<WeightUpdate, std::string>;

// Analyses the update fed by `gradient`, a dot_general result of `func`'s body with
// partialSumAxes `axes`. The update holds every op reachable from the gradient that is
// elementwise over the gradient's shape, with the elementwise ops that compute their other
// operands from optimizer state; its other inputs may only be function arguments (state
// the update alone reads, or weights replicated over `axes`), scalars, broadcasts of
// scalars and constants, and further gradients over the same axes. Its values may end only
// in the update or in function results. It must read some optimizer state, and no more of
// the results it returns may be computed from weights than there are weights (else new
// state could not be told from new weights).
WeightUpdateOrReason analyzeWeightUpdate(mlir::Value gradient, const AxisList& axes,
                                         mlir::func::FuncOp func);

}  // namespace tessel::passes

#endif  // TESSEL_PARTITIONER_PASSES_WEIGHT_UPDATE_ANALYSIS_H_
