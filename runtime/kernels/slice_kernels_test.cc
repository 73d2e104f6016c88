// Tests of slice, dynamic_slice (start clamping, index types), dynamic_update_slice and pad
// (negative and interior padding).
#include <cstdint>
#include <string>
#include <numeric>
#include <vector>

#include "absl/strings/str_format.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "runtime/kernel_test_util.h"

namespace tessel::runtime {
namespace {

template <typename T>
Tensor Counting(Shape shape) {
  std::vector<T> values(NumElements(shape));
  std::iota(values.begin(), values.end(), T(0));
  return Tensor::FromVector<T>(std::move(shape), values);
}

class SliceKernelsTest : public KernelTest {
 protected:
  // dynamic_slice of a 4x5 s32 counting tensor (x[i, j] = 5i + j), box 2x3, at (i, j).
  Tensor DynamicSlice4x5(const Tensor& i, const Tensor& j) {
    std::string index = MlirTensorType(i);
    std::string program = absl::StrFormat(R"(
      func.func @main(%%x: tensor<4x5xi32>, %%i: %s, %%j: %s) -> tensor<2x3xi32> {
        %%0 = hlo.dynamic_slice %%x, %%i, %%j, sizes = [2, 3]
            : (tensor<4x5xi32>, %s, %s) -> tensor<2x3xi32>
        return %%0 : tensor<2x3xi32>
      })",
                                          index, index, index, index);
    return RunOne(program, {Counting<int32_t>({4, 5}), i, j});
  }
  // The 2x3 box of the 4x5 counting tensor at (i, j).
  static Tensor Box(int32_t i, int32_t j) {
    std::vector<int32_t> values;
    for (int32_t a = i; a < i + 2; ++a)
      for (int32_t b = j; b < j + 3; ++b) values.push_back(5 * a + b);
    return Tensor::FromVector<int32_t>({2, 3}, values);
  }
};

TEST_F(SliceKernelsTest, SliceWithStrides) {
  Tensor x = Counting<int32_t>({4, 5});
  // Rows 1 and 3, columns 0, 2, 4.
  EXPECT_THAT(RunOne(R"(
    func.func @main(%x: tensor<4x5xi32>) -> tensor<2x3xi32> {
      %0 = hlo.slice %x [1:4:2, 0:5:2] : (tensor<4x5xi32>) -> tensor<2x3xi32>
      return %0 : tensor<2x3xi32>
    })",
                     {x}),
              BitwiseEq(Tensor::FromVector<int32_t>({2, 3}, {5, 7, 9, 15, 17, 19})));
  // An empty range at the very end.
  EXPECT_THAT(RunOne(R"(
    func.func @main(%x: tensor<4x5xi32>) -> tensor<0x5xi32> {
      %0 = hlo.slice %x [4:4, 0:5] : (tensor<4x5xi32>) -> tensor<0x5xi32>
      return %0 : tensor<0x5xi32>
    })",
                     {x}),
              BitwiseEq(Tensor::Zeros(ElementType::kS32, {0, 5})));
}

TEST_F(SliceKernelsTest, DynamicSliceClampsStartIndices) {
  EXPECT_THAT(DynamicSlice4x5(Tensor::Scalar<int32_t>(1), Tensor::Scalar<int32_t>(2)),
              BitwiseEq(Box(1, 2)));
  // Starts are clamped into [0, 4 - 2] and [0, 5 - 3].
  EXPECT_THAT(DynamicSlice4x5(Tensor::Scalar<int32_t>(7), Tensor::Scalar<int32_t>(-3)),
              BitwiseEq(Box(2, 0)));
  EXPECT_THAT(DynamicSlice4x5(Tensor::Scalar<int32_t>(-100), Tensor::Scalar<int32_t>(100)),
              BitwiseEq(Box(0, 2)));
}

