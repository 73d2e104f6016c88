// Verify(): runs a program on one device and its partitioned form on every device, on the
// same inputs, and compares the results: bit for bit for integers and pred, within a relative
// tolerance for floats (a partitioned program may add partial sums in another order).
//
//   TESSEL_ASSIGN_OR_RETURN(PartitionResult partitioned, Partition(program));
//   TESSEL_ASSIGN_OR_RETURN(VerifyReport report, Verify(program, partitioned, /*seed=*/1));
//   std::cout << report << "\n";
//   // verified on 8 devices: 1 of 1 results match
//   //   result 0 f32[16,64]: matches (max abs difference 2.38419e-07)
//   if (!report.ok()) ...
#ifndef TESSEL_PARTITIONER_API_VERIFY_H_
#define TESSEL_PARTITIONER_API_VERIFY_H_

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "partitioner/api/host_tensor.h"
#include "partitioner/api/partition.h"
#include "partitioner/api/program.h"
#include "partitioner/api/run.h"

namespace tessel {

struct VerifyOptions {
  // A float element matches when |got - want| <= absolute + relative * |want|; NaN matches
  // NaN.
  double relative_tolerance = 1e-4;
  double absolute_tolerance = 1e-5;
  RunOptions run;
};

// The comparison of one result.
struct ResultCheck {
  int64_t index = 0;
  // "f32[16,64]".
  std::string type;
  bool matches = false;
  // Compared bit for bit (integers and pred).
  bool exact = false;
  double max_abs_difference = 0;
  // What differs, when it does not match: "element 5: got 1.5, expected 1.25".
  std::string mismatch;
};

struct VerifyReport {
  int64_t num_partitions = 1;
  std::vector<ResultCheck> results;

  // Whether every result matches.
  bool ok() const;
  // A first line "verified on N devices: K of M results match", then one line per result.
  std::string ToString() const;
};

// Runs `original` with Run() and `partitioned.program` with Run() on `inputs` (the global
// tensors, one per parameter of `original`) and compares each result. Fails with the error
// of either run (InvalidArgument naming a wrong input, for instance) or with
// InvalidArgument if the two programs' signatures differ; a result that differs is no error
// but a ResultCheck that does not match.
absl::StatusOr<VerifyReport> Verify(const Program& original, const PartitionResult& partitioned,
                                    const std::vector<HostTensor>& inputs,
                                    const VerifyOptions& options = VerifyOptions());

// The same, on inputs drawn by HostTensor::Random from `seed` (input i from seed + i).
absl::StatusOr<VerifyReport> Verify(const Program& original, const PartitionResult& partitioned,
                                    uint64_t seed, const VerifyOptions& options = VerifyOptions());

// The inputs the seeded Verify draws for `program`.
std::vector<HostTensor> RandomInputs(const Program& program, uint64_t seed);

std::ostream& operator<<(std::ostream& os, const VerifyReport& report);

}  // namespace tessel

#endif  // TESSEL_PARTITIONER_API_VERIFY_H_
