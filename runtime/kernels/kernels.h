// Registration functions, one per op family; each lives in kernels/<family>_kernels.cc.
// DefaultKernelRegistry() calls them all.
#ifndef TESSEL_RUNTIME_KERNELS_KERNELS_H_
#define TESSEL_RUNTIME_KERNELS_KERNELS_H_

#include "runtime/kernel_registry.h"

namespace tessel::runtime {

void RegisterCreationKernels(KernelRegistry& registry);  // constant, iota, replica_id
void RegisterRandomKernels(KernelRegistry& registry);  // rng_bit_generator
void RegisterElementwiseKernels(KernelRegistry& registry);  // compare, select, clamp
void RegisterUnaryKernels(KernelRegistry& registry);        // abs ... is_finite, convert
void RegisterBitKernels(KernelRegistry& registry);  // popcnt, clz, reduce_precision, bitcast
void RegisterBinaryKernels(KernelRegistry& registry);       // add ... shift_right_logical
void RegisterComplexKernels(KernelRegistry& registry);      // complex, real, imag
void RegisterShapeKernels(KernelRegistry& registry);  // broadcast_in_dim, reshape, transpose, ...
void RegisterSliceKernels(KernelRegistry& registry);  // slice, dynamic slices, pad
void RegisterCollectiveKernels(KernelRegistry& registry);  // partition_id, collectives
// sharding_constraint, reshard, optimization_barrier
void RegisterAnnotationKernels(KernelRegistry& registry);
void RegisterReductionKernels(KernelRegistry& registry);   // reduce, reduce_window, select_and_scatter
void RegisterLinalgKernels(KernelRegistry& registry);      // dot_general, convolution
void RegisterIndexingKernels(KernelRegistry& registry);    // gather, scatter
// top_k, while, case, custom_call
void RegisterControlKernels(KernelRegistry& registry);
void RegisterSortKernel(KernelRegistry& registry);  // sort
// tessel.manual_computation: its body on every device of the mesh
void RegisterManualComputationKernel(KernelRegistry& registry);

}  // namespace tessel::runtime

#endif  // TESSEL_RUNTIME_KERNELS_KERNELS_H_
