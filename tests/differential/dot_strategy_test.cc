// Strategy choice for dot_general, end to end on every standard mesh (uneven splits
// included): where the cost model finds a partial sum reduce-scattered onto the layout the
// users want cheaper than resharding the operands, the program holds a reduce_scatter and
// neither gathers nor all-to-alls; each run must equal the single-device program.
//   - a contracting split whose result is wanted split by rows (Megatron's row-parallel
//     matmul under sequence parallelism);
//   - a weight gradient contracting the split batch, kept split over its rows (ZeRO);
//   - the sequence-parallel MLP: an all_gather of the sequence before the column-parallel
//     matmul and a reduce_scatter after the row-parallel one, nothing else.
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

std::string Fill(const std::string& text, const testing::TestMesh& mesh) {
  std::vector<std::string> all = mesh.axes;
  return absl::StrReplaceAll(
      text, {{"MESH", mesh.text},
             {"ROWS", testing::ShardingArgAttrText({all, {}})},
             {"COLS", testing::ShardingArgAttrText({{}, all})},
             {"ROWC", absl::StrReplaceAll(testing::ShardingAttrText({all, {}}),
                                          {{"#tessel.sharding", ""}})}});
}

class DotStrategyTest : public ::testing::TestWithParam<testing::TestMesh> {
 protected:
  // Partitions and runs `text` on this mesh; the program must hold exactly `counts` of each
  // collective and none of `absent`.
  void Check(const char* text, const std::vector<runtime::Tensor>& inputs,
             std::vector<std::pair<std::string, int>> counts, std::vector<std::string> absent,
             bool replicationIsError = true) {
    testing::HarnessOptions options;
    options.replication_is_error = replicationIsError;
    options.expect_count_in_program = std::move(counts);
    options.expect_not_in_program = std::move(absent);
    testing::ExpectPartitionedRunMatches(Fill(text, GetParam()), inputs, options);
  }
};

// x [14, 12] split on K, w [12, 10] split on K, result wanted [14 split, 10].
TEST_P(DotStrategyTest, ContractingSplitReduceScattersOntoRows) {
  const char* text = R"(tessel.mesh @mesh = <MESH>
func.func @main(%x: tensor<14x12xf32> COLS, %w: tensor<12x10xf32> ROWS) -> (tensor<14x10xf32> ROWS) {
  %d = hlo.dot_general %x, %w, lhs_contract = [1], rhs_contract = [0] : (tensor<14x12xf32>, tensor<12x10xf32>) -> tensor<14x10xf32>
  %c = tessel.sharding_constraint %d ROWC : tensor<14x10xf32>
  return %c : tensor<14x10xf32>
})";
  Check(text,
        {RandomTensor(ElementType::kF32, {14, 12}, 1), RandomTensor(ElementType::kF32, {12, 10}, 2)},
        {{"tessel.reduce_scatter", 1}},
        {"tessel.all_gather", "tessel.all_to_all", "tessel.all_reduce"});
}

// The same in integers: the scattered partial sums are exact.
TEST_P(DotStrategyTest, ContractingSplitReduceScattersIntegers) {
  const char* text = R"(tessel.mesh @mesh = <MESH>
func.func @main(%x: tensor<9x12xi32> COLS, %w: tensor<12x10xi32> ROWS) -> (tensor<9x10xi32> ROWS) {
  %d = hlo.dot_general %x, %w, lhs_contract = [1], rhs_contract = [0] : (tensor<9x12xi32>, tensor<12x10xi32>) -> tensor<9x10xi32>
  %c = tessel.sharding_constraint %d ROWC : tensor<9x10xi32>
  return %c : tensor<9x10xi32>
})";
  Check(text,
        {RandomTensor(ElementType::kS32, {9, 12}, 3), RandomTensor(ElementType::kS32, {12, 10}, 4)},
        {{"tessel.reduce_scatter", 1}}, {"tessel.all_gather", "tessel.all_to_all"},
        /*replicationIsError=*/false);
}

// g = a^T d with the batch (rows of a and d) split, kept split over its rows.
TEST_P(DotStrategyTest, WeightGradientReduceScattersOntoRows) {
  const char* text = R"(tessel.mesh @mesh = <MESH>
func.func @main(%a: tensor<30x13xf32> ROWS, %d: tensor<30x8xf32> ROWS) -> (tensor<13x8xf32> ROWS) {
  %g = hlo.dot_general %a, %d, lhs_contract = [0], rhs_contract = [0] : (tensor<30x13xf32>, tensor<30x8xf32>) -> tensor<13x8xf32>
  %c = tessel.sharding_constraint %g ROWC : tensor<13x8xf32>
  return %c : tensor<13x8xf32>
})";
  Check(text,
        {RandomTensor(ElementType::kF32, {30, 13}, 5), RandomTensor(ElementType::kF32, {30, 8}, 6)},
        {{"tessel.reduce_scatter", 1}},
        {"tessel.all_gather", "tessel.all_to_all", "tessel.all_reduce"});
}

// Sequence parallelism: x [16, 8] split over the sequence, w1 [8, 24] split on columns,
// w2 [24, 8] split on rows, the output split over the sequence again.
TEST_P(DotStrategyTest, SequenceParallelMlpGathersThenReduceScatters) {
  const char* text = R"(tessel.mesh @mesh = <MESH>
func.func @main(%x: tensor<16x8xf32> ROWS, %w1: tensor<8x24xf32> COLS, %w2: tensor<24x8xf32> ROWS) -> (tensor<16x8xf32> ROWS) {
  %h = hlo.dot_general %x, %w1, lhs_contract = [1], rhs_contract = [0] : (tensor<16x8xf32>, tensor<8x24xf32>) -> tensor<16x24xf32>
  %t = hlo.tanh %h : tensor<16x24xf32>
  %o = hlo.dot_general %t, %w2, lhs_contract = [1], rhs_contract = [0] : (tensor<16x24xf32>, tensor<24x8xf32>) -> tensor<16x8xf32>
  %c = tessel.sharding_constraint %o ROWC : tensor<16x8xf32>
  %r = hlo.add %c, %x : tensor<16x8xf32>
  return %r : tensor<16x8xf32>
})";
  Check(text,
        {RandomTensor(ElementType::kF32, {16, 8}, 7), RandomTensor(ElementType::kF32, {8, 24}, 8),
         RandomTensor(ElementType::kF32, {24, 8}, 9)},
        {{"tessel.all_gather", 1}, {"tessel.reduce_scatter", 1}},
        {"tessel.all_to_all", "tessel.all_reduce"});
}

INSTANTIATE_TEST_SUITE_P(Meshes, DotStrategyTest, ::testing::ValuesIn(testing::StandardMeshes()),
                         [](const ::testing::TestParamInfo<testing::TestMesh>& info) {
                           return absl::StrCat(info.param.devices, "dev",
                                               info.param.axes.size(), "d");
                         });

}  // namespace
}  // namespace tessel
