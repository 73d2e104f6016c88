// The reducer of failing fuzz cases: a generated program broken by a mutation (a stand-in for
// a partitioner bug) shrinks to fewer ops, still fails at the same stage, and round-trips
// through a regression case file.
#include "tests/differential/program_reducer.h"

#include <cstdio>
#include <fstream>
#include <sstream>

#include "gtest/gtest.h"
#include "tests/differential/fuzz_campaign.h"
#include "tests/differential/random_program.h"

namespace tessel::testing {
namespace {

// The first seed from `first` whose program, with fresh inputs, fails once `mutation` applies.
std::optional<std::pair<uint64_t, std::string>> FirstCaught(Mutation mutation, uint64_t first) {
  for (uint64_t seed = first; seed < first + 200; ++seed) {
    RandomProgram program = GenerateRandomProgram(seed);
    absl::StatusOr<std::vector<runtime::Tensor>> inputs = SmallIntegerInputs(program.module);
    if (!inputs.ok()) continue;
    HarnessOptions options;
    options.mutate = [&](mlir::ModuleOp m) { return MutatePartitioned(m, mutation, seed); };
    PartitionedRun run = CheckPartitionedRun(program.module, *inputs, options);
    if (run.mutated && !run.status.ok() && run.failed_stage == "compare") {
      return std::make_pair(seed, program.module);
    }
  }
  return std::nullopt;
}

TEST(ProgramReducerTest, ShrinksAMutantAndKeepsItFailing) {
  for (Mutation mutation : {Mutation::kSkipMask, Mutation::kDropCollective}) {
    auto found = FirstCaught(mutation, 1);
    ASSERT_TRUE(found) << MutationName(mutation);
    const uint64_t seed = found->first;
    auto mutate = [mutation, seed](mlir::ModuleOp m) {
      return MutatePartitioned(m, mutation, seed);
    };
    absl::StatusOr<ReducedCase> reduced = ReduceFailure(found->second, CaseOptions(), mutate);
    ASSERT_TRUE(reduced.ok()) << reduced.status();
    EXPECT_EQ(reduced->stage, "compare");
    EXPECT_LE(reduced->ops_after, reduced->ops_before);
    EXPECT_GT(reduced->attempts, 1);
    // The reduced program still fails with the mutation, and passes without it.
    absl::StatusOr<std::vector<runtime::Tensor>> inputs = SmallIntegerInputs(reduced->module);
    ASSERT_TRUE(inputs.ok());
    HarnessOptions options;
    options.mutate = mutate;
    EXPECT_FALSE(CheckPartitionedRun(reduced->module, *inputs, options).status.ok());
    EXPECT_TRUE(CheckPartitionedRun(reduced->module, *inputs).status.ok());
  }
}

TEST(ProgramReducerTest, RegressionCaseFileRoundTrips) {
  ReducedCase reduced;
  reduced.module = "tessel.mesh @mesh = <[\"x\"=2]>\n";
  reduced.stage = "compare";
  reduced.failure = "result 0: element 1: got 3, want 4\n-- input: ...";
  reduced.options.combine_collectives = true;
  reduced.options.random_choice_seed = 7;
  const std::string path = ::testing::TempDir() + "/case.mlir";
  ASSERT_TRUE(WriteRegressionCase(reduced, path, "A title.").ok());
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_EQ(text.str(),
            "// A title.\n// Fails at compare: result 0: element 1: got 3, want 4\n"
            "// options: combine-collectives random-choices=7\n"
            "tessel.mesh @mesh = <[\"x\"=2]>\n");
  absl::StatusOr<CaseOptions> options =
      ParseCaseOptions("combine-collectives random-choices=7");
  ASSERT_TRUE(options.ok());
  EXPECT_TRUE(options->combine_collectives);
  EXPECT_EQ(options->random_choice_seed, 7u);
  EXPECT_FALSE(ParseCaseOptions("no-such-option").ok());
}

}  // namespace
}  // namespace tessel::testing