TEST_F(SliceKernelsTest, DynamicSliceReadsEveryIndexType) {
  EXPECT_THAT(DynamicSlice4x5(Tensor::Scalar<int8_t>(-1), Tensor::Scalar<int8_t>(1)),
              BitwiseEq(Box(0, 1)));
  // The largest u32 and u64 are large positive starts, clamped to the last valid one.
  EXPECT_THAT(DynamicSlice4x5(Tensor::Scalar<uint32_t>(0xFFFFFFFFu), Tensor::Scalar<uint32_t>(1)),
              BitwiseEq(Box(2, 1)));
  EXPECT_THAT(DynamicSlice4x5(Tensor::Scalar<uint64_t>(~uint64_t{0}), Tensor::Scalar<uint64_t>(0)),
              BitwiseEq(Box(2, 0)));
  EXPECT_THAT(DynamicSlice4x5(Tensor::Scalar<int64_t>(1), Tensor::Scalar<int64_t>(1)),
              BitwiseEq(Box(1, 1)));
}

TEST_F(SliceKernelsTest, DynamicUpdateSliceClampsLikeDynamicSlice) {
  constexpr absl::string_view kProgram = R"(
    func.func @main(%x: tensor<3x4xf32>, %u: tensor<2x2xf32>, %i: tensor<i32>, %j: tensor<i32>)
        -> tensor<3x4xf32> {
      %0 = hlo.dynamic_update_slice %x, %u, %i, %j
          : (tensor<3x4xf32>, tensor<2x2xf32>, tensor<i32>, tensor<i32>) -> tensor<3x4xf32>
      return %0 : tensor<3x4xf32>
    })";
  Tensor x = Tensor::Zeros(ElementType::kF32, {3, 4});
  Tensor u = Tensor::FromVector<float>({2, 2}, {1, 2, 3, 4});
  EXPECT_THAT(RunOne(kProgram, {x, u, Tensor::Scalar<int32_t>(0), Tensor::Scalar<int32_t>(1)}),
              BitwiseEq(Tensor::FromVector<float>({3, 4}, {0, 1, 2, 0, 0, 3, 4, 0, 0, 0, 0, 0})));
  // (5, -1) clamps to (1, 0).
  EXPECT_THAT(RunOne(kProgram, {x, u, Tensor::Scalar<int32_t>(5), Tensor::Scalar<int32_t>(-1)}),
              BitwiseEq(Tensor::FromVector<float>({3, 4}, {0, 0, 0, 0, 1, 2, 0, 0, 3, 4, 0, 0})));
}

TEST_F(SliceKernelsTest, DynamicSliceAndUpdateOfRankZero) {
  EXPECT_THAT(RunOne(R"(
    func.func @main(%x: tensor<i8>, %u: tensor<i8>) -> tensor<i8> {
      %0 = hlo.dynamic_update_slice %x, %u : (tensor<i8>, tensor<i8>) -> tensor<i8>
      return %0 : tensor<i8>
    })",
                     {Tensor::Scalar<int8_t>(1), Tensor::Scalar<int8_t>(9)}),
              BitwiseEq(Tensor::Scalar<int8_t>(9)));
  EXPECT_THAT(RunOne(R"(
    func.func @main(%x: tensor<i8>) -> tensor<i8> {
      %0 = hlo.dynamic_slice %x, sizes = [] : (tensor<i8>) -> tensor<i8>
      return %0 : tensor<i8>
    })",
                     {Tensor::Scalar<int8_t>(7)}),
              BitwiseEq(Tensor::Scalar<int8_t>(7)));
}

