// Resharding between meshes over the same devices in another order, and to and from a
// single device (a maximal sharding): a tensor split by layout A of the standard mesh
// @mesh goes through a sharding_constraint to layout B of mesh @order (the same axes, the
// devices reversed or interleaved) and is returned as B and as A, so both directions are
// planned and run. Shapes split unevenly (7x12) and evenly (8x12). Where every dimension
// keeps its shard count, one collective_permute must do it (no gather); a value on one
// device reaches the others by one all_reduce of its bits.
#include <cstdint>
#include <numeric>
#include <ostream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "gtest/gtest.h"
#include "runtime/random_inputs.h"
#include "tests/differential/partition_harness.h"

namespace tessel {
namespace {

using Layout = std::vector<std::vector<std::string>>;

// `text` (a sharding on @mesh) moved onto mesh `mesh`.
std::string OnMesh(std::string text, const std::string& mesh) {
  return absl::StrReplaceAll(text, {{"@mesh,", absl::StrCat("@", mesh, ",")}});
}

struct OrderCase {
  std::string name;
  std::string module;
  runtime::Shape shape;
  runtime::ElementType type;
  bool permute;  // the shard counts agree: one collective_permute, nothing gathered
};

// Device orders other than the mesh's own: reversed, and evens before odds.
std::vector<std::pair<std::string, std::vector<int64_t>>> Orders(int64_t devices) {
  std::vector<int64_t> reversed(devices);
  std::iota(reversed.rbegin(), reversed.rend(), 0);
  std::vector<std::pair<std::string, std::vector<int64_t>>> orders = {{"rev", reversed}};
  if (devices >= 4) {
    std::vector<int64_t> interleaved;
    for (int64_t start : {0, 1}) {
      for (int64_t d = start; d < devices; d += 2) interleaved.push_back(d);
    }
    orders.push_back({"evenodd", interleaved});
  }
  return orders;
}

std::vector<OrderCase> Cases() {
  std::vector<OrderCase> cases;
  const std::vector<runtime::Shape> shapes = {{7, 12}, {8, 12}};
  for (const testing::TestMesh& mesh : testing::StandardMeshes()) {
    if (mesh.devices < 2) continue;
    for (const auto& [order_name, order] : Orders(mesh.devices)) {
      for (const runtime::Shape& shape : shapes) {
        const std::string dims = absl::StrCat(shape[0], "x", shape[1]);
        std::vector<Layout> layouts = testing::AllLayouts(2, mesh.axes);
        int index = 0;
        for (const Layout& from : layouts) {
          for (const Layout& to : layouts) {
            const bool exact = (index++) % 2 == 0;
            const char* type = exact ? "i32" : "f32";
            std::string module = absl::StrReplaceAll(
                R"(tessel.mesh @mesh = <MESH>
tessel.mesh @order = <MESH, device_ids=[IDS]>
func.func @main(%a: tensor<DxT> FROM) -> (tensor<DxT> TO, tensor<DxT> FROM) {
  %b = tessel.sharding_constraint %a TOSHARDING : tensor<DxT>
  return %b, %b : tensor<DxT>, tensor<DxT>
})",
                {{"MESH", mesh.text},
                 {"IDS", absl::StrJoin(order, ", ")},
                 {"FROM", testing::ShardingArgAttrText(from)},
                 {"TO", OnMesh(testing::ShardingArgAttrText(to), "order")},
                 {"TOSHARDING", OnMesh(absl::StrReplaceAll(testing::ShardingAttrText(to),
                                                           {{"#tessel.sharding", ""}}),
                                       "order")},
                 {"D", dims},
                 {"T", type}});
            cases.push_back(
                {absl::StrCat(type, "_", dims, "_", mesh.devices, "dev", mesh.axes.size(), "d_",
                              order_name, "_", testing::LayoutName(from), "_to_",
                              testing::LayoutName(to)),
                 module, shape, exact ? runtime::ElementType::kS32 : runtime::ElementType::kF32,
                 testing::ShardCounts(from, mesh) == testing::ShardCounts(to, mesh)});
          }
        }
      }
    }
  }
  return cases;
}

void PrintTo(const OrderCase& c, std::ostream* os) { *os << c.name; }

class DeviceOrderTest : public ::testing::TestWithParam<OrderCase> {};

TEST_P(DeviceOrderTest, BothDirectionsKeepEveryElement) {
  const OrderCase& c = GetParam();
  testing::HarnessOptions options;
  if (c.permute) options.expect_not_in_program = {"tessel.all_gather", "tessel.all_to_all"};
  testing::ExpectPartitionedRunMatches(c.module, {runtime::RandomTensor(c.type, c.shape, 13)},
                                       options);
}

INSTANTIATE_TEST_SUITE_P(Generated, DeviceOrderTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<OrderCase>& info) {
                           return info.param.name;
                         });

