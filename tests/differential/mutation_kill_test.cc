// The differential check must notice a broken partitioner: each known mutation of
// partitioned programs (partition_mutations.h), applied to the fuzzer's cases from seed 1 on,
// must be caught within the first kCases seeds, and in at least a third of the cases where
// it applies. fuzz_partitioner --mutations=all measures the
// same over longer runs.
#include <string>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "tests/differential/fuzz_campaign.h"

namespace tessel::testing {
namespace {

constexpr uint64_t kCases = 300;

class MutationKillTest : public ::testing::TestWithParam<Mutation> {};

TEST_P(MutationKillTest, CaughtWithinTheFirstSeeds) {
  int applied = 0, caught = 0;
  for (uint64_t seed = 1; seed <= kCases; ++seed) {
    FuzzCase c = RunFuzzCase(seed, nullptr, GetParam());
    if (!c.run.mutated) continue;
    ++applied;
    // A mutated program must still be a program: what catches it is a wrong result (or a
    // run that fails), not the verifier.
    EXPECT_NE(c.run.failed_stage, "verify") << "seed " << seed << "\n" << c.run.status.message();
    caught += !c.run.status.ok();
  }
  EXPECT_GT(applied, 0) << "the mutation applied in none of " << kCases << " cases";
  EXPECT_GT(caught, 0) << "applied in " << applied << " cases, caught in none";
  // Some mutants compute the same results (a mask over values that are already right, a
  // shifted start that clamps back, a gather along a dimension of size 1): over seeds 1 to
  // 300 the lowest rate is wrong-dim's, 75 of 165.
  EXPECT_GE(caught * 3, applied) << "caught in " << caught << " of " << applied << " cases";
}

INSTANTIATE_TEST_SUITE_P(AllMutations, MutationKillTest, ::testing::ValuesIn(AllMutations()),
                         [](const ::testing::TestParamInfo<Mutation>& info) {
                           std::string name = MutationName(info.param);
                           for (char& c : name) c = c == '-' ? '_' : c;
                           return name;
                         });

}  // namespace
}  // namespace tessel::testing
