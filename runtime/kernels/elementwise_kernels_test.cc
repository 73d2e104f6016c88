// Tests of hlo.compare (FLOAT, TOTALORDER, SIGNED, UNSIGNED), hlo.select and hlo.clamp.
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "absl/strings/str_format.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "runtime/kernel_test_util.h"

namespace tessel::runtime {
namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

class ElementwiseKernelsTest : public KernelTest {
 protected:
  // hlo.compare <direction>, a, b[, <type>].
  Tensor Compare(absl::string_view direction, const Tensor& a, const Tensor& b,
                 absl::string_view type = "") {
    std::string operand = MlirTensorType(a);
    std::string result = MlirTensorType(ElementType::kPred, a.shape());
    std::string suffix = type.empty() ? "" : absl::StrCat(", ", type);
    return RunOne(absl::StrFormat(R"(
      func.func @main(%%a: %s, %%b: %s) -> %s {
        %%0 = hlo.compare %s, %%a, %%b%s : %s
        return %%0 : %s
      })",
                                  operand, operand, result, direction, suffix, operand, result),
                  {a, b});
  }

  static Tensor Preds(std::vector<bool> values) {
    return Tensor::FromVector<bool>({static_cast<int64_t>(values.size())}, values);
  }
};

TEST_F(ElementwiseKernelsTest, FloatComparisonIsIEEE) {
  // NaN is unordered: only NE holds. -0 equals +0.
  Tensor a = Tensor::FromVector<float>({4}, {1.0f, kNaN, -0.0f, 2.0f});
  Tensor b = Tensor::FromVector<float>({4}, {2.0f, kNaN, 0.0f, 1.0f});
  EXPECT_THAT(Compare("EQ", a, b), BitwiseEq(Preds({false, false, true, false})));
  EXPECT_THAT(Compare("NE", a, b), BitwiseEq(Preds({true, true, false, true})));
  EXPECT_THAT(Compare("LT", a, b), BitwiseEq(Preds({true, false, false, false})));
  EXPECT_THAT(Compare("LE", a, b), BitwiseEq(Preds({true, false, true, false})));
  EXPECT_THAT(Compare("GT", a, b), BitwiseEq(Preds({false, false, false, true})));
  EXPECT_THAT(Compare("GE", a, b, "FLOAT"), BitwiseEq(Preds({false, false, true, true})));
}

TEST_F(ElementwiseKernelsTest, TotalOrderSortsNaNsInfinitiesAndSignedZeros) {
  // Ascending in totalOrder: -NaN < -Inf < -1 < -0 < +0 < 1 < +Inf < +NaN.
  std::vector<float> ascending = {-kNaN, -kInf, -1.0f, -0.0f, 0.0f, 1.0f, kInf, kNaN};
  Tensor lower = Tensor::FromVector<float>({7}, {ascending.begin(), ascending.end() - 1});
  Tensor upper = Tensor::FromVector<float>({7}, {ascending.begin() + 1, ascending.end()});
  std::vector<bool> all(7, true), none(7, false);
  EXPECT_THAT(Compare("LT", lower, upper, "TOTALORDER"), BitwiseEq(Preds(all)));
  EXPECT_THAT(Compare("GE", lower, upper, "TOTALORDER"), BitwiseEq(Preds(none)));
  EXPECT_THAT(Compare("GT", upper, lower, "TOTALORDER"), BitwiseEq(Preds(all)));
  // A NaN equals itself; -0 and +0 differ.
  Tensor a = Tensor::FromVector<float>({2}, {kNaN, -0.0f});
  Tensor b = Tensor::FromVector<float>({2}, {kNaN, 0.0f});
  EXPECT_THAT(Compare("EQ", a, b, "TOTALORDER"), BitwiseEq(Preds({true, false})));
  EXPECT_THAT(Compare("LE", a, b, "TOTALORDER"), BitwiseEq(Preds({true, true})));
  EXPECT_THAT(Compare("NE", a, b, "TOTALORDER"), BitwiseEq(Preds({false, true})));
}

TEST_F(ElementwiseKernelsTest, TotalOrderForEveryFloatWidth) {
  Tensor h = Tensor::FromVector<f16>({3}, {f16(-kNaN), f16(-0.0f), f16(-2.0f)});
  Tensor k = Tensor::FromVector<f16>({3}, {f16(-kInf), f16(0.0f), f16(-1.0f)});
  EXPECT_THAT(Compare("LT", h, k, "TOTALORDER"), BitwiseEq(Preds({true, true, true})));
  Tensor b = Tensor::FromVector<bf16>({2}, {bf16(kInf), bf16(-0.0f)});
  Tensor c = Tensor::FromVector<bf16>({2}, {bf16(kNaN), bf16(-1.0f)});
  EXPECT_THAT(Compare("LT", b, c, "TOTALORDER"), BitwiseEq(Preds({true, false})));
  double nan = std::numeric_limits<double>::quiet_NaN();
  Tensor d = Tensor::FromVector<double>({2}, {-nan, 1e300});
  Tensor e = Tensor::FromVector<double>({2}, {-1e300, nan});
  EXPECT_THAT(Compare("LT", d, e, "TOTALORDER"), BitwiseEq(Preds({true, true})));
}

