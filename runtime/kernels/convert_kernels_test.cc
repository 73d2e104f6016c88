// Tests of hlo.convert: saturation, rounding (exactly once) and the pred rules.
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "absl/strings/str_format.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "runtime/kernel_test_util.h"
#include "runtime/kernels/element_convert.h"

namespace tessel::runtime {
namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

class ConvertKernelTest : public KernelTest {
 protected:
  Tensor Convert(const Tensor& x, ElementType to) {
    std::string from = MlirTensorType(x), result = MlirTensorType(to, x.shape());
    return RunOne(absl::StrFormat(R"(
      func.func @main(%%x: %s) -> %s {
        %%0 = hlo.convert %%x : (%s) -> %s
        return %%0 : %s
      })",
                                  from, result, from, result, result),
                  {x});
  }
};

TEST_F(ConvertKernelTest, FloatToIntRoundsTowardZeroAndSaturates) {
  Tensor x = Tensor::FromVector<float>({7}, {1e10f, -1e10f, kNaN, 2.9f, -2.9f, kInf, -kInf});
  constexpr int32_t kMax = std::numeric_limits<int32_t>::max();
  constexpr int32_t kMin = std::numeric_limits<int32_t>::min();
  EXPECT_THAT(Convert(x, ElementType::kS32),
              BitwiseEq(Tensor::FromVector<int32_t>({7}, {kMax, kMin, 0, 2, -2, kMax, kMin})));
  Tensor y = Tensor::FromVector<float>({5}, {-1.5f, -0.5f, 255.9f, 256.0f, kNaN});
  EXPECT_THAT(Convert(y, ElementType::kU8),
              BitwiseEq(Tensor::FromVector<uint8_t>({5}, {0, 0, 255, 255, 0})));
}

TEST_F(ConvertKernelTest, F64ToS64SaturatesAtTheExactBounds) {
  // 2^63 is one past the largest s64; -2^63 is the smallest.
  Tensor x = Tensor::FromVector<double>(
      {4}, {std::ldexp(1.0, 63), -std::ldexp(1.0, 63), 9.3e18, std::ldexp(1.0, 62)});
  EXPECT_THAT(Convert(x, ElementType::kS64),
              BitwiseEq(Tensor::FromVector<int64_t>(
                  {4}, {std::numeric_limits<int64_t>::max(), std::numeric_limits<int64_t>::min(),
                        std::numeric_limits<int64_t>::max(), int64_t{1} << 62})));
  Tensor h = Tensor::FromVector<f16>({2}, {f16(-7.75f), f16(kInf)});
  EXPECT_THAT(Convert(h, ElementType::kS8), BitwiseEq(Tensor::FromVector<int8_t>({2}, {-7, 127})));
}

TEST_F(ConvertKernelTest, IntToFloatRoundsToNearestEven) {
  // 2^24 + 1 is halfway between two floats and goes to the even 2^24; 2^24 + 3 goes up.
  Tensor x = Tensor::FromVector<int32_t>({3}, {16777217, 16777219, -16777217});
  EXPECT_THAT(Convert(x, ElementType::kF32),
              BitwiseEq(Tensor::FromVector<float>({3}, {16777216.0f, 16777220.0f, -16777216.0f})));
  // The largest u64 rounds up to 2^64 in f32 and overflows f16.
  Tensor u = Tensor::FromVector<uint64_t>({1}, {std::numeric_limits<uint64_t>::max()});
  EXPECT_THAT(Convert(u, ElementType::kF32),
              BitwiseEq(Tensor::FromVector<float>({1}, {std::ldexp(1.0f, 64)})));
  EXPECT_THAT(Convert(u, ElementType::kF16), BitwiseEq(Tensor::FromVector<f16>({1}, {f16(kInf)})));
}

TEST_F(ConvertKernelTest, NarrowFloatsAreRoundedOnlyOnce) {
  // 2^24 + 2^16 + 1 lies just above the midpoint 2^24 + 2^16 of the bf16 neighbours 2^24 and
  // 2^24 + 2^17, so it rounds up. Going through f32 first would lose the +1 and then break
  // the tie to the even 2^24.
  Tensor s = Tensor::FromVector<int32_t>({1}, {(1 << 24) + (1 << 16) + 1});
  EXPECT_THAT(Convert(s, ElementType::kBF16),
              BitwiseEq(Tensor::FromVector<bf16>({1}, {bf16(16908288.0f)})));
  // The same at 2^40 from s64: neighbours 2^40 and 2^40 + 2^33.
  int64_t big = (int64_t{1} << 40) + (int64_t{1} << 32) + 1;
  EXPECT_THAT(Convert(Tensor::FromVector<int64_t>({1}, {big}), ElementType::kBF16),
              BitwiseEq(Tensor::FromVector<bf16>(
                  {1}, {bf16(std::ldexp(1.0f, 40) + std::ldexp(1.0f, 33))})));
  // f64 → f16: 1 + 2^-11 + 2^-40 is just above the midpoint of 1 and 1 + 2^-10.
  Tensor d = Tensor::FromVector<double>({2}, {1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40),
                                              1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -40)});
  Tensor h = Convert(d, ElementType::kF16);
  EXPECT_EQ(static_cast<float>(h.data<f16>()[0]), 1.0f + std::ldexp(1.0f, -10));
  // f64 → bf16: 1 + 2^-8 + 2^-40 is just above the midpoint of 1 and 1 + 2^-7.
  Tensor b = Convert(d, ElementType::kBF16);
  EXPECT_EQ(static_cast<float>(b.data<bf16>()[1]), 1.0f + std::ldexp(1.0f, -7));
}

