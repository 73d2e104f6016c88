// Tests of broadcast_in_dim, reshape, transpose, reverse and concatenate.
#include <cstdint>
#include <numeric>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "runtime/kernel_test_util.h"

namespace tessel::runtime {
namespace {

// 0, 1, 2, ... as a tensor of `shape`.
template <typename T>
Tensor Counting(Shape shape) {
  std::vector<T> values(NumElements(shape));
  std::iota(values.begin(), values.end(), T(0));
  return Tensor::FromVector<T>(std::move(shape), values);
}

class ShapeKernelsTest : public KernelTest {};

TEST_F(ShapeKernelsTest, BroadcastInDimRepeatsSizeOneAndMissingDimensions) {
  // Operand dim 0 (size 3) → result dim 1; result dim 0 repeats the whole operand.
  Tensor row = Tensor::FromVector<int32_t>({3}, {1, 2, 3});
  EXPECT_THAT(RunOne(R"(
    func.func @main(%x: tensor<3xi32>) -> tensor<2x3xi32> {
      %0 = hlo.broadcast_in_dim %x, dims = [1] : (tensor<3xi32>) -> tensor<2x3xi32>
      return %0 : tensor<2x3xi32>
    })",
                     {row}),
              BitwiseEq(Tensor::FromVector<int32_t>({2, 3}, {1, 2, 3, 1, 2, 3})));
  // A size-1 operand dimension stretches: [2,1] → [2,3].
  Tensor column = Tensor::FromVector<float>({2, 1}, {5, 6});
  EXPECT_THAT(RunOne(R"(
    func.func @main(%x: tensor<2x1xf32>) -> tensor<2x3xf32> {
      %0 = hlo.broadcast_in_dim %x, dims = [0, 1] : (tensor<2x1xf32>) -> tensor<2x3xf32>
      return %0 : tensor<2x3xf32>
    })",
                     {column}),
              BitwiseEq(Tensor::FromVector<float>({2, 3}, {5, 5, 5, 6, 6, 6})));
  // Dimensions may move: operand [2,3] into result dims [2, 0] of [3,4,2].
  Tensor x = Counting<int8_t>({2, 3});
  Tensor moved = RunOne(R"(
    func.func @main(%x: tensor<2x3xi8>) -> tensor<3x4x2xi8> {
      %0 = hlo.broadcast_in_dim %x, dims = [2, 0] : (tensor<2x3xi8>) -> tensor<3x4x2xi8>
      return %0 : tensor<3x4x2xi8>
    })",
                        {x});
  // result[i, j, k] = x[k, i] = 3k + i.
  std::vector<int8_t> expected;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j)
      for (int k = 0; k < 2; ++k) expected.push_back(static_cast<int8_t>(3 * k + i));
  EXPECT_THAT(moved, BitwiseEq(Tensor::FromVector<int8_t>({3, 4, 2}, expected)));
}

TEST_F(ShapeKernelsTest, BroadcastOfAScalarAndToAnEmptyShape) {
  EXPECT_THAT(RunOne(R"(
    func.func @main(%x: tensor<bf16>) -> tensor<2x2xbf16> {
      %0 = hlo.broadcast_in_dim %x, dims = [] : (tensor<bf16>) -> tensor<2x2xbf16>
      return %0 : tensor<2x2xbf16>
    })",
                     {Tensor::Scalar<bf16>(bf16(-2.0f))}),
              BitwiseEq(Tensor::FromVector<bf16>({2, 2}, std::vector<bf16>(4, bf16(-2.0f)))));
  EXPECT_THAT(RunOne(R"(
    func.func @main(%x: tensor<1xi1>) -> tensor<0x1xi1> {
      %0 = hlo.broadcast_in_dim %x, dims = [1] : (tensor<1xi1>) -> tensor<0x1xi1>
      return %0 : tensor<0x1xi1>
    })",
                     {Tensor::FromVector<bool>({1}, {true})}),
              BitwiseEq(Tensor::Zeros(ElementType::kPred, {0, 1})));
}

TEST_F(ShapeKernelsTest, BroadcastOfOneElementFillsOddSizes) {
  // The single-element path copies bytes in doubling runs; 7x13 and 3x5 are no powers of 2.
  EXPECT_THAT(RunOne(R"(
    func.func @main(%x: tensor<f64>) -> tensor<7x13xf64> {
      %0 = hlo.broadcast_in_dim %x, dims = [] : (tensor<f64>) -> tensor<7x13xf64>
      return %0 : tensor<7x13xf64>
    })",
                     {Tensor::Scalar<double>(-0.1)}),
              BitwiseEq(Tensor::FromVector<double>({7, 13}, std::vector<double>(91, -0.1))));
  EXPECT_THAT(RunOne(R"(
    func.func @main(%x: tensor<1x1xi16>) -> tensor<3x1x5xi16> {
      %0 = hlo.broadcast_in_dim %x, dims = [0, 1] : (tensor<1x1xi16>) -> tensor<3x1x5xi16>
      return %0 : tensor<3x1x5xi16>
    })",
                     {Tensor::FromVector<int16_t>({1, 1}, {-12345})}),
              BitwiseEq(Tensor::FromVector<int16_t>({3, 1, 5}, std::vector<int16_t>(15, -12345))));
}

