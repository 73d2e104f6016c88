// hlo.optimization_barrier: each operand is resharded to the layout its result is annotated
// with, and the barrier is kept on the local values. The rule path would give every axis to
// one dimension of one operand pair only (as if the pairs shared an iteration space), while
// each pair is an independent value with a layout of its own.
#include "mlir/IR/BuiltinTypes.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/spmd/partition_state.h"

namespace tessel::spmd {

mlir::FailureOr<bool> partitionOptimizationBarrier(mlir::Operation* op, PartitionState& state) {
  auto barrier = llvm::dyn_cast<hlo::OptimizationBarrierOp>(op);
  if (!barrier) return false;
  llvm::SmallVector<mlir::Value> locals;
  llvm::SmallVector<Layout> layouts;
  for (auto [operand, result] : llvm::zip_equal(barrier.getOperands(), barrier.getResults())) {
    Layout layout = state.annotatedLayout(llvm::cast<mlir::OpResult>(result));
    if (!layout.mesh) layout = state.local(operand).layout;
    mlir::FailureOr<mlir::Value> local = state.localAs(operand, layout, barrier.getLoc());
    if (mlir::failed(local)) return mlir::failure();
    locals.push_back(*local);
    layouts.push_back(std::move(layout));
  }
  auto partitioned =
      state.spmd().builder().create<hlo::OptimizationBarrierOp>(barrier.getLoc(), locals);
  for (auto [result, local, layout] :
       llvm::zip_equal(barrier.getResults(), partitioned.getResults(), layouts)) {
    state.define(result, local, layout,
                 llvm::cast<mlir::RankedTensorType>(result.getType()).getShape());
  }
  return true;
}

}  // namespace tessel::spmd
