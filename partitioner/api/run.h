// Run(): executes a program on host tensors with Tessel's reference executor.
//
// A program that is not partitioned runs on one device. A partitioned program (the
// `program` of a PartitionResult) runs on its num_partitions() devices, one thread each in
// this process, with collectives between them: Run takes the GLOBAL input tensors, gives
// each device its piece by the parameter shardings, and assembles the devices' pieces of
// each result back into the global tensor (checking that replicas agree).
//
//   std::vector<HostTensor> inputs = {HostTensor::Random(ElementType::kF32, {16, 64}, 1), ...};
//   TESSEL_ASSIGN_OR_RETURN(std::vector<HostTensor> reference, Run(program, inputs));
//   TESSEL_ASSIGN_OR_RETURN(PartitionResult partitioned, Partition(program));
//   TESSEL_ASSIGN_OR_RETURN(std::vector<HostTensor> outputs, Run(partitioned.program, inputs));
#ifndef TESSEL_PARTITIONER_API_RUN_H_
#define TESSEL_PARTITIONER_API_RUN_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "partitioner/api/host_tensor.h"
#include "partitioner/api/program.h"

namespace tessel {

struct RunOptions {
  // How long a device waits in a collective for the others before the run fails.
  absl::Duration collective_timeout = absl::Seconds(60);
  // How long the whole run may take: past it, every device stops before its next op or
  // while iteration (or at once, if it waits in a collective) and the run fails with
  // DeadlineExceeded, naming the op or loop it stopped in. An op already running finishes
  // first.
  absl::Duration timeout = absl::InfiniteDuration();
  // A while loop whose body would run more than this many times fails the run, naming the
  // loop. 0: no limit.
  int64_t max_while_iterations = 0;
};

// Runs `program` on `inputs`, one per parameter, each of the parameter's global type
// (Program::global_parameter_types()), and returns the results, each of its global type.
// Fails with InvalidArgument naming the input if their number, element types or shapes do
// not match, and with the executor's error (naming the op and, for a partitioned program,
// the device) if an op fails.
absl::StatusOr<std::vector<HostTensor>> Run(const Program& program,
                                            const std::vector<HostTensor>& inputs,
                                            const RunOptions& options = RunOptions());

}  // namespace tessel

#endif  // TESSEL_PARTITIONER_API_RUN_H_
