// Tests of the binary elementwise kernels: wrap-around, division corner cases, NaN in
// max/min, integer pow, shifts, and f16/bf16 rounding.
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "runtime/kernel_test_util.h"

namespace tessel::runtime {
namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr int32_t kIntMin = std::numeric_limits<int32_t>::min();
constexpr int32_t kIntMax = std::numeric_limits<int32_t>::max();

class BinaryKernelsTest : public KernelTest {
 protected:
  Tensor Apply(absl::string_view op, const Tensor& a, const Tensor& b) {
    return RunOne(BinaryProgram(op, a, b), {a, b});
  }
};

TEST_F(BinaryKernelsTest, IntegerArithmeticWrapsAround) {
  Tensor a = Tensor::FromVector<int8_t>({3}, {100, -128, 127});
  Tensor b = Tensor::FromVector<int8_t>({3}, {100, 1, 2});
  // 200 → -56; -129 → 127; 127 * 2 = 254 → -2.
  EXPECT_THAT(Apply("hlo.add", a, b),
              BitwiseEq(Tensor::FromVector<int8_t>({3}, {-56, -127, -127})));
  EXPECT_THAT(Apply("hlo.sub", a, b), BitwiseEq(Tensor::FromVector<int8_t>({3}, {0, 127, 125})));
  EXPECT_THAT(Apply("hlo.mul", a, b), BitwiseEq(Tensor::FromVector<int8_t>({3}, {16, -128, -2})));
  // 0xffff * 0xffff = 0xfffe0001, which overflows int after promotion; the low half is 1.
  Tensor u = Tensor::FromVector<uint16_t>({1}, {0xFFFF});
  EXPECT_THAT(Apply("hlo.mul", u, u), BitwiseEq(Tensor::FromVector<uint16_t>({1}, {1})));
  Tensor s = Tensor::FromVector<int32_t>({2}, {kIntMax, kIntMin});
  EXPECT_THAT(Apply("hlo.mul", s, Tensor::FromVector<int32_t>({2}, {2, -1})),
              BitwiseEq(Tensor::FromVector<int32_t>({2}, {-2, kIntMin})));
  Tensor z = Tensor::FromVector<uint32_t>({1}, {0});
  EXPECT_THAT(Apply("hlo.sub", z, Tensor::FromVector<uint32_t>({1}, {1})),
              BitwiseEq(Tensor::FromVector<uint32_t>({1}, {0xFFFFFFFFu})));
}

TEST_F(BinaryKernelsTest, LargeOperandsGiveEveryElementInFreshAndReusedBuffers) {
  // Past kParallelElements the loops run in chunks on the thread pool; the count is not a
  // multiple of the chunk, so the last chunk is short.
  const int64_t n = (int64_t{1} << 18) + (int64_t{1} << 16) + 37;
  std::vector<int32_t> a(n), b(n);
  for (int64_t i = 0; i < n; ++i) {
    a[i] = static_cast<int32_t>(i);
    b[i] = static_cast<int32_t>(3 * i + 1);
  }
  const std::string type = absl::StrCat("tensor<", n, "xi32>");
  // %d = b - a is computed into a fresh buffer, %e = -d into d's, %r = b + e into e's.
  Tensor result = RunOne(absl::StrCat("func.func @main(%a: ", type, ", %b: ", type, ") -> ",
                                      type, " {\n  %d = hlo.sub %b, %a : ", type,
                                      "\n  %e = hlo.neg %d : ", type, "\n  %r = hlo.add %b, %e : ",
                                      type, "\n  return %r : ", type, "\n}"),
                         {Tensor::FromVector<int32_t>({n}, a), Tensor::FromVector<int32_t>({n}, b)});
  absl::Span<const int32_t> values = result.data<int32_t>();
  ASSERT_EQ(static_cast<int64_t>(values.size()), n);
  for (int64_t i = 0; i < n; ++i) {
    // b - (b - a) = a
    if (values[i] != a[i]) FAIL() << "element " << i << ": " << values[i] << ", expected " << a[i];
  }
}

TEST_F(BinaryKernelsTest, PredAddIsOrAndMulIsAnd) {
  Tensor a = Tensor::FromVector<bool>({4}, {false, false, true, true});
  Tensor b = Tensor::FromVector<bool>({4}, {false, true, false, true});
  EXPECT_THAT(Apply("hlo.add", a, b),
              BitwiseEq(Tensor::FromVector<bool>({4}, {false, true, true, true})));
  EXPECT_THAT(Apply("hlo.mul", a, b),
              BitwiseEq(Tensor::FromVector<bool>({4}, {false, false, false, true})));
  EXPECT_THAT(Apply("hlo.max", a, b),
              BitwiseEq(Tensor::FromVector<bool>({4}, {false, true, true, true})));
  EXPECT_THAT(Apply("hlo.min", a, b),
              BitwiseEq(Tensor::FromVector<bool>({4}, {false, false, false, true})));
}

TEST_F(BinaryKernelsTest, SignedDivisionAndRemainderCornerCases) {
  Tensor a = Tensor::FromVector<int32_t>({6}, {7, -7, kIntMin, kIntMin, 7, -7});
  Tensor b = Tensor::FromVector<int32_t>({6}, {0, 0, -1, 0, 2, 2});
  // x / 0 = -1; INT_MIN / -1 = INT_MIN; division truncates toward zero.
  EXPECT_THAT(Apply("hlo.div", a, b),
              BitwiseEq(Tensor::FromVector<int32_t>({6}, {-1, -1, kIntMin, -1, 3, -3})));
  // x % 0 = x; INT_MIN % -1 = 0; the remainder has the dividend's sign.
  EXPECT_THAT(Apply("hlo.rem", a, b),
              BitwiseEq(Tensor::FromVector<int32_t>({6}, {7, -7, 0, kIntMin, 1, -1})));
  Tensor c = Tensor::FromVector<int8_t>({2}, {-128, 5});
  Tensor d = Tensor::FromVector<int8_t>({2}, {-1, -3});
  EXPECT_THAT(Apply("hlo.div", c, d), BitwiseEq(Tensor::FromVector<int8_t>({2}, {-128, -1})));
  EXPECT_THAT(Apply("hlo.rem", c, d), BitwiseEq(Tensor::FromVector<int8_t>({2}, {0, 2})));
}

TEST_F(BinaryKernelsTest, UnsignedDivisionByZeroGivesAllOnes) {
  Tensor a = Tensor::FromVector<uint8_t>({3}, {7, 0, 200});
  Tensor b = Tensor::FromVector<uint8_t>({3}, {0, 0, 7});
  EXPECT_THAT(Apply("hlo.div", a, b), BitwiseEq(Tensor::FromVector<uint8_t>({3}, {255, 255, 28})));
  EXPECT_THAT(Apply("hlo.rem", a, b), BitwiseEq(Tensor::FromVector<uint8_t>({3}, {7, 0, 4})));
}

TEST_F(BinaryKernelsTest, FloatDivisionAndRemainder) {
  Tensor a = Tensor::FromVector<float>({4}, {1.0f, -1.0f, -7.5f, 7.5f});
  Tensor b = Tensor::FromVector<float>({4}, {0.0f, 0.0f, 2.0f, -2.0f});
  Tensor q = Apply("hlo.div", a, b);
  EXPECT_EQ(q.data<float>()[0], kInf);
  EXPECT_EQ(q.data<float>()[1], -kInf);
  // fmod: the sign of the dividend.
  Tensor r = Apply("hlo.rem", a, b);
  EXPECT_TRUE(std::isnan(r.data<float>()[0]));
  EXPECT_EQ(r.data<float>()[2], -1.5f);
  EXPECT_EQ(r.data<float>()[3], 1.5f);
}

TEST_F(BinaryKernelsTest, MaxAndMinPropagateNaNAndOrderSignedZeros) {
  Tensor a = Tensor::FromVector<float>({5}, {kNaN, 1.0f, -0.0f, 0.0f, -kInf});
  Tensor b = Tensor::FromVector<float>({5}, {1.0f, kNaN, 0.0f, -0.0f, 3.0f});
  // -0 counts as less than +0 whichever side it is on.
  EXPECT_THAT(Apply("hlo.max", a, b),
              BitwiseEq(Tensor::FromVector<float>({5}, {kNaN, kNaN, 0.0f, 0.0f, 3.0f})));
  EXPECT_THAT(Apply("hlo.min", a, b),
              BitwiseEq(Tensor::FromVector<float>({5}, {kNaN, kNaN, -0.0f, -0.0f, -kInf})));
  Tensor h = Tensor::FromVector<bf16>({2}, {bf16(kNaN), bf16(2.0f)});
  Tensor k = Tensor::FromVector<bf16>({2}, {bf16(-1.0f), bf16(-3.0f)});
  EXPECT_THAT(Apply("hlo.max", h, k),
              BitwiseEq(Tensor::FromVector<bf16>({2}, {bf16(kNaN), bf16(2.0f)})));
  Tensor i = Tensor::FromVector<int64_t>({2}, {-5, 9});
  Tensor j = Tensor::FromVector<int64_t>({2}, {3, -9});
  EXPECT_THAT(Apply("hlo.max", i, j), BitwiseEq(Tensor::FromVector<int64_t>({2}, {3, 9})));
  EXPECT_THAT(Apply("hlo.min", i, j), BitwiseEq(Tensor::FromVector<int64_t>({2}, {-5, -9})));
}

TEST_F(BinaryKernelsTest, IntegerPow) {
  Tensor base = Tensor::FromVector<int32_t>({9}, {2, 3, 1, -1, -1, 5, 0, 2, -2});
  Tensor exponent = Tensor::FromVector<int32_t>({9}, {10, 3, -5, -3, -4, -1, 0, 31, 3});
  // Negative exponents give 0 except for bases 1 and -1; 2^31 wraps to INT_MIN.
  EXPECT_THAT(Apply("hlo.pow", base, exponent),
              BitwiseEq(Tensor::FromVector<int32_t>({9}, {1024, 27, 1, -1, 1, 0, 1, kIntMin, -8})));
  // 2^8 wraps to 0 in u8.
  Tensor u = Tensor::FromVector<uint8_t>({2}, {2, 3});
  EXPECT_THAT(Apply("hlo.pow", u, Tensor::FromVector<uint8_t>({2}, {8, 5})),
              BitwiseEq(Tensor::FromVector<uint8_t>({2}, {0, 243})));
}

TEST_F(BinaryKernelsTest, FloatPowAndAtan2) {
  Tensor p = Apply("hlo.pow", Tensor::FromVector<float>({3}, {4.0f, -8.0f, 0.0f}),
                   Tensor::FromVector<float>({3}, {0.5f, 1.0f / 3, -1.0f}));
  EXPECT_EQ(p.data<float>()[0], 2.0f);
  EXPECT_TRUE(std::isnan(p.data<float>()[1]));  // negative base, fractional exponent
  EXPECT_EQ(p.data<float>()[2], kInf);
  Tensor y = Tensor::FromVector<double>({3}, {1.0, 0.0, -0.0});
  Tensor x = Tensor::FromVector<double>({3}, {-1.0, -0.0, 0.0});
  // atan2(1, -1) = 3π/4; atan2(+0, -0) = π; atan2(-0, +0) = -0.
  EXPECT_THAT(Apply("hlo.atan2", y, x),
              BitwiseEq(Tensor::FromVector<double>({3}, {3 * M_PI / 4, M_PI, -0.0})));
}

TEST_F(BinaryKernelsTest, LogicOps) {
  Tensor a = Tensor::FromVector<bool>({4}, {false, false, true, true});
  Tensor b = Tensor::FromVector<bool>({4}, {false, true, false, true});
  EXPECT_THAT(Apply("hlo.and", a, b),
              BitwiseEq(Tensor::FromVector<bool>({4}, {false, false, false, true})));
  EXPECT_THAT(Apply("hlo.or", a, b),
              BitwiseEq(Tensor::FromVector<bool>({4}, {false, true, true, true})));
  EXPECT_THAT(Apply("hlo.xor", a, b),
              BitwiseEq(Tensor::FromVector<bool>({4}, {false, true, true, false})));
  Tensor i = Tensor::FromVector<uint16_t>({1}, {0xF0F0});
  Tensor j = Tensor::FromVector<uint16_t>({1}, {0xFF00});
  EXPECT_THAT(Apply("hlo.and", i, j), BitwiseEq(Tensor::FromVector<uint16_t>({1}, {0xF000})));
  EXPECT_THAT(Apply("hlo.or", i, j), BitwiseEq(Tensor::FromVector<uint16_t>({1}, {0xFFF0})));
  EXPECT_THAT(Apply("hlo.xor", i, j), BitwiseEq(Tensor::FromVector<uint16_t>({1}, {0x0FF0})));
}

TEST_F(BinaryKernelsTest, ShiftsByTheBitWidthOrMore) {
  // A negative amount reads as a huge unsigned one.
  Tensor a = Tensor::FromVector<int32_t>({4}, {1, 1, 1, -1});
  Tensor n = Tensor::FromVector<int32_t>({4}, {31, 32, -1, 4});
  EXPECT_THAT(Apply("hlo.shift_left", a, n),
              BitwiseEq(Tensor::FromVector<int32_t>({4}, {kIntMin, 0, 0, -16})));
  Tensor b = Tensor::FromVector<int32_t>({4}, {-1, -1, 16, -16});
  Tensor m = Tensor::FromVector<int32_t>({4}, {28, 32, 2, 40});
  EXPECT_THAT(Apply("hlo.shift_right_logical", b, m),
              BitwiseEq(Tensor::FromVector<int32_t>({4}, {15, 0, 4, 0})));
  EXPECT_THAT(Apply("hlo.shift_right_arithmetic", b, m),
              BitwiseEq(Tensor::FromVector<int32_t>({4}, {-1, -1, 4, -1})));
  EXPECT_THAT(Apply("hlo.shift_right_arithmetic", Tensor::FromVector<int32_t>({2}, {16, -16}),
                    Tensor::FromVector<int32_t>({2}, {40, 2})),
              BitwiseEq(Tensor::FromVector<int32_t>({2}, {0, -4})));
  // Arithmetic shifts of unsigned types fill with the top bit too.
  Tensor u = Tensor::FromVector<uint8_t>({3}, {0x80, 0x80, 0x40});
  Tensor k = Tensor::FromVector<uint8_t>({3}, {1, 8, 1});
  EXPECT_THAT(Apply("hlo.shift_right_arithmetic", u, k),
              BitwiseEq(Tensor::FromVector<uint8_t>({3}, {0xC0, 0xFF, 0x20})));
  EXPECT_THAT(Apply("hlo.shift_left", u, k),
              BitwiseEq(Tensor::FromVector<uint8_t>({3}, {0x00, 0x00, 0x80})));
}

TEST_F(BinaryKernelsTest, HalfFloatArithmeticRoundsOnceToNearestEven) {
  // f16 values near 2048 are 2 apart: 2048 + 1 ties to the even 2048, 2048 + 3 goes to 2052.
  Tensor a = Tensor::FromVector<f16>({2}, {f16(2048.0f), f16(2048.0f)});
  Tensor b = Tensor::FromVector<f16>({2}, {f16(1.0f), f16(3.0f)});
  EXPECT_THAT(Apply("hlo.add", a, b),
              BitwiseEq(Tensor::FromVector<f16>({2}, {f16(2048.0f), f16(2052.0f)})));
  // bf16 1/3 is 0.333984375 (8 significant bits).
  Tensor one = Tensor::FromVector<bf16>({1}, {bf16(1.0f)});
  Tensor three = Tensor::FromVector<bf16>({1}, {bf16(3.0f)});
  EXPECT_THAT(Apply("hlo.div", one, three),
              BitwiseEq(Tensor::FromVector<bf16>({1}, {bf16(0.333984375f)})));
}

TEST_F(BinaryKernelsTest, RankZeroAndEmpty) {
  EXPECT_THAT(Apply("hlo.sub", Tensor::Scalar<int16_t>(3), Tensor::Scalar<int16_t>(5)),
              BitwiseEq(Tensor::Scalar<int16_t>(-2)));
  Tensor empty = Tensor::Zeros(ElementType::kU64, {2, 0});
  EXPECT_THAT(Apply("hlo.div", empty, empty), BitwiseEq(empty));
}

}  // namespace
}  // namespace tessel::runtime

