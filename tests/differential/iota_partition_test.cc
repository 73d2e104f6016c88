// iota partitioned along each dimension, evenly and unevenly, over every standard mesh and
// every sharding of a rank-2 result: each shard must count from its own offset.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "gtest/gtest.h"
#include "runtime/random_inputs.h"
#include "tests/differential/partition_harness.h"

namespace tessel {
namespace {

struct IotaCase {
  std::string name;
  std::string module;
  runtime::ElementType type;
  bool split;
};

std::vector<IotaCase> Cases() {
  std::vector<IotaCase> cases;
  for (const testing::TestMesh& mesh : testing::StandardMeshes()) {
    auto shardings = testing::DimAssignments(2, mesh.axes);
    for (size_t i = 0; i < shardings.size(); ++i) {
      for (int dim = 0; dim < 2; ++dim) {
        for (const char* type : {"i32", "f32"}) {
          std::string module = absl::StrReplaceAll(
              R"(tessel.mesh @mesh = <MESH>
func.func @main(%a: tensor<7x6xT> SHARDING) -> tensor<7x6xT> {
  %i = hlo.iota dim = DIM : tensor<7x6xT>
  %0 = hlo.add %a, %i : tensor<7x6xT>
  return %0 : tensor<7x6xT>
})",
              {{"MESH", mesh.text},
               {"SHARDING", testing::ShardingArgAttrText(shardings[i])},
               {"DIM", absl::StrCat(dim)},
               {"T", type}});
          cases.push_back({absl::StrCat(type, "_dim", dim, "_", mesh.devices, "dev",
                                        mesh.axes.size(), "d_", i),
                           module,
                           std::string(type) == "i32" ? runtime::ElementType::kS32
                                                      : runtime::ElementType::kF32,
                           !shardings[i][0].empty() || !shardings[i][1].empty()});
        }
      }
    }
  }
  return cases;
}

void PrintTo(const IotaCase& c, std::ostream* os) { *os << c.name; }

class IotaPartitionTest : public ::testing::TestWithParam<IotaCase> {};

TEST_P(IotaPartitionTest, ShardsCountFromTheirOffset) {
  const IotaCase& c = GetParam();
  testing::HarnessOptions options;
  // The iota is built locally, never gathered or cut from a whole one.
  options.expect_not_in_program = {"tessel.all_gather"};
  if (c.split) options.expect_not_in_program.push_back("hlo.iota dim = 0 : tensor<7x6x");
  if (c.split) options.expect_not_in_program.push_back("hlo.iota dim = 1 : tensor<7x6x");
  testing::ExpectPartitionedRunMatches(c.module, {runtime::RandomTensor(c.type, {7, 6}, 3)},
                                       options);
}

INSTANTIATE_TEST_SUITE_P(Generated, IotaPartitionTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<IotaCase>& info) {
                           return info.param.name;
                         });

}  // namespace
}  // namespace tessel
