// Computations (reducers, comparators, scatter's update, select_and_scatter's select) that
// read a value of the enclosing function instead of only their arguments: the partitioner
// clones such regions onto local shards, and the values they read must become local too.
// Each program is partitioned over every standard mesh and every sharding of its split
// operand, and run against the single-device program.
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
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

// A weighted sum: the reducer scales each element by the function's argument %s.
constexpr char kReduce[] = R"(
func.func @main(%x: tensor<6x5xi32> XS, %s: tensor<i32>) -> tensor<6xi32> {
  %z = hlo.constant dense<0> : tensor<i32>
  %r = hlo.reduce(%x) init(%z) dimensions = [1] : (tensor<6x5xi32>, tensor<i32>) -> tensor<6xi32> reducer {
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %m = hlo.mul %b, %s : tensor<i32>
    %t = hlo.add %a, %m : tensor<i32>
    hlo.return %t : tensor<i32>
  }
  return %r : tensor<6xi32>
})";

// The same reducer over windows, reading a value the function computes.
constexpr char kReduceWindow[] = R"(
func.func @main(%x: tensor<6x5xi32> XS, %s: tensor<i32>) -> tensor<5x5xi32> {
  %z = hlo.constant dense<0> : tensor<i32>
  %s2 = hlo.add %s, %s : tensor<i32>
  %r = hlo.reduce_window(%x) init(%z) window_dimensions = [2, 1] : (tensor<6x5xi32>, tensor<i32>) -> tensor<5x5xi32> reducer {
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %m = hlo.mul %b, %s2 : tensor<i32>
    %t = hlo.add %a, %m : tensor<i32>
    hlo.return %t : tensor<i32>
  }
  return %r : tensor<5x5xi32>
})";

// A sort whose comparator orders by distance from the argument %s.
constexpr char kSort[] = R"(
func.func @main(%x: tensor<6x5xi32> XS, %s: tensor<i32>) -> tensor<6x5xi32> {
  %r = hlo.sort(%x) dimension = 1 : tensor<6x5xi32> comparator {
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %da = hlo.sub %a, %s : tensor<i32>
    %db = hlo.sub %b, %s : tensor<i32>
    %aa = hlo.abs %da : tensor<i32>
    %ab = hlo.abs %db : tensor<i32>
    %p = hlo.compare LT, %aa, %ab : tensor<i32>
    hlo.return %p : tensor<i1>
  }
  return %r : tensor<6x5xi32>
})";

// select_and_scatter whose select reads a flag of the function: with the flag false every
// window keeps its first element.
constexpr char kSelectAndScatter[] = R"(
func.func @main(%x: tensor<6x5xi32> XS, %s: tensor<i32>) -> tensor<6x5xi32> {
  %src = hlo.constant dense<1> : tensor<3x5xi32>
  %z = hlo.constant dense<0> : tensor<i32>
  %limit = hlo.constant dense<0> : tensor<i32>
  %flag = hlo.compare GT, %s, %limit : tensor<i32>
  %r = hlo.select_and_scatter(%x, %src, %z) window_dimensions = [2, 1], window_strides = [2, 1] : (tensor<6x5xi32>, tensor<3x5xi32>, tensor<i32>) -> tensor<6x5xi32> select {
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %ge = hlo.compare GE, %a, %b : tensor<i32>
    %p = hlo.and %ge, %flag : tensor<i1>
    hlo.return %p : tensor<i1>
  } scatter {
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %t = hlo.add %a, %b : tensor<i32>
    hlo.return %t : tensor<i32>
  }
  return %r : tensor<6x5xi32>
})";

std::vector<Case> Cases() {
  std::vector<Case> cases;
  Tensor x = runtime::RandomTensor(ElementType::kS32, {6, 5}, 31);
  const struct {
    const char* name;
    const char* body;
  } programs[] = {{"reduce", kReduce},
                  {"reduce_window", kReduceWindow},
                  {"sort", kSort},
                  {"select_and_scatter", kSelectAndScatter}};
  for (const testing::TestMesh& mesh : testing::StandardMeshes()) {
    auto shardings = testing::DimAssignments(2, mesh.axes);
    for (size_t s = 0; s < shardings.size(); ++s) {
      for (const auto& program : programs) {
        for (int32_t scalar : {3, -2}) {
          cases.push_back(
              {absl::StrCat(program.name, "_", scalar < 0 ? "neg" : "pos", "_", mesh.devices,
                            "dev", mesh.axes.size(), "d_", s),
               absl::StrReplaceAll(
                   absl::StrCat("tessel.mesh @mesh = <", mesh.text, ">", program.body),
                   {{"XS", testing::ShardingArgAttrText(shardings[s])}}),
               {x, Tensor::FromVector<int32_t>({}, {scalar})}});
        }
      }
    }
  }
  return cases;
}

class CapturedValuesTest : public ::testing::TestWithParam<Case> {};

TEST_P(CapturedValuesTest, MatchesSingleDevice) {
  testing::ExpectPartitionedRunMatches(GetParam().module, GetParam().inputs,
                                       testing::HarnessOptions());
}

INSTANTIATE_TEST_SUITE_P(Generated, CapturedValuesTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           return info.param.name;
                         });

}  // namespace
}  // namespace tessel
