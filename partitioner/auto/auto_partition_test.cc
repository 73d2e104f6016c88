// Auto-sharding through the public Partition(): programs with only a mesh get a plan whose
// estimated step time is within 5% of the best hand plan known for them (Megatron), and
// the partitioned program computes what the single-device program does, on even and
// uneven meshes (3 and 6 devices included).
#include <cmath>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "partitioner/api/partition.h"
#include "partitioner/api/program.h"
#include "partitioner/api/run.h"
#include "partitioner/api/verify.h"
#include "partitioner/auto/test_programs.h"
#include "support/status_macros.h"
#include "support/status_matchers.h"

namespace tessel {
namespace {

using ::tessel::testing::IsOk;

using ::tessel::auto_sharding_testing::BuildBlock;
using ::tessel::auto_sharding_testing::BuildMlp;
using ::tessel::auto_sharding_testing::BuildScannedMlp;
using ::tessel::auto_sharding_testing::WithoutShardings;

PartitionOptions AutoOptions() {
  PartitionOptions options;
  options.auto_sharding = AutoShardingOptions();
  return options;
}

// The hand plan's and the chosen plan's step time by the cost model, on the same program.
// Prints a row of the table in docs/auto_sharding.md.
void ExpectAtMostHandPlanCost(const std::string& name, const std::string& mesh,
                              const Program& hand, int64_t repeatedLayers = 1,
                              double slack = 1.05) {
  absl::StatusOr<PartitionResult> byHand = Partition(hand);
  ASSERT_THAT(byHand, IsOk());
  absl::StatusOr<Program> open = WithoutShardings(hand);
  ASSERT_THAT(open, IsOk());
  absl::StatusOr<PartitionResult> chosen = Partition(*open, AutoOptions());
  ASSERT_THAT(chosen, IsOk());
  ASSERT_TRUE(chosen->auto_sharding.has_value());
  EXPECT_LE(chosen->cost.step_seconds, slack * byHand->cost.step_seconds)
      << "hand plan " << byHand->cost.step_seconds << " s, chosen "
      << chosen->cost.step_seconds << " s\n"
      << ::testing::PrintToString(chosen->auto_sharding->choices);
  EXPECT_TRUE(chosen->auto_sharding->optimal);
  EXPECT_EQ(chosen->auto_sharding->repeated_layers, repeatedLayers);
  // Issue 20's goal: 60 s for 96 layers on the project's 2-core machine.
  EXPECT_LE(chosen->auto_sharding->solve_seconds, 60);
  // The chosen plan by its parameters' shardings, the short form of what it decided: the
  // input and the first layer's weights.
  std::string plan;
  int shown = 0;
  for (const std::string& choice : chosen->auto_sharding->choices) {
    if (choice.rfind("parameter ", 0) != 0) continue;
    if (++shown > 7) {
      plan += "; ...";
      break;
    }
    plan += (plan.empty() ? "" : "; ") + choice.substr(choice.find(':') + 2);
  }
  std::cout << "| " << name << " | " << mesh << " | Megatron | " << byHand->cost.step_seconds * 1e3
            << " ms | " << plan << " | " << chosen->cost.step_seconds * 1e3 << " ms | "
            << chosen->auto_sharding->solve_seconds << " s |\n";
}

// Hardware whose arithmetic is so slow next to its links that every split of work pays: on
// the small programs the executor checks quickly, the plan then splits work instead of
// keeping tiny tensors whole.
constexpr char kSlowComputeSpec[] = R"pb(
  name: "slow compute"
  flops_per_second: 1e6
  memory_bandwidth_bytes_per_second: 1e7
  memory_capacity_bytes: 1073741824
  default_link { bandwidth_bytes_per_second: 1e9 latency_seconds: 1e-9 }
)pb";

// Partitions `hand` without its shardings and checks the run against the single-device one.
// The memory limit, 90% of the parameters' bytes, forbids keeping every weight whole (the
// weights take most of it, and more than the rest is live beside them at some op), so the
// plan must split weights and pay collectives (a forward pass split only by batch would
// need none and show little). The partitioned program's peak stays under the limit.
// `summary` (when given) gets what auto-sharding reported.
void ExpectSameResultsAsOneDevice(const Program& hand, double timeLimitSeconds = 10,
                                  AutoShardingSummary* summary = nullptr,
                                  double limitOfParameters = 0.9) {
  absl::StatusOr<Program> open = WithoutShardings(hand);
  ASSERT_THAT(open, IsOk());
  PartitionOptions options = AutoOptions();
  options.hardware_spec = kSlowComputeSpec;
  options.auto_sharding->time_limit_seconds = timeLimitSeconds;
  int64_t parameterBytes = 0;
  for (const TensorType& type : open->global_parameter_types()) {
    int64_t elements = 4;  // f32
    for (int64_t d : type.dimensions()) elements *= d;
    parameterBytes += elements;
  }
  const int64_t limit = static_cast<int64_t>(static_cast<double>(parameterBytes) * limitOfParameters);
  options.auto_sharding->memory_limit_bytes = limit;
  absl::StatusOr<PartitionResult> chosen = Partition(*open, options);
  ASSERT_THAT(chosen, IsOk());
  if (summary != nullptr) *summary = *chosen->auto_sharding;
  // The plan splits something: otherwise the comparison would show nothing.
  EXPECT_GT(chosen->collectives.total_count(), 0)
      << ::testing::PrintToString(chosen->auto_sharding->choices);
  EXPECT_LE(chosen->cost.peak_bytes, limit);
  EXPECT_LE(chosen->cost.peak_bytes, chosen->auto_sharding->estimated_peak_bytes);
  std::vector<HostTensor> inputs = RandomInputs(*open, 7);
  absl::StatusOr<std::vector<HostTensor>> want = Run(*open, inputs);
  absl::StatusOr<std::vector<HostTensor>> got = Run(chosen->program, inputs);
  ASSERT_THAT(want, IsOk());
  ASSERT_THAT(got, IsOk());
  ASSERT_EQ(got->size(), want->size());
  for (size_t r = 0; r < want->size(); ++r) {
    std::vector<float> w = (*want)[r].ToVector<float>();
    std::vector<float> g = (*got)[r].ToVector<float>();
    ASSERT_EQ(g.size(), w.size());
    // All elements are compared, so that a failure tells a few rounding outliers from a
    // wrong plan (most elements off).
    size_t differing = 0, worstAt = 0;
    double worst = 0;
    for (size_t i = 0; i < w.size(); ++i) {
      const double error = std::abs(g[i] - w[i]) / (1 + std::abs(w[i]));
      if (error > 1e-4) ++differing;
      if (error > worst) {
        worst = error;
        worstAt = i;
      }
    }
    EXPECT_LE(worst, 1e-4) << "result " << r << ": " << differing << " of " << w.size()
                           << " elements differ; the worst, element " << worstAt << ", is "
                           << g[worstAt] << " where one device gives " << w[worstAt] << "\n"
                           << ::testing::PrintToString(chosen->auto_sharding->choices);
  }
}

TEST(AutoShardingTest, MlpPlanCostsNoMoreThanMegatron) {
  for (auto [data, model] : {std::pair<int64_t, int64_t>{4, 2}, {2, 2}}) {
    SCOPED_TRACE(::testing::Message() << data << "x" << model);
    absl::StatusOr<Program> hand = BuildMlp(1024, 1024, 4096, data, model);
    ASSERT_THAT(hand, IsOk());
    ExpectAtMostHandPlanCost("MLP 1024x1024x4096", absl::StrCat(data, "x", model), *hand);
  }
}

TEST(AutoShardingTest, TransformerBlockPlanCostsNoMoreThanMegatron) {
  for (auto [data, model] : {std::pair<int64_t, int64_t>{4, 2}, {2, 2}}) {
    SCOPED_TRACE(::testing::Message() << data << "x" << model);
    absl::StatusOr<Program> hand = BuildBlock({8, 512, 16, 64, 4096}, data, model);
    ASSERT_THAT(hand, IsOk());
    ExpectAtMostHandPlanCost("transformer block b8 s512 h16x64 mlp4096",
                             absl::StrCat(data, "x", model), *hand);
  }
}

// Four layers: found to repeat, so solved as one (layers_test.cc compares the tied plan
// with the untied optimum).
TEST(AutoShardingTest, FourLayerStackPlanCostsNoMoreThanMegatron) {
  absl::StatusOr<Program> hand = BuildBlock({8, 512, 16, 64, 4096, 4}, 4, 2);
  ASSERT_THAT(hand, IsOk());
  ExpectAtMostHandPlanCost("4 transformer blocks, same sizes", "4x2", *hand,
                           /*repeatedLayers=*/4);
}

// The solve-time goal of issue 20: 16 and 96 layers, each solved as one layer.
TEST(AutoShardingTest, DeepStacksAreSolvedAsOneLayer) {
  for (int64_t layers : {16, 96}) {
    SCOPED_TRACE(layers);
    absl::StatusOr<Program> hand = BuildBlock({8, 512, 16, 64, 4096, layers}, 4, 2);
    ASSERT_THAT(hand, IsOk());
    ExpectAtMostHandPlanCost(absl::StrCat(layers, " transformer blocks, same sizes"), "4x2",
                             *hand, layers);
  }
}

TEST(AutoShardingTest, MlpRunsLikeOneDeviceOnEvenAndUnevenMeshes) {
  for (auto [data, model] : {std::pair<int64_t, int64_t>{2, 2}, {4, 2}, {1, 3}, {2, 3}}) {
    SCOPED_TRACE(::testing::Message() << data << "x" << model);
    absl::StatusOr<Program> hand = BuildMlp(12, 16, 24, data, model);
    ASSERT_THAT(hand, IsOk());
    ExpectSameResultsAsOneDevice(*hand);
  }
}

TEST(AutoShardingTest, TransformerBlockRunsLikeOneDeviceOnEvenAndUnevenMeshes) {
  for (auto [data, model] : {std::pair<int64_t, int64_t>{2, 2}, {4, 2}, {1, 3}, {2, 3}}) {
    SCOPED_TRACE(::testing::Message() << data << "x" << model);
    absl::StatusOr<Program> hand = BuildBlock({4, 6, 6, 4, 24}, data, model);
    ASSERT_THAT(hand, IsOk());
    ExpectSameResultsAsOneDevice(*hand);
  }
}

// Eight layers tied into one are still checked against one device, uneven meshes
// included: the tied plan is expanded to every layer's ops and weights.
TEST(AutoShardingTest, EightLayerStackRunsLikeOneDevice) {
  for (auto [data, model] : {std::pair<int64_t, int64_t>{2, 2}, {1, 3}, {2, 3}}) {
    SCOPED_TRACE(::testing::Message() << data << "x" << model);
    absl::StatusOr<Program> hand = BuildBlock({4, 6, 6, 4, 24, 8}, data, model);
    ASSERT_THAT(hand, IsOk());
    AutoShardingSummary summary;
    ExpectSameResultsAsOneDevice(*hand, 10, &summary);
    EXPECT_EQ(summary.repeated_layers, 8);
  }
}

// A time limit far shorter than setting the problem up: the search does not run, and the
// plan it would have started from comes back, marked as not proven optimal, and runs. One
// block: that plan splits contracted dimensions, and through more blocks of random
// weights without normalization the values grow until reordered partial sums differ
// by more than the tolerance in a few cancelling elements (2 blocks on 2x3: 3 of 576
// elements off by at most 1.6e-4 relative, the rest within 1e-4).
TEST(AutoShardingTest, ATimeLimitThatRunsOutReturnsTheBestPlanFound) {
  for (auto [data, model] : {std::pair<int64_t, int64_t>{2, 2}, {2, 3}}) {
    SCOPED_TRACE(::testing::Message() << data << "x" << model);
    absl::StatusOr<Program> hand = BuildBlock({4, 6, 6, 4, 24}, data, model);
    ASSERT_THAT(hand, IsOk());
    AutoShardingSummary summary;
    ExpectSameResultsAsOneDevice(*hand, 1e-9, &summary);
    EXPECT_FALSE(summary.optimal);
    EXPECT_GT(summary.estimated_step_seconds, 0);
  }
}

// A loop's body is chosen op by op: the carried values get layouts of their own ("loop
// carry K"), nothing is priced whole, the estimate is the cost report's (three trips of
// the body), and the partitioned program runs like the single-device one, on 8 and 3
// devices.
TEST(AutoShardingTest, LoopBodiesAreChosenOpByOp) {
  for (const char* mesh : {R"(["data"=4, "model"=2])", R"(["data"=3])"}) {
    SCOPED_TRACE(mesh);
    absl::StatusOr<Program> program = Program::FromMlirText(absl::StrCat(
        "tessel.mesh @mesh = <", mesh, R"(>
func.func @main(%x: tensor<16x64xf32>, %w: tensor<64x64xf32>) -> tensor<16x64xf32> {
  %zero = hlo.constant dense<0> : tensor<i32>
  %three = hlo.constant dense<3> : tensor<i32>
  %r:2 = hlo.while(%i = %zero, %h = %x) : tensor<i32>, tensor<16x64xf32>
  cond {
    %more = hlo.compare LT, %i, %three : tensor<i32>
    hlo.return %more : tensor<i1>
  } do {
    %one = hlo.constant dense<1> : tensor<i32>
    %next = hlo.add %i, %one : tensor<i32>
    %y = hlo.dot_general %h, %w, lhs_contract = [1], rhs_contract = [0]
        : (tensor<16x64xf32>, tensor<64x64xf32>) -> tensor<16x64xf32>
    %t = hlo.tanh %y : tensor<16x64xf32>
    hlo.return %next, %t : tensor<i32>, tensor<16x64xf32>
  }
  return %r#1 : tensor<16x64xf32>
}
)"));
    ASSERT_THAT(program, IsOk());
    absl::StatusOr<PartitionResult> chosen = Partition(*program, AutoOptions());
    ASSERT_THAT(chosen, IsOk());
    ASSERT_TRUE(chosen->auto_sharding.has_value());
    EXPECT_THAT(chosen->auto_sharding->whole_ops, ::testing::IsEmpty());
    EXPECT_THAT(chosen->auto_sharding->choices,
                ::testing::Contains(::testing::StartsWith("loop carry 1 of hlo.while")));
    EXPECT_THAT(chosen->auto_sharding->choices,
                ::testing::Contains(::testing::StartsWith("hlo.dot_general")));
    EXPECT_NEAR(chosen->auto_sharding->estimated_step_seconds, chosen->cost.step_seconds,
                1e-6 * chosen->cost.step_seconds);
    absl::StatusOr<VerifyReport> report = Verify(*program, *chosen, /*seed=*/3);
    ASSERT_THAT(report, IsOk());
    EXPECT_TRUE(report->ok()) << report->ToString();
  }
}

// A user's sharding of a loop's result fixes the carried value's layout through the loop:
// the plan keeps it (marked annotated) and chooses the rest around it.
TEST(AutoShardingTest, AnAnnotatedLoopKeepsItsCarriedLayout) {
  absl::StatusOr<Program> program = Program::FromMlirText(R"(
tessel.mesh @mesh = <["data"=4, "model"=2]>
func.func @main(%x: tensor<16x64xf32>, %w: tensor<64x64xf32>) -> tensor<16x64xf32> {
  %zero = hlo.constant dense<0> : tensor<i32>
  %three = hlo.constant dense<3> : tensor<i32>
  %r:2 = hlo.while(%i = %zero, %h = %x) : tensor<i32>, tensor<16x64xf32> attributes {tessel.sharding = #tessel.sharding_per_value<[<@mesh, []>, <@mesh, [{"model"}, {}]>]>}
  cond {
    %more = hlo.compare LT, %i, %three : tensor<i32>
    hlo.return %more : tensor<i1>
  } do {
    %one = hlo.constant dense<1> : tensor<i32>
    %next = hlo.add %i, %one : tensor<i32>
    %y = hlo.dot_general %h, %w, lhs_contract = [1], rhs_contract = [0]
        : (tensor<16x64xf32>, tensor<64x64xf32>) -> tensor<16x64xf32>
    %t = hlo.tanh %y : tensor<16x64xf32>
    hlo.return %next, %t : tensor<i32>, tensor<16x64xf32>
  }
  return %r#1 : tensor<16x64xf32>
}
)");
  ASSERT_THAT(program, IsOk());
  absl::StatusOr<PartitionResult> chosen = Partition(*program, AutoOptions());
  ASSERT_THAT(chosen, IsOk());
  ASSERT_TRUE(chosen->auto_sharding.has_value());
  EXPECT_THAT(chosen->auto_sharding->choices,
              ::testing::Contains(::testing::AllOf(
                  ::testing::StartsWith("loop carry 1 of hlo.while"),
                  ::testing::HasSubstr(R"([{"model"}, {}] (annotated))"))));
  absl::StatusOr<VerifyReport> report = Verify(*program, *chosen, /*seed=*/3);
  ASSERT_THAT(report, IsOk());
  EXPECT_TRUE(report->ok()) << report->ToString();
}

// A case's branches are chosen op by op too: its result is a choice ("case result 0"), and
// on hardware where splitting pays the branches' matmuls split and the program still runs
// like the single-device one, whichever branch the index picks, on 8 and 3 devices.
TEST(AutoShardingTest, CaseBranchesAreChosenOpByOp) {
  for (const char* mesh : {R"(["data"=4, "model"=2])", R"(["data"=3])"}) {
    SCOPED_TRACE(mesh);
    absl::StatusOr<Program> program = Program::FromMlirText(absl::StrCat(
        "tessel.mesh @mesh = <", mesh, R"(>
func.func @main(%i: tensor<i32>, %x: tensor<48x64xf32>, %w: tensor<64x64xf32>)
    -> tensor<48x64xf32> {
  %r = hlo.case %i branches {
    %y = hlo.dot_general %x, %w, lhs_contract = [1], rhs_contract = [0]
        : (tensor<48x64xf32>, tensor<64x64xf32>) -> tensor<48x64xf32>
    %t = hlo.tanh %y : tensor<48x64xf32>
    hlo.return %t : tensor<48x64xf32>
  }, {
    %y = hlo.dot_general %x, %w, lhs_contract = [1], rhs_contract = [0]
        : (tensor<48x64xf32>, tensor<64x64xf32>) -> tensor<48x64xf32>
    %s = hlo.sin %y : tensor<48x64xf32>
    hlo.return %s : tensor<48x64xf32>
  } : (tensor<i32>) -> tensor<48x64xf32>
  return %r : tensor<48x64xf32>
}
)"));
    ASSERT_THAT(program, IsOk());
    PartitionOptions options = AutoOptions();
    options.hardware_spec = kSlowComputeSpec;
    absl::StatusOr<PartitionResult> chosen = Partition(*program, options);
    ASSERT_THAT(chosen, IsOk());
    ASSERT_TRUE(chosen->auto_sharding.has_value());
    EXPECT_THAT(chosen->auto_sharding->whole_ops, ::testing::IsEmpty());
    EXPECT_THAT(chosen->auto_sharding->choices,
                ::testing::Contains(::testing::StartsWith("case result 0 of hlo.case")));
    EXPECT_THAT(chosen->auto_sharding->choices,
                ::testing::Contains(::testing::HasSubstr("\"data\"")));
    EXPECT_LE(chosen->cost.peak_bytes, chosen->auto_sharding->estimated_peak_bytes);
    for (int32_t index : {0, 1}) {
      std::vector<HostTensor> inputs = RandomInputs(*program, 5);
      inputs[0] = HostTensor::Scalar<int32_t>(index);
      absl::StatusOr<std::vector<HostTensor>> want = ::tessel::Run(*program, inputs);
      absl::StatusOr<std::vector<HostTensor>> got = ::tessel::Run(chosen->program, inputs);
      ASSERT_THAT(want, IsOk());
      ASSERT_THAT(got, IsOk());
      std::vector<float> w = (*want)[0].ToVector<float>();
      std::vector<float> g = (*got)[0].ToVector<float>();
      ASSERT_EQ(g.size(), w.size());
      for (size_t e = 0; e < w.size(); ++e) {
        ASSERT_NEAR(g[e], w[e], 1e-4 * (1 + std::abs(w[e])))
            << "branch " << index << " element " << e;
      }
    }
  }
}

// A stack of MLPs run by a loop over stacked weights (a scan over layers): the plan is
// chosen inside the loop, so it costs no more than Megatron's split of the stacks. Kept
// whole, the loop would run every layer's matmuls unsplit on every device.
TEST(AutoShardingTest, ScannedMlpPlanCostsNoMoreThanMegatron) {
  for (auto [data, model] : {std::pair<int64_t, int64_t>{4, 2}, {2, 2}}) {
    SCOPED_TRACE(::testing::Message() << data << "x" << model);
    absl::StatusOr<Program> hand = BuildScannedMlp(1024, 1024, 4096, 4, data, model);
    ASSERT_THAT(hand, IsOk());
    ExpectAtMostHandPlanCost("scanned MLP stack 1024x1024x4096, 4 layers",
                             absl::StrCat(data, "x", model), *hand);
  }
}

// The stacks split inside the loop still compute what one device does, uneven meshes
// included. The limit, 1.5x the parameters' bytes, forbids keeping the stacks whole: the
// loop's inputs and its results (its state) are both live while it runs.
TEST(AutoShardingTest, ScannedMlpRunsLikeOneDevice) {
  for (auto [data, model] : {std::pair<int64_t, int64_t>{2, 2}, {4, 2}, {1, 3}, {2, 3}}) {
    SCOPED_TRACE(::testing::Message() << data << "x" << model);
    absl::StatusOr<Program> hand = BuildScannedMlp(12, 16, 24, 3, data, model);
    ASSERT_THAT(hand, IsOk());
    ExpectSameResultsAsOneDevice(*hand, 10, nullptr, /*limitOfParameters=*/1.5);
  }
}

}  // namespace
}  // namespace tessel
