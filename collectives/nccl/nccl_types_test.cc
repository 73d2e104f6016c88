// Tests of the type and reduction mapping onto NCCL, including the exactness of the 32-bit
// widening that s16 and u16 reductions go through. No GPU needed.
#include "collectives/nccl/nccl_types.h"

#include <cstdint>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"

namespace tessel::collectives::nccl {
namespace {

TEST(NcclTypesTest, NativeTypesMapOneToOne) {
  EXPECT_EQ(ReductionNcclType(DataType::kS8), ncclInt8);
  EXPECT_EQ(ReductionNcclType(DataType::kU8), ncclUint8);
  EXPECT_EQ(ReductionNcclType(DataType::kS32), ncclInt32);
  EXPECT_EQ(ReductionNcclType(DataType::kU32), ncclUint32);
  EXPECT_EQ(ReductionNcclType(DataType::kS64), ncclInt64);
  EXPECT_EQ(ReductionNcclType(DataType::kU64), ncclUint64);
  EXPECT_EQ(ReductionNcclType(DataType::kF16), ncclFloat16);
  EXPECT_EQ(ReductionNcclType(DataType::kBF16), ncclBfloat16);
  EXPECT_EQ(ReductionNcclType(DataType::kF32), ncclFloat32);
  EXPECT_EQ(ReductionNcclType(DataType::kF64), ncclFloat64);
  for (DataType type : kAllDataTypes) {
    SCOPED_TRACE(DataTypeName(type));
    if (ReductionWidens(type)) {
      EXPECT_EQ(ReductionElementSize(type), 4);
    } else {
      EXPECT_EQ(ReductionElementSize(type), DataTypeSize(type));
    }
  }
}

// NCCL has no complex type: a complex sum is two sums of parts, a product is refused.
TEST(NcclTypesTest, ComplexSumsRunAsPairsOfFloats) {
  EXPECT_EQ(ReductionNcclType(DataType::kC64), ncclFloat32);
  EXPECT_EQ(ReductionNcclType(DataType::kC128), ncclFloat64);
  EXPECT_EQ(ReductionValuesPerElement(DataType::kC64), 2);
  EXPECT_EQ(ReductionValuesPerElement(DataType::kF32), 1);
  EXPECT_EQ(ReductionElementSize(DataType::kC128), 8);
  EXPECT_TRUE(ValidateNcclReduction(DataType::kC64, ReductionKind::kSum).ok());
  EXPECT_EQ(ValidateNcclReduction(DataType::kC64, ReductionKind::kProd).code(),
            absl::StatusCode::kUnimplemented);
  EXPECT_EQ(ValidateNcclReduction(DataType::kC128, ReductionKind::kMax).code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(NcclTypesTest, PredReducesAsOrAndAnd) {
  EXPECT_EQ(ReductionNcclType(DataType::kPred), ncclUint8);
  EXPECT_EQ(ReductionNcclOp(DataType::kPred, ReductionKind::kSum), ncclMax);
  EXPECT_EQ(ReductionNcclOp(DataType::kPred, ReductionKind::kMax), ncclMax);
  EXPECT_EQ(ReductionNcclOp(DataType::kPred, ReductionKind::kProd), ncclMin);
  EXPECT_EQ(ReductionNcclOp(DataType::kPred, ReductionKind::kMin), ncclMin);
  EXPECT_EQ(ReductionNcclOp(DataType::kF32, ReductionKind::kProd), ncclProd);
  EXPECT_EQ(ReductionNcclOp(DataType::kS32, ReductionKind::kSum), ncclSum);
}

// What NCCL computes on the widened values: 32-bit two's complement arithmetic.
template <typename Wide>
Wide Combine32(ReductionKind kind, Wide a, Wide b) {
  using U = uint32_t;
  switch (kind) {
    case ReductionKind::kSum:
      return static_cast<Wide>(static_cast<U>(a) + static_cast<U>(b));
    case ReductionKind::kProd:
      return static_cast<Wide>(static_cast<U>(a) * static_cast<U>(b));
    case ReductionKind::kMax:
      return a > b ? a : b;
    case ReductionKind::kMin:
      return a < b ? a : b;
  }
  return a;
}

template <typename Narrow16, typename Wide>
void CheckWideningIsExact(DataType type) {
  // Values that overflow 16 bits when summed or multiplied, of both signs where signed.
  const std::vector<Narrow16> a = {static_cast<Narrow16>(30000), static_cast<Narrow16>(-30000),
                                   static_cast<Narrow16>(255), static_cast<Narrow16>(-1),
                                   static_cast<Narrow16>(12345)};
  const std::vector<Narrow16> b = {static_cast<Narrow16>(30000), static_cast<Narrow16>(7),
                                   static_cast<Narrow16>(300), static_cast<Narrow16>(-1),
                                   static_cast<Narrow16>(-2)};
  const int64_t n = static_cast<int64_t>(a.size());
  for (ReductionKind kind :
       {ReductionKind::kSum, ReductionKind::kProd, ReductionKind::kMax, ReductionKind::kMin}) {
    SCOPED_TRACE(absl::StrCat(DataTypeName(type), " ", ReductionKindName(kind)));
    std::vector<Wide> wide_a(n), wide_b(n), wide_result(n);
    Widen(type, a.data(), wide_a.data(), n);
    Widen(type, b.data(), wide_b.data(), n);
    for (int64_t i = 0; i < n; ++i) wide_result[i] = Combine32(kind, wide_a[i], wide_b[i]);
    std::vector<Narrow16> narrowed(n), expected = a;
    Narrow(type, wide_result.data(), narrowed.data(), n);
    Accumulate(type, kind, expected.data(), b.data(), n);
    EXPECT_EQ(narrowed, expected);
  }
}

TEST(NcclTypesTest, WideningSixteenBitIntegersIsExactForEveryReduction) {
  EXPECT_TRUE(ReductionWidens(DataType::kS16));
  EXPECT_TRUE(ReductionWidens(DataType::kU16));
  EXPECT_FALSE(ReductionWidens(DataType::kS32));
  EXPECT_EQ(ReductionNcclType(DataType::kS16), ncclInt32);
  EXPECT_EQ(ReductionNcclType(DataType::kU16), ncclUint32);
  CheckWideningIsExact<int16_t, int32_t>(DataType::kS16);
  CheckWideningIsExact<uint16_t, uint32_t>(DataType::kU16);
}

}  // namespace
}  // namespace tessel::collectives::nccl
