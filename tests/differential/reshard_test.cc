// The reshard planner on every pair of layouts: a tensor of rank 2 or 3, split by layout A on
// its argument, goes through a sharding_constraint to layout B and is returned twice, once as
// B and once as A, so both A -> B and B -> A are planned and run. Layouts are every way to
// give each mesh axis to one dimension (or none), in every order on a dimension; meshes are
// the standard 2, 3, 4, 6, 2x2 and 2x3 devices; shapes split unevenly (7, 5) and evenly (12,
// and 8x12, where the planner can exchange pieces on 2, 4 and 2x2 devices). Also: a split
// value made unreduced over an axis that splits it.
#include <cstdint>
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

// The sharding as sharding_constraint writes it: `<@mesh, [...]>`.
std::string ConstraintText(const Layout& layout) {
  return absl::StrReplaceAll(testing::ShardingAttrText(layout), {{"#tessel.sharding", ""}});
}

struct ReshardCase {
  std::string name;
  std::string module;
  runtime::Shape shape;
  runtime::ElementType type;
  // Every dimension keeps its shard count: the planner must permute, not gather.
  bool permute;
};

std::vector<ReshardCase> Cases() {
  std::vector<ReshardCase> cases;
  const std::vector<runtime::Shape> shapes = {{7, 12}, {5, 12, 7}, {8, 12}};
  for (const testing::TestMesh& mesh : testing::StandardMeshes()) {
    for (const runtime::Shape& shape : shapes) {
      const int rank = shape.size();
      std::vector<std::string> sizes;
      for (int64_t size : shape) sizes.push_back(absl::StrCat(size));
      const std::string dims = absl::StrJoin(sizes, "x");
      std::vector<Layout> layouts = testing::AllLayouts(rank, mesh.axes);
      int index = 0;
      for (const Layout& from : layouts) {
        for (const Layout& to : layouts) {
          const bool exact = (index++) % 2 == 0;
          const char* type = exact ? "i32" : "f32";
          std::string module = absl::StrReplaceAll(
              R"(tessel.mesh @mesh = <MESH>
func.func @main(%a: tensor<DxT> FROM) -> (tensor<DxT> TO, tensor<DxT> FROM) {
  %b = tessel.sharding_constraint %a TOSHARDING : tensor<DxT>
  return %b, %b : tensor<DxT>, tensor<DxT>
})",
              {{"MESH", mesh.text},
               {"FROM", testing::ShardingArgAttrText(from)},
               {"TO", testing::ShardingArgAttrText(to)},
               {"TOSHARDING", ConstraintText(to)},
               {"D", dims},
               {"T", type}});
          cases.push_back(
              {absl::StrCat(type, "_", dims, "_", mesh.devices, "dev", mesh.axes.size(), "d_",
                            testing::LayoutName(from), "_to_", testing::LayoutName(to)),
               module, shape, exact ? runtime::ElementType::kS32 : runtime::ElementType::kF32,
               from != to && testing::ShardCounts(from, mesh) == testing::ShardCounts(to, mesh)});
        }
      }
    }
  }
  return cases;
}

void PrintTo(const ReshardCase& c, std::ostream* os) { *os << c.name; }

class ReshardTest : public ::testing::TestWithParam<ReshardCase> {};

TEST_P(ReshardTest, BothDirectionsKeepEveryElement) {
  const ReshardCase& c = GetParam();
  testing::HarnessOptions options;
  if (c.permute) {
    options.expect_in_program = {"tessel.collective_permute"};
    options.expect_not_in_program = {"tessel.all_gather"};
  }
  testing::ExpectPartitionedRunMatches(c.module, {runtime::RandomTensor(c.type, c.shape, 11)},
                                       options);
}

// The piece exchange run end to end (piece_exchange.h): several axes moving at once on 2x4
// (7 rounds of one permute, nothing gathered), and shard counts 2 and 3 meeting on one
// dimension of a 2x3 mesh (pieces of lcm granularity, a spare piece for idle rounds).
TEST(PieceExchangeRunTest, SeveralAxesAndLcmPiecesKeepEveryElement) {
  testing::HarnessOptions severalAxes;
  severalAxes.expect_count_in_program = {{"tessel.collective_permute", 7}};
  severalAxes.expect_not_in_program = {"tessel.all_gather", "tessel.all_to_all"};
  testing::ExpectPartitionedRunMatches(
      R"(tessel.mesh @mesh = <["x"=2, "y"=4]>
func.func @main(%a: tensor<16x16xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"y", "x"}, {}]>})
    -> (tensor<16x16xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {"y"}]>}) {
  %b = tessel.sharding_constraint %a <@mesh, [{}, {"y"}]> : tensor<16x16xf32>
  return %b : tensor<16x16xf32>
})",
      {runtime::RandomTensor(runtime::ElementType::kF32, {16, 16}, 5)}, severalAxes);
  testing::HarnessOptions lcm;
  lcm.expect_in_program = {"tessel.collective_permute"};
  lcm.expect_not_in_program = {"tessel.all_gather"};
  testing::ExpectPartitionedRunMatches(
      R"(tessel.mesh @mesh = <["x"=2, "y"=3]>
func.func @main(%a: tensor<12x5xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<12x5xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"y"}, {}]>}) {
  %b = tessel.sharding_constraint %a <@mesh, [{"y"}, {}]> : tensor<12x5xi32>
  return %b : tensor<12x5xi32>
})",
      {runtime::RandomTensor(runtime::ElementType::kS32, {12, 5}, 6)}, lcm);
}

