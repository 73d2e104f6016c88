// The kernels' process-wide thread pool: one thread per core beyond the caller, shared by
// every partition that runs as a thread of one process, and a loop that spreads indices
// over it. Large products and large elementwise ops use it.
#ifndef TESSEL_RUNTIME_KERNELS_PARALLEL_FOR_H_
#define TESSEL_RUNTIME_KERNELS_PARALLEL_FOR_H_

#include <cstdint>

#include "absl/functional/function_ref.h"

namespace tessel::runtime {

// The number of threads that run a ParallelFor: the pool's and the caller.
int64_t ParallelWorkers();

// Runs fn(0), ..., fn(count - 1) on the caller and the pool's threads, which take indices
// from one counter until none is left. When the calling op's run stops, no further index
// starts, and the caller throws OpStopped once the running ones are done.
void ParallelFor(int64_t count, absl::FunctionRef<void(int64_t)> fn);

}  // namespace tessel::runtime

#endif  // TESSEL_RUNTIME_KERNELS_PARALLEL_FOR_H_
