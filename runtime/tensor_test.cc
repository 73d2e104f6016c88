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
