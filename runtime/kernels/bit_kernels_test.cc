// Tests of the bit-level kernels (popcnt, count_leading_zeros, reduce_precision,
// bitcast_convert) against hand-computed values.
#include <cstdint>
#include <limits>
#include <string>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "runtime/kernel_test_util.h"

namespace tessel::runtime {
namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

class BitKernelsTest : public KernelTest {
 protected:
  Tensor Apply(absl::string_view op, const Tensor& x) { return RunOne(UnaryProgram(op, x), {x}); }

  Tensor ReducePrecision(const Tensor& x, int exponent, int mantissa) {
    const std::string type = MlirTensorType(x);
    return RunOne(absl::StrCat("func.func @main(%x: ", type, ") -> ", type,
                               " {\n  %0 = hlo.reduce_precision %x {exponent_bits = ", exponent,
                               " : i32, mantissa_bits = ", mantissa, " : i32} : ", type,
                               "\n  return %0 : ", type, "\n}\n"),
                  {x});
  }

  Tensor Bitcast(const Tensor& x, ElementType to, const Shape& shape) {
    const std::string from = MlirTensorType(x), result = MlirTensorType(to, shape);
    return RunOne(absl::StrCat("func.func @main(%x: ", from, ") -> ", result,
                               " {\n  %0 = hlo.bitcast_convert %x : (", from, ") -> ", result,
                               "\n  return %0 : ", result, "\n}\n"),
                  {x});
  }
};

TEST_F(BitKernelsTest, PopcntCountsTheTwosComplementBits) {
  Tensor x = Tensor::FromVector<int32_t>({5}, {0, 1, -1, 0x7fffffff, 0x00f0f000});
  EXPECT_THAT(Apply("hlo.popcnt", x), BitwiseEq(Tensor::FromVector<int32_t>({5}, {0, 1, 32, 31, 8})));
  Tensor b = Tensor::FromVector<int8_t>({2}, {-128, -1});
  EXPECT_THAT(Apply("hlo.popcnt", b), BitwiseEq(Tensor::FromVector<int8_t>({2}, {1, 8})));
  Tensor u = Tensor::FromVector<uint64_t>({1}, {~uint64_t{0}});
  EXPECT_THAT(Apply("hlo.popcnt", u), BitwiseEq(Tensor::FromVector<uint64_t>({1}, {64})));
}

TEST_F(BitKernelsTest, CountLeadingZerosOfZeroIsTheWidth) {
  Tensor x = Tensor::FromVector<int32_t>({5}, {0, 1, -1, 0x7fffffff, 0x00f0f000});
  EXPECT_THAT(Apply("hlo.count_leading_zeros", x),
              BitwiseEq(Tensor::FromVector<int32_t>({5}, {32, 31, 0, 1, 8})));
  Tensor s = Tensor::FromVector<uint16_t>({3}, {0, 1, 0x8000});
  EXPECT_THAT(Apply("hlo.count_leading_zeros", s),
              BitwiseEq(Tensor::FromVector<uint16_t>({3}, {16, 15, 0})));
}

TEST_F(BitKernelsTest, ReducePrecisionToHalfMatchesAConversionThroughF16) {
  // With f16's field widths the result is the f32 value of the nearest f16, except that
  // f16 subnormals flush to zero (the reduced format has none).
  const float values[] = {1.0f, 3.14159265f, 1.0f + 1.0f / 4096, 65504.0f, 65520.0f,
                          -70000.0f, 1e-3f, -2.5e-8f, 0.0f, -0.0f};
  std::vector<float> in(std::begin(values), std::end(values)), expected;
  for (float v : in) {
    float h = static_cast<float>(f16(v));
    if (std::fabs(h) < 6.103515625e-05f) h = std::copysign(0.0f, v);  // below f16's min normal
    expected.push_back(h);
  }
  const int64_t n = static_cast<int64_t>(in.size());
  EXPECT_THAT(ReducePrecision(Tensor::FromVector<float>({n}, in), 5, 10),
              BitwiseEq(Tensor::FromVector<float>({n}, expected)));
}

TEST_F(BitKernelsTest, ReducePrecisionKeepsInfinityAndNaN) {
  Tensor x = Tensor::FromVector<float>({4}, {kInf, -kInf, kNaN, 1.75f});
  Tensor r = ReducePrecision(x, 8, 7);  // bf16's widths: 1.75 is exact
  EXPECT_EQ(r.data<float>()[0], kInf);
  EXPECT_EQ(r.data<float>()[1], -kInf);
  EXPECT_TRUE(std::isnan(r.data<float>()[2]));
  EXPECT_EQ(r.data<float>()[3], 1.75f);
  // With no mantissa bits 1.75 rounds up to 2 and NaN has nowhere to live: infinity.
  Tensor z = ReducePrecision(x, 8, 0);
  EXPECT_EQ(z.data<float>()[2], kInf);
  EXPECT_EQ(z.data<float>()[3], 2.0f);
  // Ties go to even: 1.25 and 1.75 with one mantissa bit.
  Tensor ties = ReducePrecision(Tensor::FromVector<double>({2}, {1.25, 1.75}), 11, 1);
  EXPECT_THAT(ties, BitwiseEq(Tensor::FromVector<double>({2}, {1.0, 2.0})));
}

TEST_F(BitKernelsTest, BitcastConvertReinterpretsBytes) {
  Tensor x = Tensor::FromVector<float>({2}, {1.0f, -2.0f});
  EXPECT_THAT(Bitcast(x, ElementType::kU32, {2}),
              BitwiseEq(Tensor::FromVector<uint32_t>({2}, {0x3f800000u, 0xc0000000u})));
  // Least significant byte first along the new minor dimension.
  EXPECT_THAT(Bitcast(x, ElementType::kU8, {2, 4}),
              BitwiseEq(Tensor::FromVector<uint8_t>({2, 4}, {0, 0, 0x80, 0x3f, 0, 0, 0, 0xc0})));
  Tensor halves = Tensor::FromVector<uint16_t>({1, 2}, {0x0000, 0x3f80});
  EXPECT_THAT(Bitcast(halves, ElementType::kF32, {1}),
              BitwiseEq(Tensor::FromVector<float>({1}, {1.0f})));
}

}  // namespace
}  // namespace tessel::runtime
