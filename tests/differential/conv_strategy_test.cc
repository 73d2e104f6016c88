// Strategy choice for convolution, end to end on every standard mesh (uneven splits
// included): the layout a convolution is computed in is chosen by the cost model among the
// one its users want, that one without the axes the operands split the input features over
// (partial sums reduce-scattered onto the wanted layout), and the one its operands imply.
// Each run must equal the single-device program.
//   - a 1x1 convolution reading features split over every axis into a small output wanted
//     split by batch: one reduce_scatter, where resharding the input (an all_to_all of the
//     large activation) and gathering the kernel would send more;
//   - the same convolution whose output is as large as its input: resharding the input is
//     no dearer there, so no reduce_scatter is taken at the cost of more bytes.
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_replace.h"
#include "gtest/gtest.h"
#include "runtime/random_inputs.h"
#include "tests/differential/partition_harness.h"

namespace tessel {
namespace {

using runtime::ElementType;
using runtime::RandomTensor;

class ConvStrategyTest : public ::testing::TestWithParam<testing::TestMesh> {
 protected:
  void Check(const std::string& text, const std::vector<runtime::Tensor>& inputs,
             std::vector<std::pair<std::string, int>> counts, std::vector<std::string> absent) {
    const testing::TestMesh& mesh = GetParam();
    std::vector<std::string> all = mesh.axes;
    testing::HarnessOptions options;
    options.replication_is_error = true;
    options.expect_count_in_program = std::move(counts);
    options.expect_not_in_program = std::move(absent);
    testing::ExpectPartitionedRunMatches(
        absl::StrReplaceAll(
            text, {{"MESH", mesh.text},
                   {"FEATURES", testing::ShardingArgAttrText({{}, {}, {}, all})},
                   {"KERNEL_IN", testing::ShardingArgAttrText({{}, {}, all, {}})},
                   {"BATCH_C", absl::StrReplaceAll(testing::ShardingAttrText({all, {}, {}, {}}),
                                                   {{"#tessel.sharding", ""}})},
                   {"BATCH", testing::ShardingArgAttrText({all, {}, {}, {}})}}),
        inputs, options);
  }
};

const char* kConvolution = R"(tessel.mesh @mesh = <MESH>
func.func @main(%x: tensor<8x6x6x24xf32> FEATURES, %k: tensor<1x1x24xOxf32> KERNEL_IN) -> (tensor<8x6x6xOxf32> BATCH) {
  %c = hlo.convolution %x, %k, dims = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f] : (tensor<8x6x6x24xf32>, tensor<1x1x24xOxf32>) -> tensor<8x6x6xOxf32>
  %r = tessel.sharding_constraint %c BATCH_C : tensor<8x6x6xOxf32>
  return %r : tensor<8x6x6xOxf32>
})";

TEST_P(ConvStrategyTest, FeatureSplitReduceScattersASmallOutput) {
  Check(absl::StrReplaceAll(kConvolution, {{"xO", "x2"}}),
        {RandomTensor(ElementType::kF32, {8, 6, 6, 24}, 1),
         RandomTensor(ElementType::kF32, {1, 1, 24, 2}, 2)},
        {{"tessel.reduce_scatter", 1}},
        {"tessel.all_gather", "tessel.all_to_all", "tessel.all_reduce"});
}

TEST_P(ConvStrategyTest, FeatureSplitMovesTheInputForALargeOutput) {
  Check(absl::StrReplaceAll(kConvolution, {{"xO", "x48"}}),
        {RandomTensor(ElementType::kF32, {8, 6, 6, 24}, 3),
         RandomTensor(ElementType::kF32, {1, 1, 24, 48}, 4)},
        {}, {"tessel.reduce_scatter", "tessel.all_reduce"});
}

INSTANTIATE_TEST_SUITE_P(Meshes, ConvStrategyTest, ::testing::ValuesIn(testing::StandardMeshes()),
                         [](const ::testing::TestParamInfo<testing::TestMesh>& info) {
                           return std::to_string(info.param.devices) + "dev" +
                                  std::to_string(info.param.axes.size()) + "d";
                         });

}  // namespace
}  // namespace tessel
