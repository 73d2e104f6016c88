// Collective combining, end to end: a three-layer data-parallel training step with SGD and
// momentum (the batch split over every axis of each standard mesh; 64 rows are uneven over
// 3 and 6 devices, and enough that all-reducing a gradient sends less than gathering the
// activations it is made from), partitioned with and without --tessel-combine-collectives, plain and
// after weight-update sharding. Each run must equal the single-device program, and the
// combined program must hold fewer collectives: one all_reduce for the three gradients
// where there were three, one reduce_scatter and one all_gather where weight-update
// sharding left three of each.
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
using runtime::RandomTensor;

// x [64, 24] -> [64, 24] -> [64, 24] -> [64, 12], mean squared error, the backward pass
// by hand, then every update (as an autodiff tool emits them: after all gradients). Every
// weight has 24 rows, so weight-update sharding splits each along dim 0 on every mesh.
constexpr char kThreeLayerStep[] = R"(tessel.mesh @mesh = <MESH>
func.func @main(%x: tensor<64x24xf32> BATCH, %t: tensor<64x12xf32> BATCH,
                %w1: tensor<24x24xf32>, %w2: tensor<24x24xf32>, %w3: tensor<24x12xf32>,
                %m1: tensor<24x24xf32>, %m2: tensor<24x24xf32>, %m3: tensor<24x12xf32>)
    -> (tensor<f32>, tensor<24x24xf32>, tensor<24x24xf32>, tensor<24x12xf32>,
        tensor<24x24xf32>, tensor<24x24xf32>, tensor<24x12xf32>) {
  %zero = hlo.constant dense<0.0> : tensor<f32>
  %z = hlo.broadcast_in_dim %zero, dims = [] : (tensor<f32>) -> tensor<64x24xf32>
  %h1 = hlo.dot_general %x, %w1, lhs_contract = [1], rhs_contract = [0] : (tensor<64x24xf32>, tensor<24x24xf32>) -> tensor<64x24xf32>
  %p1 = hlo.compare GT, %h1, %z : tensor<64x24xf32>
  %a1 = hlo.select %p1, %h1, %z : tensor<64x24xi1>, tensor<64x24xf32>
  %h2 = hlo.dot_general %a1, %w2, lhs_contract = [1], rhs_contract = [0] : (tensor<64x24xf32>, tensor<24x24xf32>) -> tensor<64x24xf32>
  %p2 = hlo.compare GT, %h2, %z : tensor<64x24xf32>
  %a2 = hlo.select %p2, %h2, %z : tensor<64x24xi1>, tensor<64x24xf32>
  %o = hlo.dot_general %a2, %w3, lhs_contract = [1], rhs_contract = [0] : (tensor<64x24xf32>, tensor<24x12xf32>) -> tensor<64x12xf32>
  %err = hlo.sub %o, %t : tensor<64x12xf32>
  %sq = hlo.mul %err, %err : tensor<64x12xf32>
  %sum = hlo.reduce(%sq) init(%zero) dimensions = [0, 1] : (tensor<64x12xf32>, tensor<f32>) -> tensor<f32> reducer {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = hlo.add %p, %q : tensor<f32>
    hlo.return %s : tensor<f32>
  }
  %scale = hlo.constant dense<0.0013020833> : tensor<f32>
  %loss = hlo.mul %sum, %scale : tensor<f32>
  %two = hlo.constant dense<0.0026041667> : tensor<f32>
  %twos = hlo.broadcast_in_dim %two, dims = [] : (tensor<f32>) -> tensor<64x12xf32>
  %d3 = hlo.mul %err, %twos : tensor<64x12xf32>
  %g3 = hlo.dot_general %a2, %d3, lhs_contract = [0], rhs_contract = [0] : (tensor<64x24xf32>, tensor<64x12xf32>) -> tensor<24x12xf32>
  %da2 = hlo.dot_general %d3, %w3, lhs_contract = [1], rhs_contract = [1] : (tensor<64x12xf32>, tensor<24x12xf32>) -> tensor<64x24xf32>
  %d2 = hlo.select %p2, %da2, %z : tensor<64x24xi1>, tensor<64x24xf32>
  %g2 = hlo.dot_general %a1, %d2, lhs_contract = [0], rhs_contract = [0] : (tensor<64x24xf32>, tensor<64x24xf32>) -> tensor<24x24xf32>
  %da1 = hlo.dot_general %d2, %w2, lhs_contract = [1], rhs_contract = [1] : (tensor<64x24xf32>, tensor<24x24xf32>) -> tensor<64x24xf32>
  %d1 = hlo.select %p1, %da1, %z : tensor<64x24xi1>, tensor<64x24xf32>
  %g1 = hlo.dot_general %x, %d1, lhs_contract = [0], rhs_contract = [0] : (tensor<64x24xf32>, tensor<64x24xf32>) -> tensor<24x24xf32>
  %mu = hlo.constant dense<0.9> : tensor<f32>
  %lr = hlo.constant dense<0.1> : tensor<f32>
  %mus = hlo.broadcast_in_dim %mu, dims = [] : (tensor<f32>) -> tensor<24x24xf32>
  %lrs = hlo.broadcast_in_dim %lr, dims = [] : (tensor<f32>) -> tensor<24x24xf32>
  %mu3 = hlo.broadcast_in_dim %mu, dims = [] : (tensor<f32>) -> tensor<24x12xf32>
  %lr3 = hlo.broadcast_in_dim %lr, dims = [] : (tensor<f32>) -> tensor<24x12xf32>
  %mm1 = hlo.mul %m1, %mus : tensor<24x24xf32>
  %nm1 = hlo.add %mm1, %g1 : tensor<24x24xf32>
  %st1 = hlo.mul %nm1, %lrs : tensor<24x24xf32>
  %nw1 = hlo.sub %w1, %st1 : tensor<24x24xf32>
  %mm2 = hlo.mul %m2, %mus : tensor<24x24xf32>
  %nm2 = hlo.add %mm2, %g2 : tensor<24x24xf32>
  %st2 = hlo.mul %nm2, %lrs : tensor<24x24xf32>
  %nw2 = hlo.sub %w2, %st2 : tensor<24x24xf32>
  %mm3 = hlo.mul %m3, %mu3 : tensor<24x12xf32>
  %nm3 = hlo.add %mm3, %g3 : tensor<24x12xf32>
  %st3 = hlo.mul %nm3, %lr3 : tensor<24x12xf32>
  %nw3 = hlo.sub %w3, %st3 : tensor<24x12xf32>
  return %loss, %nw1, %nw2, %nw3, %nm1, %nm2, %nm3 : tensor<f32>, tensor<24x24xf32>, tensor<24x24xf32>, tensor<24x12xf32>, tensor<24x24xf32>, tensor<24x24xf32>, tensor<24x12xf32>
})";

