// The default kernel registry: every op family's kernels.
#include "runtime/kernel_registry.h"
#include "runtime/kernels/kernels.h"

namespace tessel::runtime {

const KernelRegistry& DefaultKernelRegistry() {
  static const KernelRegistry* registry = [] {
    auto* registry = new KernelRegistry();
    RegisterCreationKernels(*registry);
    RegisterRandomKernels(*registry);
    RegisterElementwiseKernels(*registry);
    RegisterUnaryKernels(*registry);
    RegisterBitKernels(*registry);
    RegisterBinaryKernels(*registry);
    RegisterComplexKernels(*registry);
    RegisterShapeKernels(*registry);
    RegisterSliceKernels(*registry);
    RegisterCollectiveKernels(*registry);
    RegisterAnnotationKernels(*registry);
    RegisterReductionKernels(*registry);
    RegisterLinalgKernels(*registry);
    RegisterIndexingKernels(*registry);
    RegisterControlKernels(*registry);
    RegisterSortKernel(*registry);
    RegisterManualComputationKernel(*registry);
    return registry;
  }();
  return *registry;
}

}  // namespace tessel::runtime