namespace tessel::runtime {
namespace {

class ComplexKernelsTest : public KernelTest {
 protected:
  Tensor Apply(absl::string_view op, const Tensor& a, const Tensor& b) {
    return RunOne(BinaryProgram(op, a, b), {a, b});
  }
};

// Small integers in each part keep every result exact, so the comparison is bitwise.
TEST_F(ComplexKernelsTest, ArithmeticIsComplexArithmetic) {
  Tensor a = Tensor::FromVector<c64>({2}, {c64(1, 2), c64(-3, 0.5f)});
  Tensor b = Tensor::FromVector<c64>({2}, {c64(3, -1), c64(2, 4)});
  EXPECT_THAT(Apply("hlo.add", a, b),
              BitwiseEq(Tensor::FromVector<c64>({2}, {c64(4, 1), c64(-1, 4.5f)})));
  EXPECT_THAT(Apply("hlo.sub", a, b),
              BitwiseEq(Tensor::FromVector<c64>({2}, {c64(-2, 3), c64(-5, -3.5f)})));
  // (1 + 2i)(3 - i) = 3 - i + 6i + 2 = 5 + 5i; (-3 + 0.5i)(2 + 4i) = -6 - 12i + i - 2.
  EXPECT_THAT(Apply("hlo.mul", a, b),
              BitwiseEq(Tensor::FromVector<c64>({2}, {c64(5, 5), c64(-8, -11)})));
  Tensor z = Tensor::FromVector<c128>({1}, {c128(0.25, -1e300)});
  EXPECT_THAT(RunOne(UnaryProgram("hlo.neg", z), {z}),
              BitwiseEq(Tensor::FromVector<c128>({1}, {c128(-0.25, 1e300)})));
}

TEST_F(ComplexKernelsTest, ComplexRealAndImagBuildAndSplit) {
  Tensor re = Tensor::FromVector<float>({2}, {1.5f, -0.0f});
  Tensor im = Tensor::FromVector<float>({2}, {-2.0f, 7.0f});
  constexpr absl::string_view kProgram = R"(
func.func @main(%re: tensor<2xf32>, %im: tensor<2xf32>) -> (tensor<2xcomplex<f32>>, tensor<2xf32>, tensor<2xf32>) {
  %z = hlo.complex %re, %im : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xcomplex<f32>>
  %r = hlo.real %z : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
  %i = hlo.imag %z : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
  return %z, %r, %i : tensor<2xcomplex<f32>>, tensor<2xf32>, tensor<2xf32>
})";
  absl::StatusOr<std::vector<Tensor>> results = Run(kProgram, {re, im});
  ASSERT_TRUE(results.ok()) << results.status();
  ASSERT_EQ(results->size(), 3u);
  EXPECT_THAT((*results)[0],
              BitwiseEq(Tensor::FromVector<c64>({2}, {c64(1.5f, -2.0f), c64(-0.0f, 7.0f)})));
  EXPECT_THAT((*results)[1], BitwiseEq(re));
  EXPECT_THAT((*results)[2], BitwiseEq(im));
}

TEST_F(ComplexKernelsTest, MaxOfComplexIsRefusedByTheVerifier) {
  Tensor a = Tensor::FromVector<c64>({1}, {c64(1, 2)});
  EXPECT_FALSE(Run(BinaryProgram("hlo.max", a, a), {a, a}).ok());
}

}  // namespace
}  // namespace tessel::runtime