TEST_F(SliceKernelsTest, PadWithEdgesAndInterior) {
  // [[1, 2, 3], [4, 5, 6]] with low (1, 0), high (0, 1), interior (0, 1):
  // each row becomes [a, p, b, p, c, p] and a padding row goes on top.
  Tensor x = Tensor::FromVector<int32_t>({2, 3}, {1, 2, 3, 4, 5, 6});
  EXPECT_THAT(RunOne(R"(
    func.func @main(%x: tensor<2x3xi32>, %p: tensor<i32>) -> tensor<3x6xi32> {
      %0 = hlo.pad %x, %p, low = [1, 0], high = [0, 1], interior = [0, 1]
          : (tensor<2x3xi32>, tensor<i32>) -> tensor<3x6xi32>
      return %0 : tensor<3x6xi32>
    })",
                     {x, Tensor::Scalar<int32_t>(-1)}),
              BitwiseEq(Tensor::FromVector<int32_t>(
                  {3, 6}, {-1, -1, -1, -1, -1, -1, 1, -1, 2, -1, 3, -1, 4, -1, 5, -1, 6, -1})));
}

TEST_F(SliceKernelsTest, NegativePaddingCrops) {
  // [0..5] with interior 1 is [0 p 1 p 2 p 3 p 4 p 5] (11 long); low -3 drops "0 p 1" and
  // high -2 drops "p 5", leaving [p 2 p 3 p 4] (6 long).
  Tensor x = Counting<float>({6});
  EXPECT_THAT(RunOne(R"(
    func.func @main(%x: tensor<6xf32>, %p: tensor<f32>) -> tensor<6xf32> {
      %0 = hlo.pad %x, %p, low = [-3], high = [-2], interior = [1]
          : (tensor<6xf32>, tensor<f32>) -> tensor<6xf32>
      return %0 : tensor<6xf32>
    })",
                     {x, Tensor::Scalar<float>(0.5f)}),
              BitwiseEq(Tensor::FromVector<float>({6}, {0.5f, 2, 0.5f, 3, 0.5f, 4})));
  // Cropping on one side while padding on the other: low -2, high 1 on [0, 1, 2, 3].
  Tensor y = Counting<int8_t>({4});
  EXPECT_THAT(RunOne(R"(
    func.func @main(%x: tensor<4xi8>, %p: tensor<i8>) -> tensor<3xi8> {
      %0 = hlo.pad %x, %p, low = [-2], high = [1], interior = [0]
          : (tensor<4xi8>, tensor<i8>) -> tensor<3xi8>
      return %0 : tensor<3xi8>
    })",
                     {y, Tensor::Scalar<int8_t>(9)}),
              BitwiseEq(Tensor::FromVector<int8_t>({3}, {2, 3, 9})));
}

TEST_F(SliceKernelsTest, PadOfEmptyAndAllCroppedOperands) {
  // An empty operand gives only padding.
  EXPECT_THAT(RunOne(R"(
    func.func @main(%x: tensor<0x2xi32>, %p: tensor<i32>) -> tensor<2x2xi32> {
      %0 = hlo.pad %x, %p, low = [1, 0], high = [1, 0], interior = [3, 0]
          : (tensor<0x2xi32>, tensor<i32>) -> tensor<2x2xi32>
      return %0 : tensor<2x2xi32>
    })",
                     {Tensor::Zeros(ElementType::kS32, {0, 2}), Tensor::Scalar<int32_t>(7)}),
              BitwiseEq(Tensor::FromVector<int32_t>({2, 2}, {7, 7, 7, 7})));
  // Cropping that leaves only interior padding: [0 p p 1] with low -1, high -1 is [p p].
  EXPECT_THAT(RunOne(R"(
    func.func @main(%x: tensor<2xbf16>, %p: tensor<bf16>) -> tensor<2xbf16> {
      %0 = hlo.pad %x, %p, low = [-1], high = [-1], interior = [2]
          : (tensor<2xbf16>, tensor<bf16>) -> tensor<2xbf16>
      return %0 : tensor<2xbf16>
    })",
                     {Tensor::FromVector<bf16>({2}, {bf16(0.0f), bf16(1.0f)}),
                      Tensor::Scalar<bf16>(bf16(-1.0f))}),
              BitwiseEq(Tensor::FromVector<bf16>({2}, {bf16(-1.0f), bf16(-1.0f)})));
}

}  // namespace
}  // namespace tessel::runtime