TEST_F(ElementwiseKernelsTest, IntegersCompareBySignedness) {
  Tensor s = Tensor::FromVector<int32_t>({2}, {-1, 5});
  Tensor t = Tensor::FromVector<int32_t>({2}, {1, 5});
  EXPECT_THAT(Compare("LT", s, t), BitwiseEq(Preds({true, false})));
  EXPECT_THAT(Compare("GE", s, t, "SIGNED"), BitwiseEq(Preds({false, true})));
  // 0xffffffff is the largest u32.
  Tensor u = Tensor::FromVector<uint32_t>({2}, {0xFFFFFFFFu, 5});
  Tensor v = Tensor::FromVector<uint32_t>({2}, {1, 5});
  EXPECT_THAT(Compare("LT", u, v), BitwiseEq(Preds({false, false})));
  EXPECT_THAT(Compare("GT", u, v, "UNSIGNED"), BitwiseEq(Preds({true, false})));
  EXPECT_THAT(Compare("EQ", u, v), BitwiseEq(Preds({false, true})));
  // pred: false < true.
  Tensor p = Preds({false, true, true});
  Tensor q = Preds({true, true, false});
  EXPECT_THAT(Compare("LT", p, q), BitwiseEq(Preds({true, false, false})));
  EXPECT_THAT(Compare("NE", p, q, "UNSIGNED"), BitwiseEq(Preds({true, false, true})));
}

TEST_F(ElementwiseKernelsTest, CompareRankZero) {
  EXPECT_THAT(Compare("GT", Tensor::Scalar<int8_t>(-3), Tensor::Scalar<int8_t>(-4)),
              BitwiseEq(Tensor::Scalar<bool>(true)));
}

TEST_F(ElementwiseKernelsTest, SelectByElementOrAsAWhole) {
  Tensor t = Tensor::FromVector<int32_t>({3}, {1, 2, 3});
  Tensor f = Tensor::FromVector<int32_t>({3}, {-1, -2, -3});
  constexpr absl::string_view kPerElement = R"(
    func.func @main(%p: tensor<3xi1>, %t: tensor<3xi32>, %f: tensor<3xi32>) -> tensor<3xi32> {
      %0 = hlo.select %p, %t, %f : tensor<3xi1>, tensor<3xi32>
      return %0 : tensor<3xi32>
    })";
  EXPECT_THAT(RunOne(kPerElement, {Preds({true, false, true}), t, f}),
              BitwiseEq(Tensor::FromVector<int32_t>({3}, {1, -2, 3})));
  constexpr absl::string_view kWhole = R"(
    func.func @main(%p: tensor<i1>, %t: tensor<3xi32>, %f: tensor<3xi32>) -> tensor<3xi32> {
      %0 = hlo.select %p, %t, %f : tensor<i1>, tensor<3xi32>
      return %0 : tensor<3xi32>
    })";
  EXPECT_THAT(RunOne(kWhole, {Tensor::Scalar<bool>(false), t, f}), BitwiseEq(f));
  EXPECT_THAT(RunOne(kWhole, {Tensor::Scalar<bool>(true), t, f}), BitwiseEq(t));
}

TEST_F(ElementwiseKernelsTest, ClampWithScalarOrFullBounds) {
  constexpr absl::string_view kScalarBounds = R"(
    func.func @main(%lo: tensor<f32>, %x: tensor<5xf32>, %hi: tensor<f32>) -> tensor<5xf32> {
      %0 = hlo.clamp %lo, %x, %hi : tensor<f32>, tensor<5xf32>, tensor<f32>
      return %0 : tensor<5xf32>
    })";
  // A NaN operand stays NaN.
  Tensor x = Tensor::FromVector<float>({5}, {-5.0f, 0.5f, 7.0f, kNaN, -kInf});
  EXPECT_THAT(RunOne(kScalarBounds, {Tensor::Scalar<float>(-1.0f), x, Tensor::Scalar<float>(1.0f)}),
              BitwiseEq(Tensor::FromVector<float>({5}, {-1.0f, 0.5f, 1.0f, kNaN, -1.0f})));
  // A NaN bound gives NaN everywhere.
  Tensor clamped =
      RunOne(kScalarBounds, {Tensor::Scalar<float>(kNaN), x, Tensor::Scalar<float>(1.0f)});
  for (float v : clamped.data<float>()) EXPECT_TRUE(std::isnan(v));
  constexpr absl::string_view kFullBounds = R"(
    func.func @main(%lo: tensor<3xi32>, %x: tensor<3xi32>, %hi: tensor<i32>) -> tensor<3xi32> {
      %0 = hlo.clamp %lo, %x, %hi : tensor<3xi32>, tensor<3xi32>, tensor<i32>
      return %0 : tensor<3xi32>
    })";
  EXPECT_THAT(RunOne(kFullBounds,
                     {Tensor::FromVector<int32_t>({3}, {0, 5, -10}),
                      Tensor::FromVector<int32_t>({3}, {-3, 3, 30}), Tensor::Scalar<int32_t>(20)}),
              BitwiseEq(Tensor::FromVector<int32_t>({3}, {0, 5, 20})));
}

}  // namespace
}  // namespace tessel::runtime
