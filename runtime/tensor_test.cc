// Tests of host tensors and element types.
#include "runtime/tensor.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "gmock/gmock.h"
#include "mlir/IR/BuiltinTypes.h"
#include "gtest/gtest.h"
#include "support/status_matchers.h"

namespace tessel::runtime {
namespace {

using ::tessel::testing::StatusIs;

TEST(TensorTest, FromVectorKeepsRowMajorOrder) {
  Tensor x = Tensor::FromVector<int32_t>({2, 3}, {1, 2, 3, 4, 5, 6});
  EXPECT_EQ(x.type(), ElementType::kS32);
  EXPECT_EQ(x.num_elements(), 6);
  EXPECT_EQ(x.byte_size(), 24);
  EXPECT_EQ(x.data<int32_t>()[4], 5);
  EXPECT_EQ(x.ToString(), "s32[2,3] {{1, 2, 3}, {4, 5, 6}}");
}

TEST(TensorTest, ScalarsAndEmptyTensorsPrint) {
  EXPECT_EQ(Tensor::Scalar<bool>(true).ToString(), "pred[] true");
  EXPECT_EQ(Tensor::Zeros(ElementType::kF32, {0, 3}).ToString(), "f32[0,3] {}");
}

TEST(TensorTest, ZerosAreZeroBits) {
  Tensor x = Tensor::Zeros(ElementType::kBF16, {3});
  for (bf16 value : x.data<bf16>()) EXPECT_EQ(static_cast<float>(value), 0.0f);
}

TEST(TensorTest, CopiesAreDeepAndMovesLeaveAValidTensor) {
  Tensor a = Tensor::FromVector<int32_t>({2}, {1, 2});
  Tensor copy = a;
  copy.data<int32_t>()[0] = 7;
  EXPECT_EQ(a.ToVector<int32_t>(), (std::vector<int32_t>{1, 2}));
  Tensor assigned;
  assigned = copy;
  EXPECT_EQ(assigned.ToVector<int32_t>(), (std::vector<int32_t>{7, 2}));
  Tensor moved = std::move(copy);
  EXPECT_EQ(moved.ToVector<int32_t>(), (std::vector<int32_t>{7, 2}));
  assigned = std::move(moved);
  EXPECT_EQ(assigned.ToVector<int32_t>(), (std::vector<int32_t>{7, 2}));
}

TEST(TensorTest, UninitializedTensorsHaveTheirShapeAndAlignedStorage) {
  // 8 MiB: large enough to take the huge-page path of the allocator.
  Tensor x = Tensor::Uninitialized(ElementType::kF32, {2048, 1024});
  EXPECT_EQ(x.byte_size(), 8 << 20);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(x.bytes().data()) % 64, 0u);
  for (float& value : x.data<float>()) value = 1.0f;
  Tensor copy = x;
  EXPECT_TRUE(copy.BitwiseEquals(x));
  EXPECT_EQ(Tensor::Uninitialized(ElementType::kS8, {0}).byte_size(), 0);
}

TEST(TensorTest, RecycledLargeBuffersAreClearedForZeros) {
  // A freed large buffer is cached and handed to the next tensor of its size; Zeros must
  // still clear it.
  const Shape shape = {4096, 1024};  // 16 MiB of f32
  {
    Tensor ones = Tensor::Uninitialized(ElementType::kF32, shape);
    for (float& value : ones.data<float>()) value = 1.0f;
  }
  Tensor zeros = Tensor::Zeros(ElementType::kF32, shape);
  for (float value : zeros.data<float>()) ASSERT_EQ(value, 0.0f);
}

TEST(TensorTest, BitwiseEqualsTreatsIdenticalNaNsAsEqual) {
  float nan = std::numeric_limits<float>::quiet_NaN();
  Tensor a = Tensor::FromVector<float>({2}, {nan, 1.0f});
  Tensor b = Tensor::FromVector<float>({2}, {nan, 1.0f});
  Tensor c = Tensor::FromVector<float>({2}, {nan, 2.0f});
  EXPECT_TRUE(a.BitwiseEquals(b));
  EXPECT_FALSE(a.BitwiseEquals(c));
  EXPECT_FALSE(a.BitwiseEquals(Tensor::FromVector<float>({1, 2}, {nan, 1.0f})));
}

TEST(ElementTypeTest, HalfTypesRoundToNearestEven) {
  // 1 + 2^-8 lies exactly halfway between the bf16 neighbours 1 and 1 + 2^-7: ties go to
  // the even mantissa, 1.
  EXPECT_EQ(static_cast<float>(bf16(1.0f + std::ldexp(1.0f, -8))), 1.0f);
  // 1 + 3 * 2^-8 lies halfway between 1 + 2^-7 and 1 + 2^-6: the even one is 1 + 2^-6.
  EXPECT_EQ(static_cast<float>(bf16(1.0f + 3 * std::ldexp(1.0f, -8))), 1.0f + std::ldexp(1.0f, -6));
  // f16 has a 10-bit mantissa: 1 + 2^-11 ties to 1.
  EXPECT_EQ(static_cast<float>(f16(1.0f + std::ldexp(1.0f, -11))), 1.0f);
}

// The memory limit is process-wide: each test sets it and restores it.
class MemoryLimitTest : public ::testing::Test {
 protected:
  ~MemoryLimitTest() override { SetMemoryLimit(previous_); }
  int64_t previous_ = MemoryLimit();
};

TEST_F(MemoryLimitTest, ATensorBeyondTheLimitIsRefusedWithItsShapeAndBytes) {
  SetMemoryLimit(1 << 20);
  try {
    Tensor::Zeros(ElementType::kF32, {1024, 1024});
    FAIL() << "a 4 MiB tensor fit in a 1 MiB limit";
  } catch (const TensorAllocationError& error) {
    EXPECT_THAT(error.what(), ::testing::HasSubstr(
                                  "out of memory: f32[1024,1024] needs 4194304 bytes (4 MiB), "
                                  "beyond max_memory = 1048576 bytes (1 MiB)"));
  }
  // Below the limit all is as before.
  Tensor small = Tensor::Zeros(ElementType::kF32, {16, 16});
  EXPECT_EQ(small.byte_size(), 1024);
}

TEST_F(MemoryLimitTest, LiveTensorsCountTowardsTheLimitUntilTheyGo) {
  const int64_t base = TensorBytesInUse();
  SetMemoryLimit(base + 3000);
  {
    Tensor a = Tensor::Zeros(ElementType::kU8, {2000});
    EXPECT_EQ(TensorBytesInUse(), base + 2000);
    // A second tensor, or a copy, of 2000 bytes would make 4000.
    EXPECT_THROW(Tensor::Uninitialized(ElementType::kU8, {2000}), TensorAllocationError);
    try {
      Tensor copy = a;
      FAIL() << "the copy fit";
    } catch (const TensorAllocationError& error) {
      EXPECT_THAT(error.what(), ::testing::HasSubstr("a copy of u8[2000] needs 2000 bytes"));
    }
    Tensor moved = std::move(a);
    EXPECT_EQ(TensorBytesInUse(), base + 2000);
  }
  EXPECT_EQ(TensorBytesInUse(), base);
  Tensor again = Tensor::Zeros(ElementType::kU8, {2000});
  EXPECT_EQ(again.byte_size(), 2000);
}

TEST_F(MemoryLimitTest, ASizeThatOverflowsIsRefusedWithoutALimit) {
  SetMemoryLimit(0);
  EXPECT_THROW(Tensor::Zeros(ElementType::kF32, {int64_t{1} << 32, int64_t{1} << 32}),
               TensorAllocationError);
  try {
    Tensor::Zeros(ElementType::kF64, {int64_t{1} << 61});
  } catch (const TensorAllocationError& error) {
    EXPECT_THAT(error.what(), ::testing::HasSubstr("f64[2305843009213693952] needs more than "
                                                   "2^63 - 1 bytes"));
  }
}

// A zero dimension empties a tensor even when the other dimensions' product would overflow
// (found by the .npy fuzz target: such a file used to throw instead of reading as empty).
TEST_F(MemoryLimitTest, AZeroDimensionEmptiesATensorWhoseOtherDimensionsOverflow) {
  SetMemoryLimit(0);
  const Shape shape = {int64_t{1} << 32, int64_t{1} << 32, 0};
  EXPECT_EQ(NumElements(shape), 0);
  Tensor empty = Tensor::Zeros(ElementType::kF32, shape);
  EXPECT_EQ(empty.num_elements(), 0);
  EXPECT_TRUE(empty.bytes().empty());
}

TEST(ElementTypeTest, NamesRoundTrip) {
  for (ElementType type : {ElementType::kPred, ElementType::kS8, ElementType::kU16,
                           ElementType::kBF16, ElementType::kF64}) {
    absl::StatusOr<ElementType> parsed = ParseElementType(ElementTypeName(type));
    ASSERT_TRUE(parsed.ok());
    EXPECT_EQ(*parsed, type);
  }
  EXPECT_THAT(ParseElementType("f8"), StatusIs(absl::StatusCode::kInvalidArgument, "f8"));
}

TEST(ElementTypeTest, MapsToAndFromMlirTypes) {
  mlir::MLIRContext context;
  for (ElementType type : {ElementType::kPred, ElementType::kS32, ElementType::kU8,
                           ElementType::kF16, ElementType::kBF16}) {
    absl::StatusOr<ElementType> back = ElementTypeFromMlir(ElementTypeToMlir(type, &context));
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(*back, type);
  }
  EXPECT_THAT(ElementTypeFromMlir(mlir::IntegerType::get(&context, 7)),
              StatusIs(absl::StatusCode::kInvalidArgument, "i7"));
}

}  // namespace
}  // namespace tessel::runtime
