// Kernels of the ops that only annotate a single-device program: tessel.sharding_constraint
// and tessel.reshard say how a value is laid out across devices, which on one device (the
// program before partitioning) changes nothing, so they run as the identity; so does
// hlo.optimization_barrier, which only constrains compilers. tessel.sharding_group has no
// results and does nothing.
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/ir/tessel/tessel_ops.h"
#include "runtime/kernels/kernels.h"

namespace tessel::runtime {

void RegisterAnnotationKernels(KernelRegistry& registry) {
  auto identity = [](mlir::Operation*, KernelArgs args) -> absl::StatusOr<std::vector<Tensor>> {
    return std::vector<Tensor>{*args.operands[0]};
  };
  registry.Register(ir::ShardingConstraintOp::getOperationName().str(), identity);
  registry.Register(ir::ReshardOp::getOperationName().str(), identity);
  registry.Register(ir::ShardingGroupOp::getOperationName().str(),
                    [](mlir::Operation*, KernelArgs) -> absl::StatusOr<std::vector<Tensor>> {
                      return std::vector<Tensor>{};
                    });
  registry.Register<hlo::OptimizationBarrierOp>(
      [](hlo::OptimizationBarrierOp, KernelArgs args) -> absl::StatusOr<std::vector<Tensor>> {
        std::vector<Tensor> results;
        for (const Tensor* operand : args.operands) results.push_back(*operand);
        return results;
      });
}

}  // namespace tessel::runtime