// A value split over "y" (and "x") constrained to be unreduced over "y": "y" must come off
// the split before the value is kept on one device of each "y" group (keeping it first
// dropped the rows the other "y" devices held). Then reduced again for the result. Every
// layout of the source over both axes, evenly (8 rows) and unevenly (6, over 16 devices).
TEST(UnreducedReshardRunTest, AddingAnAxisThatSplitsTheValueGathersItFirst) {
  const std::vector<std::string> sources = {R"({"x", "y"})", R"({"y", "x"})", R"({"y"})",
                                            R"({"y":(1)2})", R"({"y":(2)2, "x"})"};
  for (int rows : {8, 6}) {
    for (const std::string& source : sources) {
      SCOPED_TRACE(absl::StrCat(rows, " rows, ", source));
      testing::ExpectPartitionedRunMatches(
          absl::StrReplaceAll(R"(tessel.mesh @mesh = <["x"=4, "y"=4]>
func.func @main(%a: tensor<ROWSx3xf32> {tessel.sharding = #tessel.sharding<@mesh, [SOURCE, {}]>})
    -> (tensor<ROWSx3xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {"x"}]>}) {
  %b = tessel.sharding_constraint %a <@mesh, [{"x"}, {}], unreduced={"y"}> : tensor<ROWSx3xf32>
  %c = hlo.add %b, %b : tensor<ROWSx3xf32>
  return %c : tensor<ROWSx3xf32>
})",
                              {{"ROWS", absl::StrCat(rows)}, {"SOURCE", source}}),
          {runtime::RandomTensor(runtime::ElementType::kF32, {rows, 3}, 7)});
    }
  }
}

// A value made unreduced is kept on one device of each group, the others holding the sum's
// identity: -0, so that summing the group gives back -0 where the value was -0 (with +0 the
// sum was +0, which a total-order comparison tells apart; found by the fuzzer with
// floor(rem(x, y)), seed 3016575). Over one axis and two.
TEST(UnreducedReshardRunTest, NegativeZeroSurvivesTheRoundTrip) {
  runtime::Tensor values = runtime::Tensor::FromVector<float>(
      {8}, {-0.0f, 0.0f, -1.0f, 1.0f, -0.0f, 2.0f, -0.0f, 0.0f});
  for (const char* unreduced : {R"("x")", R"("x", "y")"}) {
    SCOPED_TRACE(unreduced);
    testing::ExpectPartitionedRunMatches(
        absl::StrReplaceAll(R"(tessel.mesh @mesh = <["x"=4, "y"=2]>
func.func @main(%a: tensor<8xf32>) -> tensor<8xi1> {
  %u = tessel.sharding_constraint %a <@mesh, [{}], unreduced={AXES}> : tensor<8xf32>
  %r = tessel.sharding_constraint %u <@mesh, [{}]> : tensor<8xf32>
  %z = hlo.constant dense<0.0> : tensor<8xf32>
  %lt = hlo.compare LT, %r, %z, TOTALORDER : tensor<8xf32>
  return %lt : tensor<8xi1>
})",
                            {{"AXES", unreduced}}),
        {values});
  }
}

// The same for complex values: both parts of the identity are -0, so a part that was -0
// keeps its sign after the group's sum (with a +0 part it came back +0).
TEST(UnreducedReshardRunTest, NegativeZeroSurvivesTheRoundTripInComplexParts) {
  runtime::Tensor re = runtime::Tensor::FromVector<float>(
      {8}, {-0.0f, 0.0f, -1.0f, -0.0f, 0.0f, 2.0f, -0.0f, 3.0f});
  runtime::Tensor im = runtime::Tensor::FromVector<float>(
      {8}, {-0.0f, -0.0f, 0.0f, 4.0f, -0.0f, -0.0f, 5.0f, 0.0f});
  testing::ExpectPartitionedRunMatches(R"(tessel.mesh @mesh = <["x"=4, "y"=2]>
func.func @main(%a: tensor<8xf32>, %b: tensor<8xf32>) -> (tensor<8xi1>, tensor<8xi1>) {
  %c = hlo.complex %a, %b : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xcomplex<f32>>
  %u = tessel.sharding_constraint %c <@mesh, [{}], unreduced={"x", "y"}> : tensor<8xcomplex<f32>>
  %r = tessel.sharding_constraint %u <@mesh, [{}]> : tensor<8xcomplex<f32>>
  %re = hlo.real %r : (tensor<8xcomplex<f32>>) -> tensor<8xf32>
  %im = hlo.imag %r : (tensor<8xcomplex<f32>>) -> tensor<8xf32>
  %z = hlo.constant dense<0.0> : tensor<8xf32>
  %re_neg = hlo.compare LT, %re, %z, TOTALORDER : tensor<8xf32>
  %im_neg = hlo.compare LT, %im, %z, TOTALORDER : tensor<8xf32>
  return %re_neg, %im_neg : tensor<8xi1>, tensor<8xi1>
})",
                                       {re, im});
}

INSTANTIATE_TEST_SUITE_P(Generated, ReshardTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<ReshardCase>& info) {
                           return info.param.name;
                         });

}  // namespace
}  // namespace tessel
