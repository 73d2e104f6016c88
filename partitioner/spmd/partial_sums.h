// Which values the partitioner will compute as partial sums, read off the shardings
// propagation left: a dot_general whose contracting dimension is split, a zero-init sum over
// a split dimension. The analyses that act on shardings before partitioning (weight-update
// sharding, loop accumulators) use this to find gradients and accumulations, and mark
// values unreduced (sharding `unreduced={...}`) so that the partitioner keeps them partial.
//
//   AxisList axes = partialSumAxes(dot);   // {"data"}: each device holds a partial sum
//   setShardingOf(dot->getResult(0), withUnreduced(shardingOf(dot->getResult(0)), axes));
#ifndef TESSEL_PARTITIONER_SPMD_PARTIAL_SUMS_H_
#define TESSEL_PARTITIONER_SPMD_PARTIAL_SUMS_H_

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Value.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/ir/tessel/tessel_ops.h"
#include "partitioner/spmd/layout.h"

namespace tessel::spmd {

// The sharding of `value` as propagation left it: a function argument's attribute, a loop
// body argument's while result, or the entry of its op's `tessel.sharding`; null when it
// has none.
ir::ShardingAttr shardingOf(mlir::Value value);

// Sets the sharding of one result of an op, keeping the others'. REQUIRES: the op has a
// sharding for every result (shardingOf(result) is not null), as propagation leaves it.
void setShardingOf(mlir::OpResult result, ir::ShardingAttr sharding);

// `sharding` with `axes` added to its unreduced axes.
ir::ShardingAttr withUnreduced(ir::ShardingAttr sharding, llvm::ArrayRef<ir::AxisRefAttr> axes);

// The mesh axes over which the partitioner leaves `dot`'s local result a partial sum: the
// axes of its contracting dimensions, as the rule-driven partitioner claims them (axes the
// result's own dimensions use are taken first and cannot also be summed over). Empty when
// the contraction is not split, the result's sharding already names unreduced axes, or
// shapes are dynamic.
AxisList partialSumAxes(hlo::DotGeneralOp dot);

// The same for a convolution whose input feature dimension is split (a kernel gradient,
// which contracts the batch).
AxisList partialSumAxes(hlo::ConvolutionOp conv);

// Whether `reduce` has one input, a reducer that adds, and a zero constant as init.
bool isZeroInitSum(hlo::ReduceOp reduce);

// The same for a sum over the batch (a bias or LayerNorm-scale gradient): the axes of the
// reduced dimensions of `reduce`'s input, for a one-input reduce whose reducer adds and whose
// init is zero, where the result's dimensions do not use them. Empty otherwise.
AxisList partialSumAxes(hlo::ReduceOp reduce);

// The operand of `op` through which a partial sum passes linearly to its result, so that a
// partial sum in makes a partial sum out: transpose, reshape, broadcast_in_dim and neg, a
// convert between floats, a mul by (or div by) a scalar, a constant or a broadcast of a
// scalar. Null for any other op.
mlir::Value linearOperandOf(mlir::Operation* op);

}  // namespace tessel::spmd

#endif  // TESSEL_PARTITIONER_SPMD_PARTIAL_SUMS_H_
