// The special handlers, tried in order before the rule-driven path: each partitions the ops
// of its family for the layouts it supports and declines (returns false, emitting nothing)
// for the others, which then take the rule-driven path or the fallback.
#include "partitioner/spmd/partition_state.h"

namespace tessel::spmd {

mlir::FailureOr<bool> partitionBySpecialHandler(mlir::Operation* op, PartitionState& state) {
  using Handler = mlir::FailureOr<bool> (*)(mlir::Operation*, PartitionState&);
  static constexpr Handler kHandlers[] = {
      partitionIota,
      partitionReduce,
      partitionVariadicReduce,
      partitionGather,
      partitionScatter,
      partitionConvolution,
      partitionReduceWindow,
      partitionSelectAndScatter,
      partitionSliceOrPad,
      partitionConcatenate,
      partitionReverse,
      partitionTopK,
      partitionRngBitGenerator,
      partitionOptimizationBarrier,
      partitionDynamicSlices,
      partitionReshape,
  };
  for (Handler handler : kHandlers) {
    mlir::FailureOr<bool> done = handler(op, state);
    if (mlir::failed(done) || *done) return done;
  }
  return false;
}

}  // namespace tessel::spmd