// A value that lives on one device (a maximal sharding: @one holds device `owner` only)
// read in every layout of the standard mesh, and every layout's value brought to one
// device. Non-owners are fed zeros for it, so a program that read their copy would fail.
struct MaximalCase {
  std::string name;
  std::string module;
  runtime::ElementType type;
  bool from_owner;
};

std::vector<MaximalCase> MaximalCases() {
  std::vector<MaximalCase> cases;
  for (const testing::TestMesh& mesh : testing::StandardMeshes()) {
    if (mesh.devices < 2) continue;
    const int64_t owner = mesh.devices - 1;
    for (const Layout& layout : testing::AllLayouts(2, mesh.axes)) {
      for (bool from_owner : {true, false}) {
        for (const char* type : {"f32", "i1", "bf16"}) {
          const std::string split = testing::ShardingArgAttrText(layout);
          const std::string one = R"({tessel.sharding = #tessel.sharding<@one, [{}, {}]>})";
          std::string module = absl::StrReplaceAll(
              R"(tessel.mesh @mesh = <MESH>
tessel.mesh @one = <[], device_ids=[OWNER]>
func.func @main(%a: tensor<7x12xT> FROM) -> (tensor<7x12xT> TO) {
  %b = tessel.sharding_constraint %a TOSHARDING : tensor<7x12xT>
  return %b : tensor<7x12xT>
})",
              {{"MESH", mesh.text},
               {"OWNER", absl::StrCat(owner)},
               {"FROM", from_owner ? one : split},
               {"TO", from_owner ? split : one},
               {"TOSHARDING", from_owner ? absl::StrReplaceAll(testing::ShardingAttrText(layout),
                                                               {{"#tessel.sharding", ""}})
                                         : "<@one, [{}, {}]>"},
               {"T", type}});
          const runtime::ElementType element =
              std::string(type) == "f32"  ? runtime::ElementType::kF32
              : std::string(type) == "i1" ? runtime::ElementType::kPred
                                          : runtime::ElementType::kBF16;
          cases.push_back({absl::StrCat(type, "_", mesh.devices, "dev", mesh.axes.size(), "d_",
                                        from_owner ? "from_one_to_" : "to_one_from_",
                                        testing::LayoutName(layout)),
                           module, element, from_owner});
        }
      }
    }
  }
  return cases;
}

void PrintTo(const MaximalCase& c, std::ostream* os) { *os << c.name; }

class MaximalTest : public ::testing::TestWithParam<MaximalCase> {};

TEST_P(MaximalTest, OwnerAndReadersAgree) {
  const MaximalCase& c = GetParam();
  testing::HarnessOptions options;
  // Leaving the owner is one all_reduce of the bits; reaching it gathers at most.
  if (c.from_owner) options.expect_count_in_program = {{"tessel.all_reduce", 1}};
  testing::ExpectPartitionedRunMatches(c.module, {runtime::RandomTensor(c.type, {7, 12}, 17)},
                                       options);
}

INSTANTIATE_TEST_SUITE_P(Generated, MaximalTest, ::testing::ValuesIn(MaximalCases()),
                         [](const ::testing::TestParamInfo<MaximalCase>& info) {
                           return info.param.name;
                         });

}  // namespace
}  // namespace tessel