std::string Program(const testing::TestMesh& mesh) {
  return absl::StrReplaceAll(
      kThreeLayerStep,
      {{"MESH", mesh.text}, {"BATCH", testing::ShardingArgAttrText({mesh.axes, {}})}});
}

std::vector<runtime::Tensor> Inputs() {
  return {RandomTensor(ElementType::kF32, {64, 24}, 1), RandomTensor(ElementType::kF32, {64, 12}, 2),
          RandomTensor(ElementType::kF32, {24, 24}, 3), RandomTensor(ElementType::kF32, {24, 24}, 4),
          RandomTensor(ElementType::kF32, {24, 12}, 5), RandomTensor(ElementType::kF32, {24, 24}, 6),
          RandomTensor(ElementType::kF32, {24, 24}, 7), RandomTensor(ElementType::kF32, {24, 12}, 8)};
}

class CollectiveCombiningTest : public ::testing::TestWithParam<testing::TestMesh> {};

// Without combining: the loss and each of the three gradients are all-reduced.
TEST_P(CollectiveCombiningTest, DataParallelStepWithoutCombining) {
  testing::HarnessOptions options;
  options.expect_count_in_program = {{"tessel.all_reduce", 4}};
  testing::ExpectPartitionedRunMatches(Program(GetParam()), Inputs(), options);
}

