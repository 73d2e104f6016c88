// Tests of the elementwise reductions and of the argument checks every backend shares.
#include "collectives/reduction.h"

#include <cmath>
#include <complex>
#include <limits>
#include <vector>

#include "collectives/communicator.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace tessel::collectives {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

template <typename T>
std::vector<T> Reduce(ReductionKind kind, std::vector<T> acc, const std::vector<T>& src) {
  Accumulate(DataTypeOf<T>(), kind, acc.data(), src.data(), static_cast<int64_t>(acc.size()));
  return acc;
}

// std::vector<bool> is packed, so pred values go through a byte-sized buffer.
std::vector<bool> ReducePred(ReductionKind kind, std::vector<bool> a, std::vector<bool> b) {
  bool acc[4], src[4];
  for (int i = 0; i < 4; ++i) acc[i] = a[i], src[i] = b[i];
  Accumulate(DataType::kPred, kind, acc, src, 4);
  return std::vector<bool>(acc, acc + 4);
}

TEST(ReductionTest, PredSumAndMaxAreOrProdAndMinAreAnd) {
  std::vector<bool> a = {false, false, true, true}, b = {false, true, false, true};
  EXPECT_THAT(ReducePred(ReductionKind::kSum, a, b), ElementsAre(false, true, true, true));
  EXPECT_THAT(ReducePred(ReductionKind::kMax, a, b), ElementsAre(false, true, true, true));
  EXPECT_THAT(ReducePred(ReductionKind::kProd, a, b), ElementsAre(false, false, false, true));
  EXPECT_THAT(ReducePred(ReductionKind::kMin, a, b), ElementsAre(false, false, false, true));
}

TEST(ReductionTest, IntegerSumsAndProductsWrapAround) {
  // 100 + 100 = 200 wraps to -56 in s8; -128 + -1 wraps to 127.
  EXPECT_THAT(Reduce<int8_t>(ReductionKind::kSum, {100, -128}, {100, -1}), ElementsAre(-56, 127));
  // 200 * 400 = 80000 = 65536 + 14464 in u16 (no promotion to signed int on the way).
  EXPECT_THAT(Reduce<uint16_t>(ReductionKind::kProd, {200}, {400}), ElementsAre(14464));
  EXPECT_THAT(Reduce<uint64_t>(ReductionKind::kSum, {std::numeric_limits<uint64_t>::max()}, {2}),
              ElementsAre(1u));
  EXPECT_THAT(Reduce<int32_t>(ReductionKind::kProd, {1 << 30}, {4}), ElementsAre(0));
}

TEST(ReductionTest, ComplexSumsAndProductsAreComplexArithmetic) {
  using C = std::complex<float>;
  EXPECT_THAT(Reduce<C>(ReductionKind::kSum, {C(1, 2)}, {C(3, -1)}), ElementsAre(C(4, 1)));
  // (1 + 2i)(3 - i) = 5 + 5i.
  EXPECT_THAT(Reduce<C>(ReductionKind::kProd, {C(1, 2)}, {C(3, -1)}), ElementsAre(C(5, 5)));
  EXPECT_TRUE(ValidateReduction(DataType::kC128, ReductionKind::kSum).ok());
  EXPECT_EQ(ValidateReduction(DataType::kC64, ReductionKind::kMax).message(),
            "max reduction of c64: complex numbers have no order");
  EXPECT_EQ(DataTypeSize(DataType::kC128), 16);
  EXPECT_EQ(DataTypeName(DataType::kC64), "c64");
}

TEST(ReductionTest, MaxAndMinOfSignedAndUnsignedIntegers) {
  EXPECT_THAT(Reduce<int16_t>(ReductionKind::kMax, {-5, 7}, {3, -9}), ElementsAre(3, 7));
  EXPECT_THAT(Reduce<int16_t>(ReductionKind::kMin, {-5, 7}, {3, -9}), ElementsAre(-5, -9));
  EXPECT_THAT(Reduce<uint32_t>(ReductionKind::kMax, {5, 4000000000u}, {6, 1}),
              ElementsAre(6u, 4000000000u));
}

