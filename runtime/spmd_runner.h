// Runs an SPMD program on N partitions in one process: one Interpreter per partition, each
// on its own thread, with a shared LocalCommunicator for the collectives. This is how tests
// and the `tessel run` default execute a partitioned program.
//
//   // inputs[p] holds partition p's arguments (its shards).
//   absl::StatusOr<std::vector<std::vector<Tensor>>> outputs =
//       RunSpmd(module->lookupSymbol<mlir::func::FuncOp>("main"), inputs, /*num_partitions=*/4);
//   // (*outputs)[p] holds partition p's results.
//
// Partition p is the mesh device with id p (see kernels/collective_kernels.cc).
#ifndef TESSEL_RUNTIME_SPMD_RUNNER_H_
#define TESSEL_RUNTIME_SPMD_RUNNER_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "absl/types/span.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "runtime/kernel_registry.h"
#include "runtime/tensor.h"

namespace tessel::runtime {

struct SpmdOptions {
  // How long a collective waits for the rest of its group before it fails.
  absl::Duration collective_timeout = absl::Seconds(60);
  // The kernels to run with; null means DefaultKernelRegistry().
  const KernelRegistry* registry = nullptr;
};

// Runs `function` on `num_partitions` partitions, partition p on `per_partition_inputs[p]`,
// and returns each partition's results, indexed by partition.
//
// Fails with InvalidArgument if the number of input lists is not `num_partitions` or the
// function's context cannot be shared between threads. If a partition fails, the result is
// its error with "partition <p>: " in front of the message (code unchanged); the other
// partitions stop at their next collective instead of waiting for it, so a failure costs no
// timeout. When several fail independently, the first failure is reported.
absl::StatusOr<std::vector<std::vector<Tensor>>> RunSpmd(
    mlir::func::FuncOp function, absl::Span<const std::vector<Tensor>> per_partition_inputs,
    int64_t num_partitions, const SpmdOptions& options = SpmdOptions());

}  // namespace tessel::runtime

#endif  // TESSEL_RUNTIME_SPMD_RUNNER_H_
