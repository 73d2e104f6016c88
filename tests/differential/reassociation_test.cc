// Sums of reductions folded into reductions of sums (spmd/collective_reassociation.h), end
// to end on every standard mesh, uneven splits included: a parallel transformer block (two
// row-parallel outputs added) holds one all_reduce, also when one is scaled and transposed
// on the way; a difference of two, a chain of three,
// two reduce_scatters onto the same rows fold alike; a reduction something else reads too
// stays. Each run must equal the single-device program.
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "gtest/gtest.h"
#include "runtime/random_inputs.h"
#include "tests/differential/partition_harness.h"

namespace tessel {
namespace {

using runtime::ElementType;
using runtime::RandomTensor;

class ReassociationTest : public ::testing::TestWithParam<testing::TestMesh> {
 protected:
  // `text` with MESH, COLS (columns split over every axis), ROWS and ROWC (the same rows
  // split as a constraint) filled in, partitioned and run on inputs of `shapes`; the program
  // must hold exactly `counts` of each collective.
  void Check(const char* text, const std::vector<runtime::Shape>& shapes,
             std::vector<std::pair<std::string, int>> counts) {
    const std::vector<std::string>& all = GetParam().axes;
    std::string module = absl::StrReplaceAll(
        text, {{"MESH", GetParam().text},
               {"COLS", testing::ShardingArgAttrText({{}, all})},
               {"ROWS", testing::ShardingArgAttrText({all, {}})},
               {"ROWC", absl::StrReplaceAll(testing::ShardingAttrText({all, {}}),
                                            {{"#tessel.sharding", ""}})}});
    std::vector<runtime::Tensor> inputs;
    for (size_t i = 0; i < shapes.size(); ++i) {
      inputs.push_back(RandomTensor(ElementType::kF32, shapes[i], 40 + i));
    }
    testing::HarnessOptions options;
    options.replication_is_error = true;
    options.expect_count_in_program = std::move(counts);
    testing::ExpectPartitionedRunMatches(module, inputs, options);
  }
};

// x + attention-like(x) + mlp-like(x), both branches column- then row-parallel (hidden 20,
// uneven over 3, 6 and 8 devices).
TEST_P(ReassociationTest, ParallelBlockHasOneAllReduce) {
  Check(R"(tessel.mesh @mesh = <MESH>
func.func @main(%x: tensor<6x16xf32>, %w1: tensor<16x20xf32> COLS, %w2: tensor<20x16xf32> ROWS,
                %v1: tensor<16x20xf32> COLS, %v2: tensor<20x16xf32> ROWS) -> tensor<6x16xf32> {
  %h = hlo.dot_general %x, %w1, lhs_contract = [1], rhs_contract = [0] : (tensor<6x16xf32>, tensor<16x20xf32>) -> tensor<6x20xf32>
  %t = hlo.tanh %h : tensor<6x20xf32>
  %a = hlo.dot_general %t, %w2, lhs_contract = [1], rhs_contract = [0] : (tensor<6x20xf32>, tensor<20x16xf32>) -> tensor<6x16xf32>
  %g = hlo.dot_general %x, %v1, lhs_contract = [1], rhs_contract = [0] : (tensor<6x16xf32>, tensor<16x20xf32>) -> tensor<6x20xf32>
  %s = hlo.logistic %g : tensor<6x20xf32>
  %m = hlo.dot_general %s, %v2, lhs_contract = [1], rhs_contract = [0] : (tensor<6x20xf32>, tensor<20x16xf32>) -> tensor<6x16xf32>
  %am = hlo.add %a, %m : tensor<6x16xf32>
  %r = hlo.add %x, %am : tensor<6x16xf32>
  return %r : tensor<6x16xf32>
})",
        {{6, 16}, {16, 20}, {20, 16}, {16, 20}, {20, 16}}, {{"tessel.all_reduce", 1}});
}

// The residual added first, as JAX writes x + attn + mlp: (x + a) + m becomes x + (a + m).
TEST_P(ReassociationTest, ResidualAddedFirstStillOneAllReduce) {
  Check(R"(tessel.mesh @mesh = <MESH>
func.func @main(%x: tensor<6x16xf32>, %w1: tensor<16x20xf32> COLS, %w2: tensor<20x16xf32> ROWS,
                %v1: tensor<16x20xf32> COLS, %v2: tensor<20x16xf32> ROWS) -> tensor<6x16xf32> {
  %h = hlo.dot_general %x, %w1, lhs_contract = [1], rhs_contract = [0] : (tensor<6x16xf32>, tensor<16x20xf32>) -> tensor<6x20xf32>
  %a = hlo.dot_general %h, %w2, lhs_contract = [1], rhs_contract = [0] : (tensor<6x20xf32>, tensor<20x16xf32>) -> tensor<6x16xf32>
  %g = hlo.dot_general %x, %v1, lhs_contract = [1], rhs_contract = [0] : (tensor<6x16xf32>, tensor<16x20xf32>) -> tensor<6x20xf32>
  %m = hlo.dot_general %g, %v2, lhs_contract = [1], rhs_contract = [0] : (tensor<6x20xf32>, tensor<20x16xf32>) -> tensor<6x16xf32>
  %xa = hlo.add %x, %a : tensor<6x16xf32>
  %r = hlo.add %xa, %m : tensor<6x16xf32>
  return %r : tensor<6x16xf32>
})",
        {{6, 16}, {16, 20}, {20, 16}, {16, 20}, {20, 16}}, {{"tessel.all_reduce", 1}});
}

