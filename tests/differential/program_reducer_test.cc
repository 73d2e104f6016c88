// The reducer of failing fuzz cases: a generated program broken by a mutation (a stand-in for
// a partitioner bug) shrinks to fewer ops and smaller shapes, still fails at the same stage,
// and round-trips through a regression case file.
#include "tests/differential/program_reducer.h"

#include <cstdio>
#include <fstream>
#include <sstream>

#include "absl/strings/str_cat.h"
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
    EXPECT_LE(reduced->elements_after, reduced->elements_before);
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

// A reduction whose wrong result does not depend on the sizes shrinks them: here every
// shard's rows are summed, and without the all_reduce that combines them each device keeps
// its own partial sums.
TEST(ProgramReducerTest, ShrinksDimensionSizes) {
  const std::string program = R"(
tessel.mesh @mesh = <["x"=2]>
func.func @main(%a: tensor<8x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>})
    -> tensor<6xf32> {
  %zero = hlo.constant dense<0.0> : tensor<f32>
  %r = hlo.reduce(%a) init(%zero) dimensions = [0] : (tensor<8x6xf32>, tensor<f32>) -> tensor<6xf32> reducer {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = hlo.add %p, %q : tensor<f32>
    hlo.return %s : tensor<f32>
  }
  return %r : tensor<6xf32>
})";
  auto mutate = [](mlir::ModuleOp m) {
    return MutatePartitioned(m, Mutation::kDropCollective, 1);
  };
  absl::StatusOr<ReducedCase> reduced = ReduceFailure(program, CaseOptions(), mutate);
  ASSERT_TRUE(reduced.ok()) << reduced.status();
  EXPECT_EQ(reduced->stage, "compare");
  EXPECT_EQ(reduced->elements_before, 48);
  // A row or two and one column are all the failure needs.
  EXPECT_LE(reduced->elements_after, 2) << reduced->module;
  EXPECT_EQ(reduced->module.find("tensor<8x6xf32>"), std::string::npos) << reduced->module;
}

// A failure that shows only for some inputs: without the all_reduce each device compares
// its own element with 0 instead of the sum of both, which gives the same answer for many
// inputs. The reducer tries further input seeds and keeps the one that fails.
TEST(ProgramReducerTest, FindsAnInputSeedThatFails) {
  const std::string program = R"(
tessel.mesh @mesh = <["x"=2]>
func.func @main(%a: tensor<2xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}]>})
    -> tensor<i1> {
  %zero = hlo.constant dense<0> : tensor<i32>
  %s = hlo.reduce(%a) init(%zero) dimensions = [0] : (tensor<2xi32>, tensor<i32>) -> tensor<i32> reducer {
  ^bb0(%p: tensor<i32>, %q: tensor<i32>):
    %r = hlo.add %p, %q : tensor<i32>
    hlo.return %r : tensor<i32>
  }
  %c = hlo.compare GE, %s, %zero : tensor<i32>
  return %c : tensor<i1>
})";
  auto mutate = [](mlir::ModuleOp m) {
    return MutatePartitioned(m, Mutation::kDropCollective, 1);
  };
  auto fails = [&](uint64_t seed) {
    absl::StatusOr<std::vector<runtime::Tensor>> inputs = SmallIntegerInputs(program, seed);
    if (!inputs.ok()) return false;
    HarnessOptions options;
    options.mutate = mutate;
    return !CheckPartitionedRun(program, *inputs, options).status.ok();
  };
  ASSERT_FALSE(fails(1)) << "the premise: inputs from seed 1 do not show the failure";
  uint64_t failing = 2;
  while (failing <= 16 && !fails(failing)) ++failing;
  ASSERT_LE(failing, 16u) << "no input seed up to 16 shows the failure";
  absl::StatusOr<ReducedCase> reduced = ReduceFailure(program, CaseOptions(), mutate);
  ASSERT_TRUE(reduced.ok()) << reduced.status();
  EXPECT_EQ(reduced->options.input_seed, failing);
  EXPECT_NE(FormatCaseOptions(reduced->options).find(absl::StrCat("inputs=", failing)),
            std::string::npos);
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
      ParseCaseOptions("combine-collectives random-choices=7 inputs=3");
  ASSERT_TRUE(options.ok());
  EXPECT_TRUE(options->combine_collectives);
  EXPECT_EQ(options->random_choice_seed, 7u);
  EXPECT_EQ(options->input_seed, 3u);
  EXPECT_EQ(FormatCaseOptions(*options), "combine-collectives random-choices=7 inputs=3");
  EXPECT_FALSE(ParseCaseOptions("no-such-option").ok());
}

// Inputs can be drawn only for arguments of static tensor shape; anything else is an error
// naming the cause rather than a crash.
TEST(ProgramReducerTest, SmallIntegerInputsRejectsArgumentsThatAreNotStaticTensors) {
  absl::StatusOr<std::vector<runtime::Tensor>> dynamic = SmallIntegerInputs(R"(
func.func @main(%a: tensor<?x4xf32>) -> tensor<?x4xf32> {
  return %a : tensor<?x4xf32>
})");
  ASSERT_FALSE(dynamic.ok());
  EXPECT_NE(dynamic.status().message().find("not a tensor of static shape"), std::string::npos)
      << dynamic.status();
  absl::StatusOr<std::vector<runtime::Tensor>> scalar = SmallIntegerInputs(R"(
func.func @main(%a: i32) -> i32 {
  return %a : i32
})");
  ASSERT_FALSE(scalar.ok());
  EXPECT_NE(scalar.status().message().find("not a tensor of static shape"), std::string::npos)
      << scalar.status();
  absl::StatusOr<std::vector<runtime::Tensor>> no_main = SmallIntegerInputs(R"(
func.func @other(%a: tensor<2xi32>) -> tensor<2xi32> {
  return %a : tensor<2xi32>
})");
  ASSERT_FALSE(no_main.ok());
  EXPECT_NE(no_main.status().message().find("no function @main"), std::string::npos)
      << no_main.status();
  absl::StatusOr<std::vector<runtime::Tensor>> fine = SmallIntegerInputs(R"(
func.func @main(%a: tensor<2x3xf32>, %b: tensor<i32>) -> tensor<2x3xf32> {
  return %a : tensor<2x3xf32>
})");
  ASSERT_TRUE(fine.ok()) << fine.status();
  ASSERT_EQ(fine->size(), 2u);
  EXPECT_EQ((*fine)[0].num_elements(), 6);
  EXPECT_EQ((*fine)[1].num_elements(), 1);
}

}  // namespace
}  // namespace tessel::testing
