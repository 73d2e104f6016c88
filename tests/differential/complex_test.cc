// Complex numbers (c64, c128) through the partitioner against the single-device run: the
// data-moving ops and the reshards between every pair of layouts (all-gather, all-to-all,
// collective-permute, dynamic-slice), pad with a complex padding value (the halo and masking
// paths build complex constants), a contraction over a split dimension and a sum reduce
// (all-reduce and reduce-scatter of complex sums), and complex arithmetic. Each program runs
// over the standard meshes (2, 3, 4, 6, 2x2, 2x3 devices) with every layout of its tensor
// arguments and of its result, alternating c64 and c128.
#include <ostream>
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

struct Program {
  std::string name;
  // ARG/RES as in shape_ops_test: T stands for the complex element type. Rank-0 arguments
  // are offsets (i32) and stay unannotated.
  std::string text;
  std::vector<runtime::Shape> args;
  int arg_rank;
  int result_rank;
};

std::vector<Program> Programs() {
  return {
      {"arithmetic", R"(%m = hlo.mul %a, %b : tensor<6x12xT>
  %s = hlo.sub %m, %a : tensor<6x12xT>
  %n = hlo.neg %s : tensor<6x12xT>
  %0 = hlo.add %n, %b : tensor<6x12xT>
  return %0 : tensor<6x12xT>)", {{6, 12}, {6, 12}}, 2, 2},
      {"transpose", R"(%0 = hlo.transpose %a, permutation = [1, 0] : (tensor<6x12xT>) -> tensor<12x6xT>
  return %0 : tensor<12x6xT>)", {{6, 12}}, 2, 2},
      {"pad", R"(%v = hlo.constant dense<(1.5, -2.0)> : tensor<T>
  %0 = hlo.pad %a, %v, low = [1, -1], high = [2, 1], interior = [1, 0] : (tensor<7x6xT>, tensor<T>) -> tensor<16x6xT>
  return %0 : tensor<16x6xT>)", {{7, 6}}, 2, 2},
      {"concatenate", R"(%0 = hlo.concatenate %a, %b, dim = 0 : (tensor<7x6xT>, tensor<5x6xT>) -> tensor<12x6xT>
  return %0 : tensor<12x6xT>)", {{7, 6}, {5, 6}}, 2, 2},
      {"dynamic_slice", R"(%0 = hlo.dynamic_slice %a, %i, %j, sizes = [3, 6] : (tensor<7x6xT>, tensor<i32>, tensor<i32>) -> tensor<3x6xT>
  return %0 : tensor<3x6xT>)", {{7, 6}, {}, {}}, 2, 2},
      {"dynamic_update_slice", R"(%0 = hlo.dynamic_update_slice %a, %b, %i, %j : (tensor<7x6xT>, tensor<3x4xT>, tensor<i32>, tensor<i32>) -> tensor<7x6xT>
  return %0 : tensor<7x6xT>)", {{7, 6}, {3, 4}, {}, {}}, 2, 2},
      {"dot", R"(%0 = hlo.dot_general %a, %b, lhs_contract = [1], rhs_contract = [0] : (tensor<6x12xT>, tensor<12x6xT>) -> tensor<6x6xT>
  return %0 : tensor<6x6xT>)", {{6, 12}, {12, 6}}, 2, 2},
      {"reduce_sum", R"(%z = hlo.constant dense<(0.0, 0.0)> : tensor<T>
  %0 = hlo.reduce(%a) init(%z) dimensions = [1] : (tensor<6x12xT>, tensor<T>) -> tensor<6xT> reducer {
  ^bb0(%x: tensor<T>, %y: tensor<T>):
    %s = hlo.add %x, %y : tensor<T>
    hlo.return %s : tensor<T>
  }
  return %0 : tensor<6xT>)", {{6, 12}}, 2, 1},
  };
}

struct ComplexCase {
  std::string name;
  std::string module;
  std::vector<runtime::Tensor> inputs;
};

std::vector<ComplexCase> Cases() {
  std::vector<ComplexCase> cases;
  int seed = 0;
  for (const Program& program : Programs()) {
    for (const testing::TestMesh& mesh : testing::StandardMeshes()) {
      auto argLayouts = testing::DimAssignments(program.arg_rank, mesh.axes);
      auto resultLayouts = testing::DimAssignments(program.result_rank, mesh.axes);
      for (size_t a = 0; a < argLayouts.size(); ++a) {
        for (size_t r = 0; r < resultLayouts.size(); ++r) {
          const bool narrow = (a + r) % 2 == 0;
          const char* name = narrow ? "c64" : "c128";
          const char* type = narrow ? "complex<f32>" : "complex<f64>";
          const ElementType elementType = narrow ? ElementType::kC64 : ElementType::kC128;
          testing::GeneratedModule generated =
              testing::GenerateModule(program.text, program.args, mesh, argLayouts[a],
                                      resultLayouts[r], type, elementType, &seed);
          cases.push_back({absl::StrCat(program.name, "_", name, "_", mesh.devices, "dev",
                                        mesh.axes.size(), "d_", a, "_", r),
                           generated.module, generated.inputs});
        }
      }
    }
  }
  return cases;
}

void PrintTo(const ComplexCase& c, std::ostream* os) { *os << c.name; }

class ComplexTest : public ::testing::TestWithParam<ComplexCase> {};

// Uneven splits (7 rows over 2, 4 or 6 devices) may leave a layout without a partitioned
// form, so replication is allowed; the values must match either way.
TEST_P(ComplexTest, MatchesSingleDevice) {
  const ComplexCase& c = GetParam();
  testing::ExpectPartitionedRunMatches(c.module, c.inputs, testing::HarnessOptions());
}

INSTANTIATE_TEST_SUITE_P(Generated, ComplexTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<ComplexCase>& info) {
                           return info.param.name;
                         });

}  // namespace
}  // namespace tessel
