// The shape-op handlers against the single-device run: slice (offset, strided), pad (edge,
// negative, interior), concatenate (along and across the split), reverse, dynamic_slice and
// dynamic_update_slice (random offsets in [-8, 8], so clamping is exercised), reshape
// (merging and splitting factors) and sort (along either dimension). Each program runs over
// the standard meshes (2, 3, 4, 6, 2x2, 2x3 devices) with every layout of its tensor
// arguments and every layout of its result, in i32 (exact) and f32. Partitioning runs with
// replication as an error (except where a layout has no partitioned form), so each case
// also shows that no op took the fallback.
#include <ostream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "gtest/gtest.h"
#include "runtime/random_inputs.h"
#include "tests/differential/partition_harness.h"

namespace tessel {
namespace {

using runtime::ElementType;

struct Program {
  std::string name;
  // ARG stands for the tensor arguments' annotation, RES for the result's, T for the
  // element type. Rank-0 arguments are offsets (i32) and stay unannotated.
  std::string text;
  std::vector<runtime::Shape> args;
  int arg_rank;
  int result_rank;
  // Some layouts have no partitioned form (a split crossing a factor boundary of a
  // reshape): the fallback may run, and only the values are checked.
  bool may_replicate = false;
};

std::vector<Program> Programs() {
  return {
      {"slice", R"(%0 = hlo.slice %a [2:12, 1:6] : (tensor<13x6xT>) -> tensor<10x5xT>
  return %0 : tensor<10x5xT>)", {{13, 6}}, 2, 2},
      {"slice_strided", R"(%0 = hlo.slice %a [1:13:3, 0:6:2] : (tensor<13x6xT>) -> tensor<4x3xT>
  return %0 : tensor<4x3xT>)", {{13, 6}}, 2, 2},
      {"pad_edges", R"(%v = hlo.constant dense<V> : tensor<T>
  %0 = hlo.pad %a, %v, low = [2, 0], high = [3, 1], interior = [0, 0] : (tensor<7x6xT>, tensor<T>) -> tensor<12x7xT>
  return %0 : tensor<12x7xT>)", {{7, 6}}, 2, 2},
      {"pad_interior_negative", R"(%v = hlo.constant dense<V> : tensor<T>
  %0 = hlo.pad %a, %v, low = [-1, 1], high = [2, -2], interior = [1, 0] : (tensor<7x6xT>, tensor<T>) -> tensor<14x5xT>
  return %0 : tensor<14x5xT>)", {{7, 6}}, 2, 2},
      {"concatenate", R"(%0 = hlo.concatenate %a, %b, dim = 0 : (tensor<7x6xT>, tensor<5x6xT>) -> tensor<12x6xT>
  return %0 : tensor<12x6xT>)", {{7, 6}, {5, 6}}, 2, 2},
      {"concatenate_three", R"(%0 = hlo.concatenate %a, %b, %a, dim = 1 : (tensor<5x4xT>, tensor<5x3xT>, tensor<5x4xT>) -> tensor<5x11xT>
  return %0 : tensor<5x11xT>)", {{5, 4}, {5, 3}}, 2, 2},
      {"reverse", R"(%0 = hlo.reverse %a, dims = [0, 1] : tensor<7x6xT>
  return %0 : tensor<7x6xT>)", {{7, 6}}, 2, 2},
      {"dynamic_slice", R"(%0 = hlo.dynamic_slice %a, %i, %j, sizes = [3, 6] : (tensor<7x6xT>, tensor<i32>, tensor<i32>) -> tensor<3x6xT>
  return %0 : tensor<3x6xT>)", {{7, 6}, {}, {}}, 2, 2},
      {"dynamic_update_slice", R"(%0 = hlo.dynamic_update_slice %a, %b, %i, %j : (tensor<7x6xT>, tensor<3x4xT>, tensor<i32>, tensor<i32>) -> tensor<7x6xT>
  return %0 : tensor<7x6xT>)", {{7, 6}, {3, 4}, {}, {}}, 2, 2},
      {"dynamic_update_slice_rows", R"(%0 = hlo.dynamic_update_slice %a, %b, %i, %j : (tensor<7x6xT>, tensor<2x6xT>, tensor<i32>, tensor<i32>) -> tensor<7x6xT>
  return %0 : tensor<7x6xT>)", {{7, 6}, {2, 6}, {}, {}}, 2, 2},
      {"reshape_merge", R"(%0 = hlo.reshape %a : (tensor<12x6xT>) -> tensor<72xT>
  return %0 : tensor<72xT>)", {{12, 6}}, 2, 1},
      {"reshape_split", R"(%0 = hlo.reshape %a : (tensor<72xT>) -> tensor<12x6xT>
  return %0 : tensor<12x6xT>)", {{72}}, 1, 2},
      {"reshape_regroup", R"(%0 = hlo.reshape %a : (tensor<12x6xT>) -> tensor<6x2x6xT>
  %1 = hlo.reshape %0 : (tensor<6x2x6xT>) -> tensor<6x12xT>
  return %1 : tensor<6x12xT>)", {{12, 6}}, 2, 2, /*may_replicate=*/true},
      {"sort", R"(%0 = hlo.sort(%a) dimension = 1 : tensor<7x6xT> comparator {
  ^bb0(%x: tensor<T>, %y: tensor<T>):
    %c = hlo.compare LT, %x, %y : tensor<T>
    hlo.return %c : tensor<i1>
  }
  return %0 : tensor<7x6xT>)", {{7, 6}}, 2, 2},
  };
}

struct ShapeCase {
  std::string name;
  std::string module;
  std::vector<runtime::Tensor> inputs;
  bool may_replicate;
};

std::vector<ShapeCase> Cases() {
  std::vector<ShapeCase> cases;
  int seed = 0;
  for (const Program& program : Programs()) {
    for (const testing::TestMesh& mesh : testing::StandardMeshes()) {
      auto argLayouts = testing::DimAssignments(program.arg_rank, mesh.axes);
      auto resultLayouts = testing::DimAssignments(program.result_rank, mesh.axes);
      for (size_t a = 0; a < argLayouts.size(); ++a) {
        for (size_t r = 0; r < resultLayouts.size(); ++r) {
          const bool exact = (a + r) % 2 == 0;
          const char* type = exact ? "i32" : "f32";
          const ElementType elementType = exact ? ElementType::kS32 : ElementType::kF32;
          testing::GeneratedModule generated = testing::GenerateModule(
              program.text, program.args, mesh, argLayouts[a], resultLayouts[r], type,
              elementType, &seed, {{"dense<V>", exact ? "dense<7>" : "dense<7.5>"}});
          cases.push_back({absl::StrCat(program.name, "_", type, "_", mesh.devices, "dev",
                                        mesh.axes.size(), "d_", a, "_", r),
                           generated.module, generated.inputs,
                           // 12 rows over 8 devices leave no even split of the major factor
                           // of the reshapes' 72 = 12 x 6: no partitioned form exists.
                           program.may_replicate ||
                               (absl::StartsWith(program.name, "reshape") &&
                                12 % mesh.devices != 0)});
        }
      }
    }
  }
  return cases;
}

void PrintTo(const ShapeCase& c, std::ostream* os) { *os << c.name; }

class ShapeOpsTest : public ::testing::TestWithParam<ShapeCase> {};

TEST_P(ShapeOpsTest, MatchesSingleDeviceWithoutFallback) {
  const ShapeCase& c = GetParam();
  testing::HarnessOptions options;
  options.replication_is_error = !c.may_replicate;
  testing::ExpectPartitionedRunMatches(c.module, c.inputs, options);
}

INSTANTIATE_TEST_SUITE_P(Generated, ShapeOpsTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<ShapeCase>& info) {
                           return info.param.name;
                         });

}  // namespace
}  // namespace tessel

namespace tessel {
namespace {

// Found by the random program test (seed 10139): a pad whose every shard cuts a window
// longer than the exchanged buffer (one operand element over 8 devices, interior padding).
TEST(ShapeOpsRegressionTest, PadWindowLongerThanTheBuffer) {
  testing::ExpectPartitionedRunMatches(R"(tessel.mesh @mesh = <["x"=8]>
func.func @main(%a: tensor<1xi32> {tessel.sharding = #tessel.sharding<@mesh, [{}]>})
    -> (tensor<2xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}]>}) {
  %z = hlo.constant dense<0> : tensor<i32>
  %0 = hlo.pad %a, %z, low = [-1], high = [2], interior = [1] : (tensor<1xi32>, tensor<i32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
})",
                                       {runtime::RandomTensor(ElementType::kS32, {1}, 3)});
}

}  // namespace
}  // namespace tessel
