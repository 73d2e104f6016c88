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
  // An operand that nothing reads afterwards is passed on, not copied.
  auto passOn = [](KernelArgs args, size_t index) -> Tensor {
    if (Tensor* operand = args.Overwritable(index)) return std::move(*operand);
    return *args.operands[index];
  };
  auto identity = [passOn](mlir::Operation*,
                           KernelArgs args) -> absl::StatusOr<std::vector<Tensor>> {
    std::vector<Tensor> results;
    results.push_back(passOn(args, 0));
    return results;
  };
  registry.Register(ir::ShardingConstraintOp::getOperationName().str(), identity);
  registry.Register(ir::ReshardOp::getOperationName().str(), identity);
  registry.Register(ir::ShardingGroupOp::getOperationName().str(),
                    [](mlir::Operation*, KernelArgs) -> absl::StatusOr<std::vector<Tensor>> {
                      return std::vector<Tensor>{};
                    });
  registry.Register<hlo::OptimizationBarrierOp>(
      [passOn](hlo::OptimizationBarrierOp,
               KernelArgs args) -> absl::StatusOr<std::vector<Tensor>> {
        std::vector<Tensor> results;
        for (size_t i = 0; i < args.operands.size(); ++i) results.push_back(passOn(args, i));
        return results;
      });
}

}  // namespace tessel::runtime
