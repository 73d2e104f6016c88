// The API's ElementType against the runtime's list: the same names and sizes for every
// enumerator, casts that round-trip, and ElementTypeOf for the C++ types HostTensor takes.
#include "partitioner/api/element_type.h"

#include <complex>
#include <cstdint>

#include "gtest/gtest.h"
#include "partitioner/api/element_type_conversion.h"
#include "partitioner/api/host_tensor.h"

namespace tessel {
namespace {

TEST(ElementTypeTest, NamesAndSizesAreTheRuntimes) {
  for (ElementType type : kAllElementTypes) {
    runtime::ElementType rt = ToRuntime(type);
    EXPECT_EQ(ElementTypeName(type), runtime::ElementTypeName(rt));
    EXPECT_EQ(ElementTypeSize(type), runtime::ElementTypeSize(rt));
    EXPECT_EQ(FromRuntime(rt), type);
  }
}

TEST(ElementTypeTest, SpellsTypesAsXlaDoes) {
  EXPECT_EQ(ElementTypeName(ElementType::kPred), "pred");
  EXPECT_EQ(ElementTypeName(ElementType::kBF16), "bf16");
  EXPECT_EQ(ElementTypeName(ElementType::kC128), "c128");
  // pred takes a byte; c64 is two f32.
  EXPECT_EQ(ElementTypeSize(ElementType::kPred), 1);
  EXPECT_EQ(ElementTypeSize(ElementType::kC64), 8);
}

TEST(ElementTypeTest, MapsCppTypes) {
  static_assert(ElementTypeOf<bool>() == ElementType::kPred);
  static_assert(ElementTypeOf<uint16_t>() == ElementType::kU16);
  static_assert(ElementTypeOf<double>() == ElementType::kF64);
  static_assert(ElementTypeOf<std::complex<float>>() == ElementType::kC64);
  // Eigen's types, from the library's conversion header.
  static_assert(ElementTypeOf<Eigen::bfloat16>() == ElementType::kBF16);
  static_assert(ElementTypeOf<Eigen::half>() == ElementType::kF16);
}

TEST(ElementTypeTest, HostTensorsOfEigenTypesHaveTheirElementType) {
  absl::StatusOr<HostTensor> halves =
      HostTensor::FromVector<Eigen::half>({2}, {Eigen::half(1.5f), Eigen::half(-2.0f)});
  ASSERT_TRUE(halves.ok()) << halves.status();
  EXPECT_EQ(halves->element_type(), ElementType::kF16);
  ASSERT_EQ(halves->data<Eigen::half>().size(), 2u);
  EXPECT_EQ(static_cast<float>(halves->data<Eigen::half>()[1]), -2.0f);
  // A view of another type is empty rather than a reinterpretation.
  EXPECT_TRUE(halves->data<float>().empty());
}

}  // namespace
}  // namespace tessel
