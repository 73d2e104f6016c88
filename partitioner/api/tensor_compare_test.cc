// Tests of CompareTensors: exact integers, float tolerance, NaN, and shape mismatches.
#include "partitioner/api/tensor_compare.h"

#include <cmath>

#include "gtest/gtest.h"

namespace tessel {
namespace {

using runtime::Tensor;

TEST(CompareTensorsTest, IntegersCompareBitForBit) {
  TensorComparison same = CompareTensors(Tensor::FromVector<int32_t>({2}, {1, 2}),
                                         Tensor::FromVector<int32_t>({2}, {1, 2}));
  EXPECT_TRUE(same.matches);
  EXPECT_TRUE(same.exact);
  TensorComparison differ = CompareTensors(Tensor::FromVector<int32_t>({2}, {1, 3}),
                                           Tensor::FromVector<int32_t>({2}, {1, 2}));
  EXPECT_FALSE(differ.matches);
  EXPECT_EQ(differ.mismatch, "got s32[2] {1, 3}, expected s32[2] {1, 2}");
}

TEST(CompareTensorsTest, FloatsMatchWithinTheTolerance) {
  TensorComparison close = CompareTensors(Tensor::FromVector<float>({2}, {1.00001f, NAN}),
                                          Tensor::FromVector<float>({2}, {1.0f, NAN}));
  EXPECT_TRUE(close.matches);
  EXPECT_FALSE(close.exact);
  EXPECT_GT(close.max_abs_difference, 0);
  TensorComparison far = CompareTensors(Tensor::FromVector<float>({2}, {1, 2.5f}),
                                        Tensor::FromVector<float>({2}, {1, 2}));
  EXPECT_FALSE(far.matches);
  EXPECT_EQ(far.mismatch,
            "element 1 [1]: got 2.5, expected 2, |difference| 0.5 > tolerance 0.000213815 (atol "
            "1e-05 + rtol 0.0001 * |expected| + 16 ulps of the largest |expected| 2)");
  EXPECT_TRUE(CompareTensors(Tensor::FromVector<float>({1}, {2.5f}),
                             Tensor::FromVector<float>({1}, {2}), /*relative_tolerance=*/0.5)
                  .matches);
  EXPECT_FALSE(CompareTensors(Tensor::FromVector<float>({1}, {NAN}),
                              Tensor::FromVector<float>({1}, {1}))
                   .matches);
}

// An element that cancels to near zero next to large ones may be off by a few ulps of the
// largest (a reordered layer norm); an error of that size elsewhere, or a larger one, fails.
TEST(CompareTensorsTest, ToleranceGrowsWithTheLargestMagnitude) {
  EXPECT_TRUE(CompareTensors(Tensor::FromVector<float>({2}, {-0.054306f, 76.0f}),
                             Tensor::FromVector<float>({2}, {-0.054287f, 76.0f}))
                  .matches);
  EXPECT_FALSE(CompareTensors(Tensor::FromVector<float>({2}, {-0.054306f, 0.1f}),
                              Tensor::FromVector<float>({2}, {-0.054287f, 0.1f}))
                   .matches);
  EXPECT_FALSE(CompareTensors(Tensor::FromVector<float>({2}, {-0.06f, 76.0f}),
                              Tensor::FromVector<float>({2}, {-0.054287f, 76.0f}))
                   .matches);
  // bf16 results differ by an ulp of their own precision when sums are reordered.
  using runtime::bf16;
  EXPECT_TRUE(CompareTensors(Tensor::FromVector<bf16>({1}, {bf16(1.0078125f)}),
                             Tensor::FromVector<bf16>({1}, {bf16(1.0f)}))
                  .matches);
}

// The message names the worst element against its own tolerance (not the first beyond it),
// with its index; equal infinities match.
TEST(CompareTensorsTest, NamesTheWorstElement) {
  TensorComparison c = CompareTensors(
      Tensor::FromVector<float>({2, 2}, {1.001f, INFINITY, 3, 4.5f}),
      Tensor::FromVector<float>({2, 2}, {1, INFINITY, 3, 4}));
  EXPECT_FALSE(c.matches);
  EXPECT_EQ(c.mismatch.rfind("element 3 [1, 1]: got 4.5, expected 4", 0), 0u) << c.mismatch;
}

// What partitioning bugs do to a result is far outside the bound: a dropped all_reduce (one
// partial sum of four), a shard at a wrong offset, padding left in a sum.
TEST(CompareTensorsTest, PartitioningBugsFail) {
  Tensor want = Tensor::FromVector<float>({4}, {10.0f, -3.0f, 7.5f, 0.25f});
  EXPECT_FALSE(CompareTensors(Tensor::FromVector<float>({4}, {2.5f, -0.75f, 1.875f, 0.0625f}),
                              want).matches);
  EXPECT_FALSE(CompareTensors(Tensor::FromVector<float>({4}, {-3.0f, 10.0f, 7.5f, 0.25f}),
                              want).matches);
  EXPECT_FALSE(CompareTensors(Tensor::FromVector<float>({4}, {10.0f, -3.0f, 7.5f, 0.2501f}),
                              want).matches);
}

TEST(CompareTensorsTest, ShapesAndTypesMustAgree) {
  TensorComparison c = CompareTensors(Tensor::FromVector<float>({2}, {1, 2}),
                                      Tensor::FromVector<float>({3}, {1, 2, 3}));
  EXPECT_FALSE(c.matches);
  EXPECT_EQ(c.mismatch, "got f32[2], expected f32[3]");
}

}  // namespace
}  // namespace tessel