// A branch scaled by a constant, negated and transposed there and back before the add: its
// all_reduce moves after those ops and folds with the other branch's.
TEST_P(ReassociationTest, ScaledBranchStillOneAllReduce) {
  Check(R"(tessel.mesh @mesh = <MESH>
func.func @main(%x: tensor<6x16xf32>, %w1: tensor<16x20xf32> COLS, %w2: tensor<20x16xf32> ROWS,
                %v1: tensor<16x20xf32> COLS, %v2: tensor<20x16xf32> ROWS) -> tensor<6x16xf32> {
  %h = hlo.dot_general %x, %w1, lhs_contract = [1], rhs_contract = [0] : (tensor<6x16xf32>, tensor<16x20xf32>) -> tensor<6x20xf32>
  %a = hlo.dot_general %h, %w2, lhs_contract = [1], rhs_contract = [0] : (tensor<6x20xf32>, tensor<20x16xf32>) -> tensor<6x16xf32>
  %c = hlo.constant dense<0.25> : tensor<f32>
  %cs = hlo.broadcast_in_dim %c, dims = [] : (tensor<f32>) -> tensor<6x16xf32>
  %as = hlo.mul %cs, %a : tensor<6x16xf32>
  %an = hlo.neg %as : tensor<6x16xf32>
  %at = hlo.transpose %an, permutation = [1, 0] : (tensor<6x16xf32>) -> tensor<16x6xf32>
  %att = hlo.transpose %at, permutation = [1, 0] : (tensor<16x6xf32>) -> tensor<6x16xf32>
  %g = hlo.dot_general %x, %v1, lhs_contract = [1], rhs_contract = [0] : (tensor<6x16xf32>, tensor<16x20xf32>) -> tensor<6x20xf32>
  %m = hlo.dot_general %g, %v2, lhs_contract = [1], rhs_contract = [0] : (tensor<6x20xf32>, tensor<20x16xf32>) -> tensor<6x16xf32>
  %r = hlo.add %att, %m : tensor<6x16xf32>
  return %r : tensor<6x16xf32>
})",
        {{6, 16}, {16, 20}, {20, 16}, {16, 20}, {20, 16}}, {{"tessel.all_reduce", 1}});
}