TEST(ReductionTest, FloatMaxAndMinPropagateNan) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<float> max = Reduce<float>(ReductionKind::kMax, {nan, 1, 2}, {1, nan, 3});
  EXPECT_TRUE(std::isnan(max[0]));
  EXPECT_TRUE(std::isnan(max[1]));
  EXPECT_EQ(max[2], 3);
  std::vector<float> min = Reduce<float>(ReductionKind::kMin, {nan, 1, 2}, {1, nan, 3});
  EXPECT_TRUE(std::isnan(min[0]));
  EXPECT_TRUE(std::isnan(min[1]));
  EXPECT_EQ(min[2], 2);
}

TEST(ReductionTest, HalfPrecisionSumsRoundToTheirType) {
  // 256 + 1 is not representable in bf16 (8 significant bits): it rounds to even, 256.
  std::vector<Eigen::bfloat16> sum = Reduce<Eigen::bfloat16>(
      ReductionKind::kSum, {Eigen::bfloat16(256.0f)}, {Eigen::bfloat16(1.0f)});
  EXPECT_EQ(static_cast<float>(sum[0]), 256.0f);
  std::vector<Eigen::half> product =
      Reduce<Eigen::half>(ReductionKind::kProd, {Eigen::half(1.5f)}, {Eigen::half(-2.0f)});
  EXPECT_EQ(static_cast<float>(product[0]), -3.0f);
}

TEST(ReductionTest, AccumulatesIntoItself) {
  std::vector<double> values = {1.5, -2};
  Accumulate(DataType::kF64, ReductionKind::kSum, values.data(), values.data(), 2);
  EXPECT_THAT(values, ElementsAre(3.0, -4.0));
}

TEST(ReductionTest, NamesAndSizes) {
  EXPECT_EQ(ReductionKindName(ReductionKind::kProd), "prod");
  EXPECT_EQ(DataTypeName(DataType::kBF16), "bf16");
  EXPECT_EQ(DataTypeSize(DataType::kPred), 1);
  EXPECT_EQ(DataTypeSize(DataType::kF16), 2);
  EXPECT_EQ(DataTypeSize(DataType::kU64), 8);
}

TEST(ValidationTest, GroupMustHoldDistinctInRangeIdsIncludingTheCaller) {
  EXPECT_TRUE(ValidateGroup(1, {0, 1}, 2).ok());
  EXPECT_THAT(std::string(ValidateGroup(0, {0, 4}, 4).message()),
              HasSubstr("partition 4 is out of range [0, 4)"));
  EXPECT_THAT(std::string(ValidateGroup(0, {0, 1, 0}, 4).message()),
              HasSubstr("partition 0 appears twice"));
  EXPECT_THAT(std::string(ValidateGroup(3, {0, 1}, 4).message()),
              HasSubstr("group [0, 1] does not include the caller, partition 3"));
  EXPECT_EQ(ValidateGroup(3, {}, 4).code(), absl::StatusCode::kInvalidArgument);
}

TEST(ValidationTest, PairsNameMembersWithDistinctSourcesAndTargets) {
  EXPECT_TRUE(ValidatePairs({0, 1, 2}, {{0, 1}, {1, 2}}).ok());
  EXPECT_THAT(std::string(ValidatePairs({0, 1}, {{0, 5}}).message()),
              HasSubstr("names partition 5, which is not in the group [0, 1]"));
  EXPECT_THAT(std::string(ValidatePairs({0, 1, 2}, {{0, 1}, {0, 2}}).message()),
              HasSubstr("partition 0 is the source of two pairs"));
  EXPECT_THAT(std::string(ValidatePairs({0, 1, 2}, {{0, 2}, {1, 2}}).message()),
              HasSubstr("partition 2 is the target of two pairs"));
}

TEST(ValidationTest, OutputMustMatchTypeAndCount) {
  float in[4] = {}, out[4] = {};
  int32_t ints[4] = {};
  ConstBuffer input{DataType::kF32, in, 4};
  EXPECT_TRUE(ValidateOutput(input, Buffer{DataType::kF32, out, 4}, 4).ok());
  EXPECT_THAT(std::string(ValidateOutput(input, Buffer{DataType::kS32, ints, 4}, 4).message()),
              HasSubstr("output type s32 differs from input type f32"));
  EXPECT_THAT(std::string(ValidateOutput(input, Buffer{DataType::kF32, out, 2}, 4).message()),
              HasSubstr("output has 2 elements, expected 4"));
  EXPECT_THAT(std::string(ValidateDivisible("input", 7, 2).message()),
              HasSubstr("input has 7 elements, which is not divisible by the group size 2"));
}

}  // namespace
}  // namespace tessel::collectives
