// Tests of hlo.constant and hlo.iota.
#include <cstdint>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "runtime/kernel_test_util.h"

namespace tessel::runtime {
namespace {

class CreationKernelsTest : public KernelTest {
 protected:
  Tensor Iota(absl::string_view type, int64_t dim) {
    return RunOne(absl::StrCat("func.func @main() -> ", type, " {\n  %0 = hlo.iota dim = ", dim,
                               " : ", type, "\n  return %0 : ", type, "\n}"),
                  {});
  }
};

TEST_F(CreationKernelsTest, IotaCountsAlongItsDimension) {
  EXPECT_THAT(Iota("tensor<2x3xi32>", 1),
              BitwiseEq(Tensor::FromVector<int32_t>({2, 3}, {0, 1, 2, 0, 1, 2})));
  EXPECT_THAT(Iota("tensor<2x3xi32>", 0),
              BitwiseEq(Tensor::FromVector<int32_t>({2, 3}, {0, 0, 0, 1, 1, 1})));
  EXPECT_THAT(Iota("tensor<2x2x2xf32>", 1),
              BitwiseEq(Tensor::FromVector<float>({2, 2, 2}, {0, 0, 1, 1, 0, 0, 1, 1})));
  EXPECT_THAT(Iota("tensor<3xui64>", 0), BitwiseEq(Tensor::FromVector<uint64_t>({3}, {0, 1, 2})));
}

TEST_F(CreationKernelsTest, IotaConvertsLikeConvert) {
  // Index 300 wraps to 44 in u8. bf16 has 8 significant bits: 255 is exact, 257 ties to
  // the even 256 and 259 to the even 260.
  Tensor u = Iota("tensor<301xui8>", 0);
  EXPECT_EQ(u.data<uint8_t>()[300], 44);
  Tensor b = Iota("tensor<260xbf16>", 0);
  EXPECT_EQ(static_cast<float>(b.data<bf16>()[255]), 255.0f);
  EXPECT_EQ(static_cast<float>(b.data<bf16>()[257]), 256.0f);
  EXPECT_EQ(static_cast<float>(b.data<bf16>()[259]), 260.0f);
  Tensor h = Iota("tensor<4xf16>", 0);
  EXPECT_THAT(
      h, BitwiseEq(Tensor::FromVector<f16>({4}, {f16(0.0f), f16(1.0f), f16(2.0f), f16(3.0f)})));
}

TEST_F(CreationKernelsTest, IotaWithAZeroSizedDimension) {
  EXPECT_THAT(Iota("tensor<0x3xi16>", 1), BitwiseEq(Tensor::Zeros(ElementType::kS16, {0, 3})));
}

TEST_F(CreationKernelsTest, ConstantsDenseAndSplat) {
  Tensor dense = RunOne(R"(
    func.func @main() -> tensor<2x2xi8> {
      %0 = hlo.constant dense<[[1, -2], [3, -4]]> : tensor<2x2xi8>
      return %0 : tensor<2x2xi8>
    })",
                        {});
  EXPECT_THAT(dense, BitwiseEq(Tensor::FromVector<int8_t>({2, 2}, {1, -2, 3, -4})));
  Tensor splat = RunOne(R"(
    func.func @main() -> tensor<3xbf16> {
      %0 = hlo.constant dense<1.5> : tensor<3xbf16>
      return %0 : tensor<3xbf16>
    })",
                        {});
  EXPECT_THAT(splat,
              BitwiseEq(Tensor::FromVector<bf16>({3}, {bf16(1.5f), bf16(1.5f), bf16(1.5f)})));
  Tensor scalar = RunOne(R"(
    func.func @main() -> tensor<i1> {
      %0 = hlo.constant dense<true> : tensor<i1>
      return %0 : tensor<i1>
    })",
                         {});
  EXPECT_THAT(scalar, BitwiseEq(Tensor::Scalar<bool>(true)));
}

}  // namespace
}  // namespace tessel::runtime
