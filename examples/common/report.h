// The part every example shares: partition a program, print what the partitioner decided
// and emitted, and verify the partitioned program against the single-device one.
#ifndef TESSEL_EXAMPLES_COMMON_REPORT_H_
#define TESSEL_EXAMPLES_COMMON_REPORT_H_

#include <cstdint>
#include <ostream>

#include "absl/status/statusor.h"
#include "partitioner/api/partition.h"
#include "partitioner/api/program.h"
#include "partitioner/api/verify.h"

namespace tessel::examples {

struct Outcome {
  PartitionResult partitioned;
  VerifyReport verification;
};

// Partitions `program`, verifies it on inputs drawn from `seed`, and prints to `out` the
// shardings of the parameters, op results and results, the collectives, the fallback
// warnings and the verification.
absl::StatusOr<Outcome> PartitionAndVerify(const Program& program, std::ostream& out,
                                           uint64_t seed = 1);

// The body of each example's main(): builds the program for `num_devices` devices with
// `build`, then PartitionAndVerify. Returns 0 if the partitioned program verified.
template <typename Build>
int RunExample(Build build, int64_t num_devices, std::ostream& out, std::ostream& err) {
  absl::StatusOr<Program> program = build(num_devices);
  absl::StatusOr<Outcome> outcome =
      program.ok() ? PartitionAndVerify(*program, out) : absl::StatusOr<Outcome>(program.status());
  if (!outcome.ok()) {
    err << "error: " << outcome.status() << "\n";
    return 1;
  }
  return outcome->verification.ok() ? 0 : 1;
}

}  // namespace tessel::examples

#endif  // TESSEL_EXAMPLES_COMMON_REPORT_H_
