// Kernels of the ops that create tensors: hlo.constant, hlo.iota.
#include "partitioner/ir/hlo/hlo_ops.h"
#include "runtime/attr_conversion.h"
#include "runtime/kernels/kernels.h"
#include "support/status_macros.h"

namespace tessel::runtime {

void RegisterCreationKernels(KernelRegistry& registry) {
  registry.Register<hlo::ConstantOp>(
      [](hlo::ConstantOp op, KernelArgs) -> absl::StatusOr<std::vector<Tensor>> {
        TESSEL_ASSIGN_OR_RETURN(Tensor value, TensorFromElementsAttr(op.getValue()));
        return std::vector<Tensor>{std::move(value)};
      });
}

}  // namespace tessel::runtime
