// while and case partitioned in place over every standard mesh and every sharding of their
// split operands: a training-like loop (counter, a dot, an update), a loop whose condition
// reads split data, a case on split operands with indices in and out of range, a while
// nested in a case, a loop whose weight never changes and a case whose branches read the
// same resharded weight (both hoisted), a dead case and loop (erased with their bodies).
// Integers, so results must match exactly; the loops must stay loops of local code (no
// whole-loop replication).
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "gtest/gtest.h"
#include "runtime/random_inputs.h"
#include "tests/differential/partition_harness.h"

namespace tessel {
namespace {

using runtime::ElementType;
using runtime::Tensor;

struct Case {
  std::string name;
  std::string module;
  std::vector<Tensor> inputs;
  std::vector<std::string> expect_not_in_program;
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

// Three steps of x' = x + x w, w' = w + x^T x' (the data x split by rows, 7 of them).
constexpr char kTraining[] = R"(
func.func @main(%x: tensor<7x4xi32> XS, %w: tensor<4x4xi32>) -> (tensor<7x4xi32>, tensor<4x4xi32>) {
  %zero = hlo.constant dense<0> : tensor<i32>
  %r:3 = hlo.while(%i = %zero, %a = %x, %v = %w) : tensor<i32>, tensor<7x4xi32>, tensor<4x4xi32>
  cond {
    %n = hlo.constant dense<3> : tensor<i32>
    %p = hlo.compare LT, %i, %n : tensor<i32>
    hlo.return %p : tensor<i1>
  } do {
    %one = hlo.constant dense<1> : tensor<i32>
    %i1 = hlo.add %i, %one : tensor<i32>
    %d = hlo.dot_general %a, %v, lhs_contract = [1], rhs_contract = [0] : (tensor<7x4xi32>, tensor<4x4xi32>) -> tensor<7x4xi32>
    %a1 = hlo.add %a, %d : tensor<7x4xi32>
    %g = hlo.dot_general %a, %a1, lhs_contract = [0], rhs_contract = [0] : (tensor<7x4xi32>, tensor<7x4xi32>) -> tensor<4x4xi32>
    %v1 = hlo.add %v, %g : tensor<4x4xi32>
    hlo.return %i1, %a1, %v1 : tensor<i32>, tensor<7x4xi32>, tensor<4x4xi32>
  }
  return %r#1, %r#2 : tensor<7x4xi32>, tensor<4x4xi32>
})";

// Doubles x until its sum passes a bound: the predicate reads every shard.
constexpr char kDataDependent[] = R"(
func.func @main(%x: tensor<7x4xi32> XS) -> tensor<7x4xi32> {
  %r = hlo.while(%a = %x) : tensor<7x4xi32>
  cond {
    %z = hlo.constant dense<0> : tensor<i32>
    %s = hlo.reduce(%a) init(%z) dimensions = [0, 1] : (tensor<7x4xi32>, tensor<i32>) -> tensor<i32> reducer {
    ^bb0(%l: tensor<i32>, %q: tensor<i32>):
      %t = hlo.add %l, %q : tensor<i32>
      hlo.return %t : tensor<i32>
    }
    %n = hlo.constant dense<5000> : tensor<i32>
    %p = hlo.compare LT, %s, %n : tensor<i32>
    hlo.return %p : tensor<i1>
  } do {
    %a1 = hlo.add %a, %a : tensor<7x4xi32>
    hlo.return %a1 : tensor<7x4xi32>
  }
  return %r : tensor<7x4xi32>
})";

// A case on split operands; INDEX picks a branch (-1 and 5 run the last one).
constexpr char kCase[] = R"(
func.func @main(%x: tensor<7x4xi32> XS, %y: tensor<7x4xi32> YS) -> tensor<7x4xi32> {
  %k = hlo.constant dense<INDEX> : tensor<i32>
  %r = hlo.case %k branches {
    %s = hlo.add %x, %y : tensor<7x4xi32>
    hlo.return %s : tensor<7x4xi32>
  }, {
    %m = hlo.mul %x, %y : tensor<7x4xi32>
    hlo.return %m : tensor<7x4xi32>
  }, {
    %t = hlo.transpose %y, permutation = [1, 0] : (tensor<7x4xi32>) -> tensor<4x7xi32>
    %d = hlo.dot_general %x, %t, lhs_contract = [1], rhs_contract = [0] : (tensor<7x4xi32>, tensor<4x7xi32>) -> tensor<7x7xi32>
    %e = hlo.slice %d [0:7, 0:4] : (tensor<7x7xi32>) -> tensor<7x4xi32>
    hlo.return %e : tensor<7x4xi32>
  } : (tensor<i32>) -> tensor<7x4xi32>
  return %r : tensor<7x4xi32>
})";

