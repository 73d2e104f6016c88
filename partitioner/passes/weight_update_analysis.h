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
#include "partitioner/spmd/partial_sums.h"

namespace tessel::passes {

using spmd::AxisList;
using spmd::anyOverlap;
using spmd::isZeroInitSum;
using spmd::partialSumAxes;
using spmd::shardingOf;

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
  // Block arguments only the update reads (optimizer state).
  llvm::SmallVector<mlir::BlockArgument> stateArgs;
  // Block arguments other ops read too (the weights), replicated over `axes`.
  llvm::SmallVector<mlir::BlockArgument> weightArgs;
  // Returned values (function results, loop-carried values) the update computes without
  // reading a weight (new optimizer state); the others it returns are new weights.
  llvm::SmallVector<unsigned> stateResults;
  llvm::SmallVector<unsigned> weightResults;
  // The dimension the update is split along, the axes it is split over (all of `axes`, or
  // the part of them that splits it evenly; the gradient is reduced over the rest), and
  // whether the split is even.
  int64_t dim = 0;
  AxisList splitAxes;
  bool even = true;
};

// Either the update `gradient` feeds, or why it is left alone ("the updated value feeds
// 'hlo.dot_general' at f.mlir:7:8, which is not elementwise").
using WeightUpdateOrReason = std::variant<WeightUpdate, std::string>;

// Analyses the update fed by `gradient`, a value of `body` (a function's body, or the body
// of a while loop whose trips are training steps) that is a partial sum over `axes`. The
// update holds every op of `body` reachable from the gradient that is elementwise over the
// gradient's shape, with the elementwise ops that compute their other operands from
// optimizer state; its other inputs may only be block arguments (state the update alone
// reads, or weights replicated over `axes`), scalars, broadcasts of scalars and constants,
// and further gradients over the same axes. Its values may end only in the update, in what
// the block returns, or in reductions (norms for trust ratios and clipping, which are
// computed from the shards). It must read optimizer state or return a new weight (a
// stateless optimizer), and no more of the values it returns may be computed from weights
// than there are weights (else new state could not be told from new weights). In a loop,
// each piece of state must come back in the carry it came in by.
WeightUpdateOrReason analyzeWeightUpdate(mlir::Value gradient, const AxisList& axes,
                                         mlir::Block& body);

}  // namespace tessel::passes

#endif  // TESSEL_PARTITIONER_PASSES_WEIGHT_UPDATE_ANALYSIS_H_
