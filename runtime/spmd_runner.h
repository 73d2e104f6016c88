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
//
// RunPartitions runs only some of the partitions, on a communicator the caller provides:
// how each rank of an MPI job runs its share of the partitions (see tools/tessel's
// `run --backend=mpi`).
#ifndef TESSEL_RUNTIME_SPMD_RUNNER_H_
#define TESSEL_RUNTIME_SPMD_RUNNER_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "absl/types/span.h"
#include "collectives/communicator.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "runtime/kernel_registry.h"
#include "runtime/run_limits.h"
#include "runtime/tensor.h"

namespace tessel::runtime {

struct SpmdOptions {
  // How long a collective waits for the rest of its group before it fails.
  absl::Duration collective_timeout = absl::Seconds(60);
  // The kernels to run with; null means DefaultKernelRegistry().
  const KernelRegistry* registry = nullptr;
  // Every partition's interpreter runs under these. When `limits.stop` stops, every
  // partition stops too: those computing before their next op or while iteration, those
  // waiting in a collective at once (the communicator is aborted with the stop's reason).
  RunLimits limits;
};

// Runs `function` on `num_partitions` partitions, partition p on `per_partition_inputs[p]`,
// and returns each partition's results, indexed by partition.
//
// Fails with InvalidArgument if the number of input lists is not `num_partitions` or the
// function's context cannot be shared between threads. If a partition fails, the result is
// its error with "partition <p>: " in front of the message (code unchanged); the other
// partitions stop before their next op, and those waiting in a collective stop waiting, so
// a failure costs no timeout and no partition runs on alone in a loop. When several fail
// independently, the first failure is reported, preferring one that is not a collective's
// abort (code Aborted): after a stop, the partition still computing names the op or loop
// it was in, where those waiting only name their collective.
absl::StatusOr<std::vector<std::vector<Tensor>>> RunSpmd(
    mlir::func::FuncOp function, absl::Span<const std::vector<Tensor>> per_partition_inputs,
    int64_t num_partitions, const SpmdOptions& options = SpmdOptions());

// Runs `function` on the partitions `partitions` (ids in [0, communicator.num_partitions())),
// each on its own thread with `per_partition_inputs[i]` as partition `partitions[i]`'s
// arguments, and returns their results in the same order. The collectives go through
// `communicator`, which must accept these partitions as callers (for a rank of an MPI job,
// its HierarchicalCommunicator and its local partitions). `options.collective_timeout` is
// not used: the communicator has its own.
//
// Fails like RunSpmd; a failing partition calls communicator.Abort, which for an MPI
// communicator may end the whole job.
absl::StatusOr<std::vector<std::vector<Tensor>>> RunPartitions(
    mlir::func::FuncOp function, absl::Span<const int64_t> partitions,
    absl::Span<const std::vector<Tensor>> per_partition_inputs,
    collectives::Communicator& communicator, const SpmdOptions& options = SpmdOptions());

}  // namespace tessel::runtime

#endif  // TESSEL_RUNTIME_SPMD_RUNNER_H_