TEST_F(ShapeKernelsTest, ReshapeKeepsRowMajorOrder) {
  Tensor x = Counting<uint16_t>({2, 3});
  EXPECT_THAT(RunOne(R"(
    func.func @main(%x: tensor<2x3xui16>) -> tensor<3x1x2xui16> {
      %0 = hlo.reshape %x : (tensor<2x3xui16>) -> tensor<3x1x2xui16>
      return %0 : tensor<3x1x2xui16>
    })",
                     {x}),
              BitwiseEq(Counting<uint16_t>({3, 1, 2})));
  EXPECT_THAT(RunOne(R"(
    func.func @main(%x: tensor<f64>) -> tensor<1x1xf64> {
      %0 = hlo.reshape %x : (tensor<f64>) -> tensor<1x1xf64>
      return %0 : tensor<1x1xf64>
    })",
                     {Tensor::Scalar<double>(4.5)}),
              BitwiseEq(Tensor::FromVector<double>({1, 1}, {4.5})));
}

TEST_F(ShapeKernelsTest, TransposePermutesDimensions) {
  Tensor x = Counting<int32_t>({2, 3});
  EXPECT_THAT(RunOne(R"(
    func.func @main(%x: tensor<2x3xi32>) -> tensor<3x2xi32> {
      %0 = hlo.transpose %x, permutation = [1, 0] : (tensor<2x3xi32>) -> tensor<3x2xi32>
      return %0 : tensor<3x2xi32>
    })",
                     {x}),
              BitwiseEq(Tensor::FromVector<int32_t>({3, 2}, {0, 3, 1, 4, 2, 5})));
  // result[i, j, k] = x[j, k, i] for x of shape [2, 3, 4] (x[a, b, c] = 12a + 4b + c).
  Tensor y = Counting<int64_t>({2, 3, 4});
  Tensor result = RunOne(R"(
    func.func @main(%x: tensor<2x3x4xi64>) -> tensor<4x2x3xi64> {
      %0 = hlo.transpose %x, permutation = [2, 0, 1] : (tensor<2x3x4xi64>) -> tensor<4x2x3xi64>
      return %0 : tensor<4x2x3xi64>
    })",
                         {y});
  std::vector<int64_t> expected;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 2; ++j)
      for (int k = 0; k < 3; ++k) expected.push_back(12 * j + 4 * k + i);
  EXPECT_THAT(result, BitwiseEq(Tensor::FromVector<int64_t>({4, 2, 3}, expected)));
}

TEST_F(ShapeKernelsTest, ReverseAlongChosenDimensions) {
  Tensor x = Counting<float>({2, 3});
  EXPECT_THAT(RunOne(R"(
    func.func @main(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
      %0 = hlo.reverse %x, dims = [1] : tensor<2x3xf32>
      return %0 : tensor<2x3xf32>
    })",
                     {x}),
              BitwiseEq(Tensor::FromVector<float>({2, 3}, {2, 1, 0, 5, 4, 3})));
  EXPECT_THAT(RunOne(R"(
    func.func @main(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
      %0 = hlo.reverse %x, dims = [0, 1] : tensor<2x3xf32>
      return %0 : tensor<2x3xf32>
    })",
                     {x}),
              BitwiseEq(Tensor::FromVector<float>({2, 3}, {5, 4, 3, 2, 1, 0})));
  Tensor empty = Tensor::Zeros(ElementType::kS8, {0, 2});
  EXPECT_THAT(RunOne(R"(
    func.func @main(%x: tensor<0x2xi8>) -> tensor<0x2xi8> {
      %0 = hlo.reverse %x, dims = [0] : tensor<0x2xi8>
      return %0 : tensor<0x2xi8>
    })",
                     {empty}),
              BitwiseEq(empty));
}

TEST_F(ShapeKernelsTest, ConcatenateJoinsAlongADimension) {
  Tensor a = Tensor::FromVector<int32_t>({2, 1}, {1, 2});
  Tensor b = Tensor::Zeros(ElementType::kS32, {2, 0});
  Tensor c = Tensor::FromVector<int32_t>({2, 2}, {3, 4, 5, 6});
  EXPECT_THAT(RunOne(R"(
    func.func @main(%a: tensor<2x1xi32>, %b: tensor<2x0xi32>, %c: tensor<2x2xi32>)
        -> tensor<2x3xi32> {
      %0 = hlo.concatenate %a, %b, %c, dim = 1
          : (tensor<2x1xi32>, tensor<2x0xi32>, tensor<2x2xi32>) -> tensor<2x3xi32>
      return %0 : tensor<2x3xi32>
    })",
                     {a, b, c}),
              BitwiseEq(Tensor::FromVector<int32_t>({2, 3}, {1, 3, 4, 2, 5, 6})));
  EXPECT_THAT(RunOne(R"(
    func.func @main(%a: tensor<2x2xi32>, %b: tensor<2x2xi32>) -> tensor<4x2xi32> {
      %0 = hlo.concatenate %a, %b, dim = 0
          : (tensor<2x2xi32>, tensor<2x2xi32>) -> tensor<4x2xi32>
      return %0 : tensor<4x2xi32>
    })",
                     {c, c}),
              BitwiseEq(Tensor::FromVector<int32_t>({4, 2}, {3, 4, 5, 6, 3, 4, 5, 6})));
}

}  // namespace
}  // namespace tessel::runtime