// A loop inside a branch: the loop's carries are split like the case's operands.
constexpr char kNested[] = R"(
func.func @main(%x: tensor<7x4xi32> XS, %y: tensor<7x4xi32> YS) -> tensor<7x4xi32> {
  %k = hlo.constant dense<INDEX> : tensor<i32>
  %r = hlo.case %k branches {
    %s = hlo.add %x, %y : tensor<7x4xi32>
    hlo.return %s : tensor<7x4xi32>
  }, {
    %zero = hlo.constant dense<0> : tensor<i32>
    %w:2 = hlo.while(%i = %zero, %a = %x) : tensor<i32>, tensor<7x4xi32>
    cond {
      %n = hlo.constant dense<4> : tensor<i32>
      %p = hlo.compare LT, %i, %n : tensor<i32>
      hlo.return %p : tensor<i1>
    } do {
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %a1 = hlo.mul %a, %y : tensor<7x4xi32>
      %a2 = hlo.add %a1, %x : tensor<7x4xi32>
      hlo.return %i1, %a2 : tensor<i32>, tensor<7x4xi32>
    }
    hlo.return %w#1 : tensor<7x4xi32>
  } : (tensor<i32>) -> tensor<7x4xi32>
  return %r : tensor<7x4xi32>
})";

// Three steps of x' = x + x w where w, split by rows over every axis, never changes: its
// gather runs once, before the loop (the harness checks the program; the hoisting test
// counts what stays in the body).
constexpr char kInvariantWeight[] = R"(
func.func @main(%x: tensor<7x4xi32> XS, %w: tensor<4x4xi32> WS) -> tensor<7x4xi32> {
  %zero = hlo.constant dense<0> : tensor<i32>
  %r:3 = hlo.while(%i = %zero, %a = %x, %v = %w) : tensor<i32>, tensor<7x4xi32>, tensor<4x4xi32>
  cond {
    %n = hlo.constant dense<3> : tensor<i32>
    %p = hlo.compare LT, %i, %n : tensor<i32>
    hlo.return %p : tensor<i1>
  } do {
    %one = hlo.constant dense<1> : tensor<i32>
    %i1 = hlo.add %i, %one : tensor<i32>
    %d = hlo.dot_general %a, %v, lhs_contract = [1], rhs_contract = [0] : (tensor<7x4xi32>, tensor<4x4xi32>) -> tensor<7x4xi32>
    %a1 = hlo.add %a, %d : tensor<7x4xi32>
    hlo.return %i1, %a1, %v : tensor<i32>, tensor<7x4xi32>, tensor<4x4xi32>
  }
  return %r#1 : tensor<7x4xi32>
})";

// Both branches read w gathered the same way: the gather runs once, before the case.
constexpr char kCaseCommonReshard[] = R"(
func.func @main(%x: tensor<7x4xi32> XS, %w: tensor<4x4xi32> WS) -> tensor<7x4xi32> {
  %i = hlo.constant dense<INDEX> : tensor<i32>
  %r = hlo.case %i branches {
    %d = hlo.dot_general %x, %w, lhs_contract = [1], rhs_contract = [0] : (tensor<7x4xi32>, tensor<4x4xi32>) -> tensor<7x4xi32>
    hlo.return %d : tensor<7x4xi32>
  }, {
    %d = hlo.dot_general %x, %w, lhs_contract = [1], rhs_contract = [0] : (tensor<7x4xi32>, tensor<4x4xi32>) -> tensor<7x4xi32>
    %e = hlo.add %d, %x : tensor<7x4xi32>
    hlo.return %e : tensor<7x4xi32>
  } : (tensor<i32>) -> tensor<7x4xi32>
  return %r : tensor<7x4xi32>
})";

// A case and a loop whose results nothing reads: partitioning erases both with their bodies
// (erasing them once freed the bodies before their own ops were visited).
constexpr char kDeadControlFlow[] = R"(
func.func @main(%x: tensor<7x4xi32> XS, %y: tensor<7x4xi32> YS) -> tensor<7x4xi32> {
  %k = hlo.constant dense<INDEX> : tensor<i32>
  %r = hlo.case %k branches {
    %s = hlo.add %x, %y : tensor<7x4xi32>
    %n = hlo.neg %s : tensor<7x4xi32>
    hlo.return %n : tensor<7x4xi32>
  }, {
    hlo.return %x : tensor<7x4xi32>
  } : (tensor<i32>) -> tensor<7x4xi32>
  %zero = hlo.constant dense<0> : tensor<i32>
  %w:2 = hlo.while(%i = %zero, %a = %r) : tensor<i32>, tensor<7x4xi32>
  cond {
    %n = hlo.constant dense<2> : tensor<i32>
    %p = hlo.compare LT, %i, %n : tensor<i32>
    hlo.return %p : tensor<i1>
  } do {
    %one = hlo.constant dense<1> : tensor<i32>
    %i1 = hlo.add %i, %one : tensor<i32>
    %a1 = hlo.mul %a, %y : tensor<7x4xi32>
    hlo.return %i1, %a1 : tensor<i32>, tensor<7x4xi32>
  }
  %z = hlo.sub %x, %y : tensor<7x4xi32>
  return %z : tensor<7x4xi32>
})";

std::string Module(const testing::TestMesh& mesh, const std::string& body,
                   const std::vector<std::vector<std::string>>& xs,
                   const std::vector<std::vector<std::string>>& ys, int index) {
  return absl::StrReplaceAll(absl::StrCat("tessel.mesh @mesh = <", mesh.text, ">", body),
                             {{"XS", testing::ShardingArgAttrText(xs)},
                              {"YS", testing::ShardingArgAttrText(ys)},
                              {"WS", testing::ShardingArgAttrText({mesh.axes, {}})},
                              {"INDEX", absl::StrCat(index)}});
}