TEST_F(ConvertKernelTest, NarrowFloatOverflowAndCrossConversion) {
  // f16's largest value is 65504; 65520 is the midpoint to the next power of two and
  // overflows.
  Tensor x = Tensor::FromVector<float>({3}, {65519.0f, 65520.0f, -1e6f});
  EXPECT_THAT(Convert(x, ElementType::kF16),
              BitwiseEq(Tensor::FromVector<f16>({3}, {f16(65504.0f), f16(kInf), f16(-kInf)})));
  // 65504 has 11 significant bits; bf16 keeps 8 and rounds it up to 2^16.
  Tensor h = Tensor::FromVector<f16>({2}, {f16(65504.0f), f16(-0.0f)});
  EXPECT_THAT(Convert(h, ElementType::kBF16),
              BitwiseEq(Tensor::FromVector<bf16>({2}, {bf16(65536.0f), bf16(-0.0f)})));
  // A bf16 beyond f16's range overflows; a tiny one becomes an f16 subnormal or zero.
  Tensor b = Tensor::FromVector<bf16>({2}, {bf16(1e5f), bf16(std::ldexp(1.0f, -24))});
  EXPECT_THAT(Convert(b, ElementType::kF16),
              BitwiseEq(Tensor::FromVector<f16>({2}, {f16(kInf), f16(std::ldexp(1.0f, -24))})));
}

TEST_F(ConvertKernelTest, PredConversions) {
  // Anything nonzero (NaN included) is true; -0 is zero.
  Tensor x = Tensor::FromVector<float>({4}, {0.0f, -0.0f, 0.5f, kNaN});
  EXPECT_THAT(Convert(x, ElementType::kPred),
              BitwiseEq(Tensor::FromVector<bool>({4}, {false, false, true, true})));
  Tensor i = Tensor::FromVector<int32_t>({3}, {0, -4, 256});
  EXPECT_THAT(Convert(i, ElementType::kPred),
              BitwiseEq(Tensor::FromVector<bool>({3}, {false, true, true})));
  Tensor p = Tensor::FromVector<bool>({2}, {true, false});
  EXPECT_THAT(Convert(p, ElementType::kF32), BitwiseEq(Tensor::FromVector<float>({2}, {1, 0})));
  EXPECT_THAT(Convert(p, ElementType::kS64), BitwiseEq(Tensor::FromVector<int64_t>({2}, {1, 0})));
  EXPECT_THAT(Convert(p, ElementType::kBF16),
              BitwiseEq(Tensor::FromVector<bf16>({2}, {bf16(1.0f), bf16(0.0f)})));
}

TEST_F(ConvertKernelTest, IntegerWidthChangesWrapOrExtend) {
  Tensor x = Tensor::FromVector<int32_t>({3}, {300, -129, 65535});
  // 300 - 256 = 44, -129 + 256 = 127, 65535 = 0xffff → -1.
  EXPECT_THAT(Convert(x, ElementType::kS8),
              BitwiseEq(Tensor::FromVector<int8_t>({3}, {44, 127, -1})));
  // Sign extension to 32 bits, then read as unsigned.
  EXPECT_THAT(Convert(Tensor::FromVector<int8_t>({1}, {-1}), ElementType::kU32),
              BitwiseEq(Tensor::FromVector<uint32_t>({1}, {0xFFFFFFFFu})));
  // Zero extension of unsigned values.
  EXPECT_THAT(Convert(Tensor::FromVector<uint8_t>({1}, {255}), ElementType::kS32),
              BitwiseEq(Tensor::FromVector<int32_t>({1}, {255})));
  EXPECT_THAT(Convert(Tensor::FromVector<uint32_t>({1}, {0xFFFFFFFFu}), ElementType::kS16),
              BitwiseEq(Tensor::FromVector<int16_t>({1}, {-1})));
}

TEST_F(ConvertKernelTest, RankZeroAndSameType) {
  EXPECT_THAT(Convert(Tensor::Scalar<double>(-2.5), ElementType::kS16),
              BitwiseEq(Tensor::Scalar<int16_t>(-2)));
  Tensor x = Tensor::FromVector<float>({2}, {kNaN, -0.0f});
  EXPECT_THAT(Convert(x, ElementType::kF32), BitwiseEq(x));
}

// The scalar function directly, for the paths the programs above do not reach.
TEST(ConvertElementTest, RoundsThroughOddOnlyWhenInexact) {
  EXPECT_EQ(ConvertElement<f16>(int64_t{2049}), f16(2048.0f));  // tie to even
  EXPECT_EQ(ConvertElement<f16>(int64_t{2051}), f16(2052.0f));
  EXPECT_EQ(ConvertElement<bf16>(-1e300), bf16(-kInf));
  EXPECT_EQ(ConvertElement<f16>(std::ldexp(1.0, -30)), f16(0.0f));  // below half the
                                                                    // smallest subnormal
  EXPECT_TRUE(std::isnan(static_cast<float>(ConvertElement<bf16>(std::nan("")))));
  EXPECT_EQ(ConvertElement<uint64_t>(std::ldexp(1.0f, 64)), std::numeric_limits<uint64_t>::max());
  EXPECT_EQ(ConvertElement<int8_t>(-128.9), -128);
}

}  // namespace
}  // namespace tessel::runtime
