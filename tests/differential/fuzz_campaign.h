// One case of the differential fuzzer, as the test suite and the long-running driver
// (fuzz_partitioner) both run it: the seed's random program (random_program.h), checked with
// the partitioner options the seed picks, optionally with a mutation applied to the
// partitioned program, with what it exercised added to a coverage count.
//
//   FuzzCoverage coverage;
//   FuzzCase c = RunFuzzCase(seed, &coverage);
//   if (!c.run.status.ok()) ... c.module reproduces it with c.options
#ifndef TESSEL_TESTS_DIFFERENTIAL_FUZZ_CAMPAIGN_H_
#define TESSEL_TESTS_DIFFERENTIAL_FUZZ_CAMPAIGN_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tests/differential/fuzz_coverage.h"
#include "tests/differential/partition_harness.h"
#include "tests/differential/partition_mutations.h"
#include "tests/differential/program_reducer.h"

namespace tessel::testing {

// The passes and choices each seed turns on: weight-update sharding a third of the time,
// collective combining every other seed, all_reduces split by axis every fifth, and random
// strategy choices (every cost-based choice made at random) every second.
CaseOptions OptionsForSeed(uint64_t seed);

struct FuzzCase {
  uint64_t seed = 0;
  std::string module;
  CaseOptions options;
  PartitionedRun run;
};

// Runs seed `seed`; `coverage` (may be null) gets what it exercised and ends its case.
FuzzCase RunFuzzCase(uint64_t seed, FuzzCoverage* coverage,
                     std::optional<Mutation> mutation = std::nullopt);

// The ops the generator is meant to produce, each of which a long run must exercise.
const std::vector<std::string>& GeneratedOps();

}  // namespace tessel::testing

#endif  // TESSEL_TESTS_DIFFERENTIAL_FUZZ_CAMPAIGN_H_