std::vector<Case> Cases() {
  std::vector<Case> cases;
  Tensor x = runtime::RandomTensor(ElementType::kS32, {7, 4}, 21);
  Tensor y = runtime::RandomTensor(ElementType::kS32, {7, 4}, 22);
  Tensor w = runtime::RandomTensor(ElementType::kS32, {4, 4}, 23);
  // Small positive values, so that the data-dependent loop takes a few trips.
  std::vector<int32_t> small(28);
  for (int i = 0; i < 28; ++i) small[i] = 1 + (i * 7) % 5;
  Tensor positive = Tensor::FromVector<int32_t>({7, 4}, small);
  for (const testing::TestMesh& mesh : testing::StandardMeshes()) {
    auto shardings = testing::DimAssignments(2, mesh.axes);
    for (size_t s = 0; s < shardings.size(); ++s) {
      const auto& xs = shardings[s];
      const std::string suffix = absl::StrCat(mesh.devices, "dev", mesh.axes.size(), "d_", s);
      // A split loop is partitioned in place: it carries local types, not global ones.
      const bool split = !xs[0].empty() || !xs[1].empty();
      auto globalLoop = [&](const std::string& header) {
        return split ? std::vector<std::string>{header} : std::vector<std::string>{};
      };
      cases.push_back({absl::StrCat("training_", suffix), Module(mesh, kTraining, xs, {}, 0),
                       {x, w}, globalLoop(": tensor<i32>, tensor<7x4xi32>, tensor<4x4xi32> cond")});
      cases.push_back({absl::StrCat("data_dependent_", suffix),
                       Module(mesh, kDataDependent, xs, {}, 0), {positive},
                       globalLoop(") : tensor<7x4xi32> cond")});
      // y split along the other dims' axes in reverse, so operands disagree.
      std::vector<std::vector<std::string>> ys = {xs[1], xs[0]};
      for (int index : {0, 1, 2, -1, 5}) {
        cases.push_back({absl::StrCat("case_", index < 0 ? "neg" : absl::StrCat(index), "_",
                                      suffix),
                         Module(mesh, kCase, xs, ys, index), {x, y}, {}});
      }
      cases.push_back({absl::StrCat("invariant_weight_", suffix),
                       Module(mesh, kInvariantWeight, xs, {}, 0), {x, w},
                       globalLoop(": tensor<i32>, tensor<7x4xi32>, tensor<4x4xi32> cond")});
      for (int index : {0, 1}) {
        cases.push_back({absl::StrCat("case_common_reshard_", index, "_", suffix),
                         Module(mesh, kCaseCommonReshard, xs, {}, index), {x, w}, {}});
      }
      cases.push_back({absl::StrCat("dead_control_flow_", suffix),
                       Module(mesh, kDeadControlFlow, xs, ys, 0), {x, y},
                       {"hlo.case", "hlo.while"}});
      for (int index : {0, 1}) {
        cases.push_back({absl::StrCat("nested_", index, "_", suffix),
                         Module(mesh, kNested, xs, xs, index), {positive, positive},
                         globalLoop(": tensor<i32>, tensor<7x4xi32> cond")});
      }
    }
  }
  return cases;
}

class ControlFlowTest : public ::testing::TestWithParam<Case> {};

TEST_P(ControlFlowTest, MatchesSingleDevice) {
  const Case& c = GetParam();
  testing::HarnessOptions options;
  options.expect_not_in_program = c.expect_not_in_program;
  testing::ExpectPartitionedRunMatches(c.module, c.inputs, options);
}

INSTANTIATE_TEST_SUITE_P(Generated, ControlFlowTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           return info.param.name;
                         });

// A loop that never ends stops the reference run once max_while_iterations is reached, so a
// fuzz case that loops for ever is reported as a reference failure instead of hanging.
TEST(ControlFlowLimitsTest, AnEndlessLoopFailsTheReferenceRun) {
  const std::string endless = R"(
tessel.mesh @mesh = <["x"=2]>
func.func @main(%x: tensor<4xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}]>}) -> tensor<4xi32> {
  %r = hlo.while(%a = %x) : tensor<4xi32>
  cond {
    %t = hlo.constant dense<true> : tensor<i1>
    hlo.return %t : tensor<i1>
  } do {
    hlo.return %a : tensor<4xi32>
  }
  return %r : tensor<4xi32>
})";
  testing::HarnessOptions options;
  options.max_while_iterations = 50;
  testing::PartitionedRun run = testing::CheckPartitionedRun(
      endless, {runtime::RandomTensor(ElementType::kS32, {4}, 1)}, options);
  EXPECT_FALSE(run.status.ok());
  EXPECT_EQ(run.failed_stage, "reference");
  EXPECT_NE(run.status.message().find("max_while_iterations = 50"), std::string::npos)
      << run.status;
}

}  // namespace
}  // namespace tessel
