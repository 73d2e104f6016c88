// Tests of the unary elementwise kernels against hand-computed values.
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "runtime/kernel_test_util.h"

namespace tessel::runtime {
namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

class UnaryKernelsTest : public KernelTest {
 protected:
  Tensor Apply(absl::string_view op, const Tensor& x) { return RunOne(UnaryProgram(op, x), {x}); }
};

TEST_F(UnaryKernelsTest, AbsAndNegOfTheMostNegativeIntegerWrapToItself) {
  Tensor x = Tensor::FromVector<int8_t>({4}, {-128, -5, 0, 7});
  EXPECT_THAT(Apply("hlo.abs", x), BitwiseEq(Tensor::FromVector<int8_t>({4}, {-128, 5, 0, 7})));
  EXPECT_THAT(Apply("hlo.neg", x), BitwiseEq(Tensor::FromVector<int8_t>({4}, {-128, 5, 0, -7})));
  Tensor big = Tensor::FromVector<int64_t>({2}, {std::numeric_limits<int64_t>::min(), -3});
  EXPECT_THAT(Apply("hlo.abs", big), BitwiseEq(Tensor::FromVector<int64_t>(
                                         {2}, {std::numeric_limits<int64_t>::min(), 3})));
}

TEST_F(UnaryKernelsTest, AbsAndNegOnlyTouchTheSignBitOfFloats) {
  Tensor x = Tensor::FromVector<float>({4}, {-0.0f, -2.5f, -kInf, -kNaN});
  // |-NaN| is the NaN with the sign bit cleared.
  EXPECT_THAT(Apply("hlo.abs", x),
              BitwiseEq(Tensor::FromVector<float>({4}, {0.0f, 2.5f, kInf, kNaN})));
  EXPECT_THAT(Apply("hlo.neg", x),
              BitwiseEq(Tensor::FromVector<float>({4}, {0.0f, 2.5f, kInf, kNaN})));
  Tensor h = Tensor::FromVector<f16>({3}, {f16(1.0f), f16(-0.0f), f16(0.0f)});
  EXPECT_THAT(Apply("hlo.neg", h),
              BitwiseEq(Tensor::FromVector<f16>({3}, {f16(-1.0f), f16(0.0f), f16(-0.0f)})));
  Tensor b = Tensor::FromVector<bf16>({2}, {bf16(-3.0f), bf16(-0.0f)});
  EXPECT_THAT(Apply("hlo.abs", b),
              BitwiseEq(Tensor::FromVector<bf16>({2}, {bf16(3.0f), bf16(0.0f)})));
}

TEST_F(UnaryKernelsTest, TranscendentalsOfF32MatchLibmAndTheirSpecialValues) {
  // f32 math calls the float overloads of libm directly.
  std::vector<float> inputs = {0.0f, 1.0f, -1.0f, 0.25f, 3.5f};
  auto expectLibm = [&](absl::string_view op, float (*fn)(float)) {
    std::vector<float> expected;
    for (float v : inputs) expected.push_back(AtRunTime(fn, v));
    EXPECT_THAT(Apply(op, Tensor::FromVector<float>({5}, inputs)),
                BitwiseEq(Tensor::FromVector<float>({5}, expected)))
        << op;
  };
  expectLibm("hlo.exp", [](float v) { return std::exp(v); });
  expectLibm("hlo.tanh", [](float v) { return std::tanh(v); });
  expectLibm("hlo.sin", [](float v) { return std::sin(v); });
  expectLibm("hlo.cos", [](float v) { return std::cos(v); });
  expectLibm("hlo.log1p", [](float v) { return std::log1p(v); });  // log1p(-1) = -inf
  expectLibm("hlo.expm1", [](float v) { return std::expm1(v); });
  expectLibm("hlo.erf", [](float v) { return std::erf(v); });
  expectLibm("hlo.cbrt", [](float v) { return std::cbrt(v); });  // cbrt(-1) = -1
  expectLibm("hlo.tan", [](float v) { return std::tan(v); });
  Tensor y = Tensor::FromVector<float>({4}, {1.0f, 0.0f, 4.0f, -0.0f});
  // log(0) = -inf, log of a negative number is NaN.
  Tensor logs = Apply("hlo.log", Tensor::FromVector<float>({3}, {1.0f, 0.0f, -1.0f}));
  EXPECT_EQ(logs.data<float>()[0], 0.0f);
  EXPECT_EQ(logs.data<float>()[1], -kInf);
  EXPECT_TRUE(std::isnan(logs.data<float>()[2]));
  // sqrt(-0) = -0 and rsqrt(0) = inf, rsqrt(-0) = -inf.
  EXPECT_THAT(Apply("hlo.sqrt", y),
              BitwiseEq(Tensor::FromVector<float>({4}, {1.0f, 0.0f, 2.0f, -0.0f})));
  EXPECT_THAT(Apply("hlo.rsqrt", y),
              BitwiseEq(Tensor::FromVector<float>({4}, {1.0f, kInf, 0.5f, -kInf})));
}

TEST_F(UnaryKernelsTest, LogisticSaturatesWithoutNaN) {
  Tensor x = Tensor::FromVector<double>({4}, {0.0, -1000.0, 1000.0, 2.0});
  EXPECT_THAT(Apply("hlo.logistic", x),
              BitwiseEq(Tensor::FromVector<double>(
                  {4}, {0.5, 0.0, 1.0,
                        1.0 / (1.0 + AtRunTime([](double v) { return std::exp(v); }, -2.0))})));
}

TEST_F(UnaryKernelsTest, HalfFloatMathComputesInFloatAndRoundsOnce) {
  // e = 2.71828...; f16 has a spacing of 2^-9 and bf16 of 2^-6 near it, and both round it
  // to 2.71875.
  Tensor h = Tensor::FromVector<f16>({2}, {f16(1.0f), f16(0.0f)});
  EXPECT_THAT(Apply("hlo.exp", h),
              BitwiseEq(Tensor::FromVector<f16>({2}, {f16(2.71875f), f16(1.0f)})));
  Tensor b = Tensor::FromVector<bf16>({2}, {bf16(1.0f), bf16(4.0f)});
  EXPECT_THAT(
      Apply("hlo.exp", b),
      BitwiseEq(Tensor::FromVector<bf16>(
          {2}, {bf16(2.71875f), bf16(AtRunTime([](float v) { return std::exp(v); }, 4.0f))})));
  EXPECT_THAT(Apply("hlo.sqrt", b),
              BitwiseEq(Tensor::FromVector<bf16>({2}, {bf16(1.0f), bf16(2.0f)})));
}

TEST_F(UnaryKernelsTest, RoundingOps) {
  Tensor x = Tensor::FromVector<float>({7}, {0.5f, 1.5f, 2.5f, -0.5f, -2.5f, 2.4999f, -0.2f});
  // round: halfway cases go away from zero; -0.2 rounds to -0.
  EXPECT_THAT(Apply("hlo.round", x),
              BitwiseEq(Tensor::FromVector<float>({7}, {1, 2, 3, -1, -3, 2, -0.0f})));
  EXPECT_THAT(Apply("hlo.floor", x),
              BitwiseEq(Tensor::FromVector<float>({7}, {0, 1, 2, -1, -3, 2, -1})));
  // ceil of a negative fraction above -1 is -0.
  EXPECT_THAT(Apply("hlo.ceil", x),
              BitwiseEq(Tensor::FromVector<float>({7}, {1, 2, 3, -0.0f, -2, 3, -0.0f})));
  Tensor h = Tensor::FromVector<f16>({2}, {f16(2.5f), f16(-3.5f)});
  EXPECT_THAT(Apply("hlo.round", h),
              BitwiseEq(Tensor::FromVector<f16>({2}, {f16(3.0f), f16(-4.0f)})));
}

TEST_F(UnaryKernelsTest, RoundNearestEvenSendsTiesToTheEvenNeighbour) {
  Tensor x = Tensor::FromVector<float>(
      {9}, {0.5f, 1.5f, 2.5f, -0.5f, -2.5f, 2.4999f, -0.2f, 3.5f, 8388609.0f});
  EXPECT_THAT(Apply("hlo.round_nearest_even", x),
              BitwiseEq(Tensor::FromVector<float>(
                  {9}, {0.0f, 2, 2, -0.0f, -2, 2, -0.0f, 4, 8388609.0f})));
  Tensor h = Tensor::FromVector<bf16>({3}, {bf16(2.5f), bf16(-3.5f), bf16(-kInf)});
  EXPECT_THAT(Apply("hlo.round_nearest_even", h),
              BitwiseEq(Tensor::FromVector<bf16>({3}, {bf16(2.0f), bf16(-4.0f), bf16(-kInf)})));
}

TEST_F(UnaryKernelsTest, SignKeepsNaNAndSignedZero) {
  Tensor x = Tensor::FromVector<float>({6}, {-3.0f, -0.0f, 0.0f, 5.0f, kNaN, -kInf});
  EXPECT_THAT(Apply("hlo.sign", x),
              BitwiseEq(Tensor::FromVector<float>({6}, {-1.0f, -0.0f, 0.0f, 1.0f, kNaN, -1.0f})));
  Tensor i = Tensor::FromVector<int32_t>({4}, {-7, 0, 9, std::numeric_limits<int32_t>::min()});
  EXPECT_THAT(Apply("hlo.sign", i), BitwiseEq(Tensor::FromVector<int32_t>({4}, {-1, 0, 1, -1})));
  Tensor b = Tensor::FromVector<bf16>({2}, {bf16(-0.5f), bf16(-0.0f)});
  EXPECT_THAT(Apply("hlo.sign", b),
              BitwiseEq(Tensor::FromVector<bf16>({2}, {bf16(-1.0f), bf16(-0.0f)})));
}

TEST_F(UnaryKernelsTest, NotIsLogicalForPredAndBitwiseForIntegers) {
  EXPECT_THAT(Apply("hlo.not", Tensor::FromVector<bool>({2}, {true, false})),
              BitwiseEq(Tensor::FromVector<bool>({2}, {false, true})));
  EXPECT_THAT(Apply("hlo.not", Tensor::FromVector<uint8_t>({2}, {0, 0xF0})),
              BitwiseEq(Tensor::FromVector<uint8_t>({2}, {0xFF, 0x0F})));
  EXPECT_THAT(Apply("hlo.not", Tensor::FromVector<int32_t>({2}, {0, -1})),
              BitwiseEq(Tensor::FromVector<int32_t>({2}, {-1, 0})));
}

TEST_F(UnaryKernelsTest, IsFiniteGivesPred) {
  Tensor x = Tensor::FromVector<float>({5}, {1.0f, kInf, -kInf, kNaN, -0.0f});
  Tensor result = RunOne(R"(
    func.func @main(%x: tensor<5xf32>) -> tensor<5xi1> {
      %0 = hlo.is_finite %x : tensor<5xf32>
      return %0 : tensor<5xi1>
    })",
                         {x});
  EXPECT_THAT(result, BitwiseEq(Tensor::FromVector<bool>({5}, {true, false, false, false, true})));
  Tensor h = Tensor::FromVector<f16>({2}, {f16(65504.0f), f16(kInf)});
  EXPECT_THAT(RunOne(R"(
    func.func @main(%x: tensor<2xf16>) -> tensor<2xi1> {
      %0 = hlo.is_finite %x : tensor<2xf16>
      return %0 : tensor<2xi1>
    })",
                     {h}),
              BitwiseEq(Tensor::FromVector<bool>({2}, {true, false})));
}

TEST_F(UnaryKernelsTest, RankZeroAndEmptyTensors) {
  EXPECT_THAT(Apply("hlo.neg", Tensor::Scalar<double>(2.0)),
              BitwiseEq(Tensor::Scalar<double>(-2.0)));
  Tensor empty = Tensor::Zeros(ElementType::kF32, {0, 3});
  EXPECT_THAT(Apply("hlo.exp", empty), BitwiseEq(empty));
}

}  // namespace
}  // namespace tessel::runtime
