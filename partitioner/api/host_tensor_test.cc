// Tests of HostTensor: construction, typed views, copies and moves, and input errors.
#include "partitioner/api/host_tensor.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "support/status_matchers.h"

namespace tessel {
namespace {

using ::tessel::testing::IsOk;
using ::tessel::testing::StatusIs;
using ::testing::ElementsAre;

TEST(HostTensorTest, FromVectorHoldsTheValues) {
  absl::StatusOr<HostTensor> x = HostTensor::FromVector<float>({2, 2}, {1, 2, 3, 4});
  ASSERT_THAT(x, IsOk());
  EXPECT_EQ(x->element_type(), ElementType::kF32);
  EXPECT_THAT(x->shape(), ElementsAre(2, 2));
  EXPECT_EQ(x->num_elements(), 4);
  EXPECT_EQ(x->byte_size(), 16);
  EXPECT_THAT(x->data<float>(), ElementsAre(1, 2, 3, 4));
  EXPECT_EQ(x->ToString(), "f32[2,2] {{1, 2}, {3, 4}}");
  EXPECT_EQ(x->ShapeString(), "f32[2,2]");
  // The wrong C++ type gives an empty view, not garbage.
  EXPECT_TRUE(x->data<int32_t>().empty());
  EXPECT_TRUE(x->ToVector<double>().empty());
}

TEST(HostTensorTest, PredScalarsAndZeros) {
  absl::StatusOr<HostTensor> mask = HostTensor::FromVector<bool>({3}, {true, false, true});
  ASSERT_THAT(mask, IsOk());
  EXPECT_EQ(mask->element_type(), ElementType::kPred);
  EXPECT_THAT(mask->ToVector<bool>(), ElementsAre(true, false, true));
  HostTensor s = HostTensor::Scalar<int64_t>(7);
  EXPECT_EQ(s.rank(), 0);
  EXPECT_THAT(s.ToVector<int64_t>(), ElementsAre(7));
  absl::StatusOr<HostTensor> zeros = HostTensor::Zeros(ElementType::kBF16, {2, 3});
  ASSERT_THAT(zeros, IsOk());
  EXPECT_EQ(zeros->byte_size(), 12);
}

TEST(HostTensorTest, BadShapesAndSizesAreErrors) {
  EXPECT_THAT(HostTensor::FromVector<float>({2, 2}, {1, 2, 3}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "f32[2,2] holds 4 elements (16 bytes) but 12 bytes were given"));
  EXPECT_THAT(HostTensor::Zeros(ElementType::kF32, {2, -1}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "shape [2,-1] has a negative dimension"));
}

TEST(HostTensorTest, CopiesAreDeepAndMovesLeaveAValidTensor) {
  HostTensor a = *HostTensor::FromVector<int32_t>({2}, {1, 2});
  HostTensor b = a;
  b.mutable_data<int32_t>()[0] = 5;
  EXPECT_THAT(a.ToVector<int32_t>(), ElementsAre(1, 2));
  EXPECT_NE(a, b);
  HostTensor c = std::move(b);
  EXPECT_THAT(c.ToVector<int32_t>(), ElementsAre(5, 2));
  EXPECT_EQ(b.num_elements(), 1);  // NOLINT(bugprone-use-after-move): documented state
  EXPECT_EQ(HostTensor::Random(ElementType::kF32, {4}, 3),
            HostTensor::Random(ElementType::kF32, {4}, 3));
}

}  // namespace
}  // namespace tessel