// The loss and the three gradients become one all_reduce of 1 + 24*24 + 24*24 + 24*12
// elements: the loss's readers move to the end of the step, after the last gradient.
TEST_P(CollectiveCombiningTest, DataParallelStepCombinesGradients) {
  testing::HarnessOptions options;
  options.combine_collectives = true;
  options.expect_count_in_program = {{"tessel.all_reduce", 1},
                                     {"kind = sum : tensor<1441xf32>", 1}};
  testing::ExpectPartitionedRunMatches(Program(GetParam()), Inputs(), options);
}

TEST_P(CollectiveCombiningTest, WeightUpdateShardingWithoutCombining) {
  testing::HarnessOptions options;
  options.shard_weight_update = true;
  options.expect_count_in_program = {
      {"tessel.all_reduce", 1}, {"tessel.reduce_scatter", 3}, {"tessel.all_gather", 3}};
  testing::ExpectPartitionedRunMatches(Program(GetParam()), Inputs(), options);
}

// One reduce_scatter of the three gradients and one all_gather of the three new weights.
TEST_P(CollectiveCombiningTest, WeightUpdateShardingCombinesScattersAndGathers) {
  testing::HarnessOptions options;
  options.shard_weight_update = true;
  options.combine_collectives = true;
  options.expect_count_in_program = {
      {"tessel.all_reduce", 1}, {"tessel.reduce_scatter", 1}, {"tessel.all_gather", 1}};
  testing::ExpectPartitionedRunMatches(Program(GetParam()), Inputs(), options);
}

// After combining, the all_reduces over both axes of a 2-D mesh are split by axis where the
// cost model finds it faster (--tessel-hierarchical-all-reduce): the combined loss and
// gradients become a reduce_scatter, an all_reduce of the piece and an all_gather. On 1-D
// meshes nothing changes. Results still match.
TEST_P(CollectiveCombiningTest, DataParallelStepCombinedThenSplitByAxis) {
  testing::HarnessOptions options;
  options.combine_collectives = true;
  options.hierarchical_all_reduce = true;
  if (GetParam().axes.size() == 2) {
    options.expect_count_in_program = {{"tessel.all_reduce", 1},
                                       {"tessel.reduce_scatter", 1},
                                       {"tessel.all_gather", 1}};
    options.expect_not_in_program = {"over @mesh [\"x\", \"y\"]"};
  } else {
    options.expect_count_in_program = {{"tessel.all_reduce", 1},
                                       {"kind = sum : tensor<1441xf32>", 1}};
  }
  testing::ExpectPartitionedRunMatches(Program(GetParam()), Inputs(), options);
}

// Without combining, each gradient's all_reduce is split on its own.
TEST_P(CollectiveCombiningTest, DataParallelStepSplitByAxis) {
  testing::HarnessOptions options;
  options.hierarchical_all_reduce = true;
  if (GetParam().axes.size() == 2) {
    options.expect_count_in_program = {{"tessel.all_reduce", 5},
                                       {"tessel.reduce_scatter", 3},
                                       {"tessel.all_gather", 3}};
  } else {
    options.expect_count_in_program = {{"tessel.all_reduce", 4}};
  }
  testing::ExpectPartitionedRunMatches(Program(GetParam()), Inputs(), options);
}

INSTANTIATE_TEST_SUITE_P(Meshes, CollectiveCombiningTest,
                         ::testing::ValuesIn(testing::StandardMeshes()),
                         [](const ::testing::TestParamInfo<testing::TestMesh>& info) {
                           return absl::StrCat(info.param.devices, "dev",
                                               info.param.axes.size(), "d");
                         });

}  // namespace
}  // namespace tessel
