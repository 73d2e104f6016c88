// hlo.optimization_barrier over two values with layouts of their own, partitioned over
// every standard mesh against the single-device run: each pair keeps its operand's layout
// (both may use the same axis, since they are different values), and the program must send
// nothing for the barrier itself.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "runtime/random_inputs.h"
#include "tests/differential/partition_harness.h"

namespace tessel {
namespace {

struct BarrierCase {
  std::string name;
  std::string module;
};

std::vector<BarrierCase> Cases() {
  std::vector<BarrierCase> cases;
  for (const testing::TestMesh& mesh : testing::StandardMeshes()) {
    auto shardings = testing::DimAssignments(2, mesh.axes);
    for (size_t i = 0; i < shardings.size(); ++i) {
      const size_t j = (i * 3 + 1) % shardings.size();
      cases.push_back(
          {absl::StrCat(mesh.devices, "dev", mesh.axes.size(), "d_", i),
           absl::StrCat(
               "tessel.mesh @mesh = <", mesh.text, ">\nfunc.func @main(%a: tensor<7x6xf32> ",
               testing::ShardingArgAttrText(shardings[i]), ", %b: tensor<6x5xi32> ",
               testing::ShardingArgAttrText(shardings[j]),
               ") -> (tensor<7x6xf32>, tensor<6x5xi32>) {\n"
               "  %x, %y = hlo.optimization_barrier %a, %b : tensor<7x6xf32>, tensor<6x5xi32>\n"
               "  %n = hlo.neg %x : tensor<7x6xf32>\n"
               "  %m = hlo.not %y : tensor<6x5xi32>\n"
               "  return %n, %m : tensor<7x6xf32>, tensor<6x5xi32>\n}\n")});
    }
  }
  return cases;
}

void PrintTo(const BarrierCase& c, std::ostream* os) { *os << c.name; }

class OptimizationBarrierTest : public ::testing::TestWithParam<BarrierCase> {};

TEST_P(OptimizationBarrierTest, MatchesSingleDeviceWithoutCollectives) {
  testing::HarnessOptions options;
  options.expect_not_in_program = {"tessel.all_gather", "tessel.all_to_all",
                                   "tessel.collective_permute", "tessel.all_reduce"};
  options.replication_is_error = true;
  testing::ExpectPartitionedRunMatches(
      GetParam().module,
      {runtime::RandomTensor(runtime::ElementType::kF32, {7, 6}, 5),
       runtime::RandomTensor(runtime::ElementType::kS32, {6, 5}, 6)},
      options);
}

INSTANTIATE_TEST_SUITE_P(Generated, OptimizationBarrierTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<BarrierCase>& info) {
                           return info.param.name;
                         });

}  // namespace
}  // namespace tessel
