// Tests of per-op flops and bytes against numbers worked out by hand.
#include "cost_model/op_cost.h"

#include "cost_model/tensor_bytes.h"
#include "cost_model/test_util.h"
#include "gtest/gtest.h"

namespace tessel::cost_model {
namespace {

using test::FindOp;
using test::Parse;

class OpCostTest : public ::testing::Test {
 protected:
  // The cost of the first `name` op in `text`.
  OpCost CostOf(const std::string& text, const std::string& name) {
    module_ = Parse(text, context_);
    if (!module_) return OpCost();
    mlir::Operation* op = FindOp(*module_, name);
    EXPECT_NE(op, nullptr) << name;
    return op ? EstimateOpCost(op) : OpCost();
  }

  mlir::MLIRContext context_;
  mlir::OwningOpRef<mlir::ModuleOp> module_;
};

TEST_F(OpCostTest, TensorBytesRoundsElementsUpToBytes) {
  mlir::OwningOpRef<mlir::ModuleOp> module = Parse(R"mlir(
    func.func @f(%a: tensor<3x5xi1>, %b: tensor<4xbf16>, %c: tensor<2x2xf64>, %d: tensor<f32>) {
      return
    })mlir", context_);
  auto args = test::FindFunc(*module, "f").getArguments();
  EXPECT_EQ(TensorBytes(args[0].getType()), 15);  // pred takes a byte
  EXPECT_EQ(TensorBytes(args[1].getType()), 8);
  EXPECT_EQ(TensorBytes(args[2].getType()), 32);
  EXPECT_EQ(TensorBytes(args[3].getType()), 4);  // a scalar is one element
  EXPECT_EQ(TotalBytes(args), 59);
}

TEST_F(OpCostTest, DotGeneralIsTwoMNKBatch) {
  OpCost cost = CostOf(R"mlir(
    func.func @f(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>) -> tensor<2x3x5xf32> {
      %r = hlo.dot_general %a, %b, lhs_batch = [0], rhs_batch = [0], lhs_contract = [2],
          rhs_contract = [1] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
      return %r : tensor<2x3x5xf32>
    })mlir", "hlo.dot_general");
  EXPECT_DOUBLE_EQ(cost.flops, 2.0 * 3 * 5 * 4 * 2);  // 2*M*N*K*batch = 240
  EXPECT_DOUBLE_EQ(cost.bytes, (24 + 40 + 30) * 4.0);
}

TEST_F(OpCostTest, ConvolutionCountsKernelTapsAndInputFeatures) {
  OpCost cost = CostOf(R"mlir(
    func.func @f(%x: tensor<1x8x8x3xf32>, %k: tensor<3x3x3x16xf32>) -> tensor<1x6x6x16xf32> {
      %r = hlo.convolution %x, %k, dims = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]
          : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x6x6x16xf32>
      return %r : tensor<1x6x6x16xf32>
    })mlir", "hlo.convolution");
  // 576 outputs, each 3x3 taps over 3 input features: 2 * 576 * 27.
  EXPECT_DOUBLE_EQ(cost.flops, 2.0 * 576 * 27);
  EXPECT_DOUBLE_EQ(cost.bytes, (192 + 432 + 576) * 4.0);
}

TEST_F(OpCostTest, GroupedConvolutionCountsOneGroupsFeatures) {
  OpCost cost = CostOf(R"mlir(
    func.func @f(%x: tensor<2x4x5x6xf32>, %k: tensor<6x2x2x2xf32>) -> tensor<2x6x5x6xf32> {
      %r = hlo.convolution %x, %k, dims = [b, f, 0, 1]x[o, i, 0, 1]->[b, 0, 1, f],
          feature_group_count = 2, rhs_dilation = [2, 1], lhs_dilation = [2, 1],
          padding = [[-1, 0], [0, 0]] : (tensor<2x4x5x6xf32>, tensor<6x2x2x2xf32>) -> tensor<2x6x5x6xf32>
      return %r : tensor<2x6x5x6xf32>
    })mlir", "hlo.convolution");
  // 360 outputs, each over 2 input features (of its group) x 2x2 taps.
  EXPECT_DOUBLE_EQ(cost.flops, 2.0 * 360 * 8);
}

TEST_F(OpCostTest, ElementwiseIsOneFlopPerElement) {
  OpCost cost = CostOf(R"mlir(
    func.func @f(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
      %r = hlo.add %a, %b : tensor<4x8xf32>
      return %r : tensor<4x8xf32>
    })mlir", "hlo.add");
  EXPECT_DOUBLE_EQ(cost.flops, 32);
  EXPECT_DOUBLE_EQ(cost.bytes, 3 * 128.0);
  OpCost compare = CostOf(R"mlir(
    func.func @f(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi1> {
      %r = hlo.compare EQ, %a, %b : tensor<4xi32>
      return %r : tensor<4xi1>
    })mlir", "hlo.compare");
  EXPECT_DOUBLE_EQ(compare.flops, 4);
  EXPECT_DOUBLE_EQ(compare.bytes, 16 + 16 + 4);  // the i1 result takes a byte per element
}

TEST_F(OpCostTest, ReduceIsOneFlopPerInputElement) {
  OpCost cost = CostOf(R"mlir(
    func.func @f(%x: tensor<4x8xf32>, %zero: tensor<f32>) -> tensor<4xf32> {
      %r = hlo.reduce(%x) init(%zero) dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32> reducer {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = hlo.add %a, %b : tensor<f32>
        hlo.return %s : tensor<f32>
      }
      return %r : tensor<4xf32>
    })mlir", "hlo.reduce");
  EXPECT_DOUBLE_EQ(cost.flops, 32);
  EXPECT_DOUBLE_EQ(cost.bytes, 128 + 4 + 16);
}

TEST_F(OpCostTest, WindowedOpsCountWindowTaps) {
  OpCost window = CostOf(R"mlir(
    func.func @f(%x: tensor<4x6xf32>, %z: tensor<f32>) -> tensor<3x5xf32> {
      %r = hlo.reduce_window(%x) init(%z) window_dimensions = [2, 2] : (tensor<4x6xf32>, tensor<f32>) -> tensor<3x5xf32> reducer {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = hlo.add %a, %b : tensor<f32>
        hlo.return %s : tensor<f32>
      }
      return %r : tensor<3x5xf32>
    })mlir", "hlo.reduce_window");
  EXPECT_DOUBLE_EQ(window.flops, 15 * 4);  // 15 outputs, 4 taps each
  OpCost select = CostOf(R"mlir(
    func.func @f(%x: tensor<4x4xf32>, %src: tensor<2x2xf32>, %z: tensor<f32>, %p: tensor<i1>) -> tensor<4x4xf32> {
      %r = hlo.select_and_scatter(%x, %src, %z) window_dimensions = [2, 2], window_strides = [2, 2] : (tensor<4x4xf32>, tensor<2x2xf32>, tensor<f32>) -> tensor<4x4xf32> select {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        hlo.return %p : tensor<i1>
      } scatter {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = hlo.add %a, %b : tensor<f32>
        hlo.return %s : tensor<f32>
      }
      return %r : tensor<4x4xf32>
    })mlir", "hlo.select_and_scatter");
  EXPECT_DOUBLE_EQ(select.flops, 4 * (4 + 1));  // 4 source elements, 4 taps + the scatter
}

TEST_F(OpCostTest, SortIsLogComparisonsPerElement) {
  OpCost cost = CostOf(R"mlir(
    func.func @f(%k: tensor<2x8xf32>, %v: tensor<2x8xi32>) -> tensor<2x8xf32> {
      %s:2 = hlo.sort(%k, %v) dimension = 1 is_stable : tensor<2x8xf32>, tensor<2x8xi32> comparator {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
        %lt = hlo.compare LT, %a, %b : tensor<f32>
        hlo.return %lt : tensor<i1>
      }
      return %s#0 : tensor<2x8xf32>
    })mlir", "hlo.sort");
  EXPECT_DOUBLE_EQ(cost.flops, 16 * 3);  // log2(8) = 3 comparisons per element
  EXPECT_DOUBLE_EQ(cost.bytes, 4 * 64.0);
}

TEST_F(OpCostTest, ScatterIsOneFlopPerUpdateElement) {
  OpCost cost = CostOf(R"mlir(
    func.func @f(%x: tensor<16x8xf32>, %idx: tensor<4x1xi32>, %u: tensor<4x8xf32>) -> tensor<16x8xf32> {
      %r = hlo.scatter(%x) indices(%idx) updates(%u), update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 : (tensor<16x8xf32>, tensor<4x1xi32>, tensor<4x8xf32>) -> tensor<16x8xf32> update {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = hlo.add %a, %b : tensor<f32>
        hlo.return %s : tensor<f32>
      }
      return %r : tensor<16x8xf32>
    })mlir", "hlo.scatter");
  EXPECT_DOUBLE_EQ(cost.flops, 32);
}

TEST_F(OpCostTest, MovementOpsOnlyMoveBytes) {
  OpCost transpose = CostOf(R"mlir(
    func.func @f(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
      %r = hlo.transpose %x, permutation = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
      return %r : tensor<3x2xf32>
    })mlir", "hlo.transpose");
  EXPECT_DOUBLE_EQ(transpose.flops, 0);
  EXPECT_DOUBLE_EQ(transpose.bytes, 48);
  OpCost reshape = CostOf(R"mlir(
    func.func @f(%x: tensor<2x3xf32>) -> tensor<6xf32> {
      %r = hlo.reshape %x : (tensor<2x3xf32>) -> tensor<6xf32>
      return %r : tensor<6xf32>
    })mlir", "hlo.reshape");
  EXPECT_DOUBLE_EQ(reshape.bytes, 0);  // a row-major reshape copies nothing
  OpCost update = CostOf(R"mlir(
    func.func @f(%x: tensor<8x8xf32>, %u: tensor<2x3xf32>, %i: tensor<ui64>, %j: tensor<ui64>) -> tensor<8x8xf32> {
      %r = hlo.dynamic_update_slice %x, %u, %i, %j : (tensor<8x8xf32>, tensor<2x3xf32>, tensor<ui64>, tensor<ui64>) -> tensor<8x8xf32>
      return %r : tensor<8x8xf32>
    })mlir", "hlo.dynamic_update_slice");
  EXPECT_DOUBLE_EQ(update.bytes, 2 * 24 + 16);  // in place: the update twice and the indices
  // Slices read only what they return: a scan's slice of one layer out of a stack.
  OpCost slice = CostOf(R"mlir(
    func.func @f(%x: tensor<8x8xf32>) -> tensor<2x3xf32> {
      %r = hlo.slice %x [0:2, 1:4] : (tensor<8x8xf32>) -> tensor<2x3xf32>
      return %r : tensor<2x3xf32>
    })mlir", "hlo.slice");
  EXPECT_DOUBLE_EQ(slice.bytes, 2 * 24);
  OpCost dynamicSlice = CostOf(R"mlir(
    func.func @f(%x: tensor<24x8x8xf32>, %i: tensor<i32>, %j: tensor<i32>) -> tensor<1x8x8xf32> {
      %r = hlo.dynamic_slice %x, %i, %j, %j, sizes = [1, 8, 8] : (tensor<24x8x8xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x8x8xf32>
      return %r : tensor<1x8x8xf32>
    })mlir", "hlo.dynamic_slice");
  EXPECT_DOUBLE_EQ(dynamicSlice.bytes, 2 * 256 + 12);  // the slice twice and the indices
  OpCost iota = CostOf(R"mlir(
    func.func @f() -> tensor<4x8xi32> {
      %r = hlo.iota dim = 1 : tensor<4x8xi32>
      return %r : tensor<4x8xi32>
    })mlir", "hlo.iota");
  EXPECT_DOUBLE_EQ(iota.bytes, 128);
  OpCost constant = CostOf(R"mlir(
    func.func @f() -> tensor<4xf32> {
      %r = hlo.constant dense<1.0> : tensor<4xf32>
      return %r : tensor<4xf32>
    })mlir", "hlo.constant");
  EXPECT_DOUBLE_EQ(constant.bytes, 0);
}

TEST_F(OpCostTest, TimeIsTheSlowerOfMathAndMemory) {
  HardwareSpec spec;
  spec.set_flops_per_second(100);
  spec.set_memory_bandwidth_bytes_per_second(10);
  EXPECT_DOUBLE_EQ(OpSeconds(OpCost{1000, 5}, spec), 10);  // compute bound
  EXPECT_DOUBLE_EQ(OpSeconds(OpCost{10, 50}, spec), 5);    // memory bound
}

}  // namespace
}  // namespace tessel::cost_model
