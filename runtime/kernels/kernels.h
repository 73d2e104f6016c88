// Registration functions, one per op family; each lives in kernels/<family>_kernels.cc.
// DefaultKernelRegistry() calls them all.
#ifndef TESSEL_RUNTIME_KERNELS_KERNELS_H_
#define TESSEL_RUNTIME_KERNELS_KERNELS_H_

#include "runtime/kernel_registry.h"

namespace tessel::runtime {

void RegisterCreationKernels(KernelRegistry& registry);
void RegisterElementwiseKernels(KernelRegistry& registry);
void RegisterReductionKernels(KernelRegistry& registry);
void RegisterLinalgKernels(KernelRegistry& registry);
void RegisterIndexingKernels(KernelRegistry& registry);
void RegisterControlKernels(KernelRegistry& registry);

}  // namespace tessel::runtime

#endif  // TESSEL_RUNTIME_KERNELS_KERNELS_H_