// (p - q) + r of three contractions split alike: one all_reduce.
TEST_P(ReassociationTest, DifferenceAndChainFoldToOne) {
  Check(R"(tessel.mesh @mesh = <MESH>
func.func @main(%a: tensor<5x12xf32> COLS, %b: tensor<12x7xf32> ROWS, %c: tensor<5x12xf32> COLS,
                %d: tensor<12x7xf32> ROWS) -> tensor<5x7xf32> {
  %p = hlo.dot_general %a, %b, lhs_contract = [1], rhs_contract = [0] : (tensor<5x12xf32>, tensor<12x7xf32>) -> tensor<5x7xf32>
  %q = hlo.dot_general %c, %d, lhs_contract = [1], rhs_contract = [0] : (tensor<5x12xf32>, tensor<12x7xf32>) -> tensor<5x7xf32>
  %r = hlo.dot_general %a, %d, lhs_contract = [1], rhs_contract = [0] : (tensor<5x12xf32>, tensor<12x7xf32>) -> tensor<5x7xf32>
  %pq = hlo.sub %p, %q : tensor<5x7xf32>
  %s = hlo.add %pq, %r : tensor<5x7xf32>
  return %s : tensor<5x7xf32>
})",
        {{5, 12}, {12, 7}, {5, 12}, {12, 7}}, {{"tessel.all_reduce", 1}});
}

// Two contractions whose sums are wanted split by rows: one reduce_scatter.
TEST_P(ReassociationTest, ReduceScattersFold) {
  Check(R"(tessel.mesh @mesh = <MESH>
func.func @main(%a: tensor<9x12xf32> COLS, %b: tensor<12x6xf32> ROWS, %c: tensor<9x12xf32> COLS,
                %d: tensor<12x6xf32> ROWS) -> (tensor<9x6xf32> ROWS) {
  %p = hlo.dot_general %a, %b, lhs_contract = [1], rhs_contract = [0] : (tensor<9x12xf32>, tensor<12x6xf32>) -> tensor<9x6xf32>
  %pc = tessel.sharding_constraint %p ROWC : tensor<9x6xf32>
  %q = hlo.dot_general %c, %d, lhs_contract = [1], rhs_contract = [0] : (tensor<9x12xf32>, tensor<12x6xf32>) -> tensor<9x6xf32>
  %qc = tessel.sharding_constraint %q ROWC : tensor<9x6xf32>
  %s = hlo.add %pc, %qc : tensor<9x6xf32>
  return %s : tensor<9x6xf32>
})",
        {{9, 12}, {12, 6}, {9, 12}, {12, 6}}, {{"tessel.reduce_scatter", 1}, {"tessel.all_reduce", 0}});
}

// The first sum is returned too: both all_reduces stay.
TEST_P(ReassociationTest, ReductionReadTwiceStays) {
  Check(R"(tessel.mesh @mesh = <MESH>
func.func @main(%a: tensor<5x12xf32> COLS, %b: tensor<12x7xf32> ROWS, %c: tensor<5x12xf32> COLS,
                %d: tensor<12x7xf32> ROWS) -> (tensor<5x7xf32>, tensor<5x7xf32>) {
  %p = hlo.dot_general %a, %b, lhs_contract = [1], rhs_contract = [0] : (tensor<5x12xf32>, tensor<12x7xf32>) -> tensor<5x7xf32>
  %q = hlo.dot_general %c, %d, lhs_contract = [1], rhs_contract = [0] : (tensor<5x12xf32>, tensor<12x7xf32>) -> tensor<5x7xf32>
  %s = hlo.add %p, %q : tensor<5x7xf32>
  return %s, %p : tensor<5x7xf32>, tensor<5x7xf32>
})",
        {{5, 12}, {12, 7}, {5, 12}, {12, 7}}, {{"tessel.all_reduce", 2}});
}

INSTANTIATE_TEST_SUITE_P(Meshes, ReassociationTest, ::testing::ValuesIn(testing::StandardMeshes()),
                         [](const ::testing::TestParamInfo<testing::TestMesh>& info) {
                           return absl::StrCat(info.param.devices, "dev",
                                               info.param.axes.size(), "d");
                         });

}  // namespace
}  // namespace tessel
