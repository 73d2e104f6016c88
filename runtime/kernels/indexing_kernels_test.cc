// Golden tests of the gather and scatter kernels: embedding lookups, index clamping,
// batching dimensions, index_vector_dim placement, out-of-bounds updates and update order.
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "runtime/kernel_registry.h"
#include "runtime/kernel_test_util.h"
#include "support/status_matchers.h"

namespace tessel::runtime {
namespace {

using ::tessel::testing::IsOk;
using ::testing::ElementsAre;

class IndexingKernelsTest : public KernelTest {};

// Rows 0..3 of a 4x3 table: row r holds 10r, 10r + 1, 10r + 2.
Tensor Table() {
  return Tensor::FromVector<float>({4, 3}, {0, 1, 2, 10, 11, 12, 20, 21, 22, 30, 31, 32});
}

TEST_F(IndexingKernelsTest, GatherLooksUpEmbeddingRows) {
  // index_vector_dim = 1 equals the rank of the indices: each index is a 1-vector.
  Tensor result = RunOne(R"(
    func.func @main(%t: tensor<4x3xf32>, %ids: tensor<3xi32>) -> tensor<3x3xf32> {
      %g = hlo.gather %t[%ids], slice_sizes = [1, 3], offset_dims = [1],
          collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1
          : (tensor<4x3xf32>, tensor<3xi32>) -> tensor<3x3xf32>
      return %g : tensor<3x3xf32>
    })",
                         {Table(), Tensor::FromVector<int32_t>({3}, {2, 0, 3})});
  EXPECT_THAT(result.ToVector<float>(), ElementsAre(20, 21, 22, 0, 1, 2, 30, 31, 32));
}

TEST_F(IndexingKernelsTest, GatherClampsStartIndicesSoTheSliceFits) {
  // Slices of 2x2: start row 5 clamps to 4 - 2 = 2 and -1 to 0; start column 2 clamps
  // to 3 - 2 = 1.
  Tensor result = RunOne(R"(
    func.func @main(%t: tensor<4x3xf32>, %idx: tensor<2x2xi64>) -> tensor<2x2x2xf32> {
      %g = hlo.gather %t[%idx], slice_sizes = [2, 2], offset_dims = [1, 2],
          start_index_map = [0, 1], index_vector_dim = 1
          : (tensor<4x3xf32>, tensor<2x2xi64>) -> tensor<2x2x2xf32>
      return %g : tensor<2x2x2xf32>
    })",
                         {Table(), Tensor::FromVector<int64_t>({2, 2}, {5, 2, -1, 0})});
  EXPECT_THAT(result.ToVector<float>(), ElementsAre(21, 22, 31, 32, 0, 1, 10, 11));
}

TEST_F(IndexingKernelsTest, GatherWithBatchingDimensions) {
  // Batch b of the operand is indexed by batch b of the indices: row 0 picks column 3,
  // row 1 picks column 1.
  Tensor result = RunOne(R"(
    func.func @main(%x: tensor<2x4xi32>, %idx: tensor<2x1xui32>) -> tensor<2xi32> {
      %g = hlo.gather %x[%idx], slice_sizes = [1, 1], collapsed_slice_dims = [1],
          operand_batching_dims = [0], start_indices_batching_dims = [0],
          start_index_map = [1], index_vector_dim = 1
          : (tensor<2x4xi32>, tensor<2x1xui32>) -> tensor<2xi32>
      return %g : tensor<2xi32>
    })",
                         {Tensor::FromVector<int32_t>({2, 4}, {10, 11, 12, 13, 20, 21, 22, 23}),
                          Tensor::FromVector<uint32_t>({2, 1}, {3, 1})});
  EXPECT_THAT(result.ToVector<int32_t>(), ElementsAre(13, 21));
}

TEST_F(IndexingKernelsTest, GatherWithTheIndexVectorInTheLeadingDimension) {
  // index_vector_dim = 0: the columns of idx are (row, column) points (0, 1) and (2, 2).
  Tensor result = RunOne(R"(
    func.func @main(%t: tensor<4x3xf32>, %idx: tensor<2x2xi32>) -> tensor<2xf32> {
      %g = hlo.gather %t[%idx], slice_sizes = [1, 1], collapsed_slice_dims = [0, 1],
          start_index_map = [0, 1], index_vector_dim = 0
          : (tensor<4x3xf32>, tensor<2x2xi32>) -> tensor<2xf32>
      return %g : tensor<2xf32>
    })",
                         {Table(), Tensor::FromVector<int32_t>({2, 2}, {0, 2, 1, 2})});
  EXPECT_THAT(result.ToVector<float>(), ElementsAre(1, 22));
}

TEST_F(IndexingKernelsTest, GatherWithOffsetDimensionsBeforeTheBatch) {
  // offset_dims = [0]: the slice (a column of 2 rows) comes first, the batch second.
  Tensor result = RunOne(R"(
    func.func @main(%t: tensor<4x3xf32>, %idx: tensor<2x2xi32>) -> tensor<2x2xf32> {
      %g = hlo.gather %t[%idx], slice_sizes = [2, 1], offset_dims = [0],
          collapsed_slice_dims = [1], start_index_map = [0, 1], index_vector_dim = 1
          : (tensor<4x3xf32>, tensor<2x2xi32>) -> tensor<2x2xf32>
      return %g : tensor<2x2xf32>
    })",
                         {Table(), Tensor::FromVector<int32_t>({2, 2}, {1, 0, 2, 2})});
  // Batch 0 reads rows 1-2 of column 0 (10, 20); batch 1 rows 2-3 of column 2 (22, 32).
  EXPECT_THAT(result.ToVector<float>(), ElementsAre(10, 22, 20, 32));
}

constexpr absl::string_view kScatterAdd = R"(
    func.func @main(%x: tensor<5xf32>, %idx: tensor<3x1xi32>, %u: tensor<3xf32>)
        -> tensor<5xf32> {
      %r = hlo.scatter(%x) indices(%idx) updates(%u), inserted_window_dims = [0],
          scatter_dims_to_operand_dims = [0], index_vector_dim = 1
          : (tensor<5xf32>, tensor<3x1xi32>, tensor<3xf32>) -> tensor<5xf32> update {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = hlo.add %a, %b : tensor<f32>
        hlo.return %s : tensor<f32>
      }
      return %r : tensor<5xf32>
    })";

TEST_F(IndexingKernelsTest, ScatterAddsUpdatesAtRepeatedIndices) {
  Tensor result = RunOne(kScatterAdd, {Tensor::FromVector<float>({5}, {1, 1, 1, 1, 1}),
                                       Tensor::FromVector<int32_t>({3, 1}, {1, 3, 1}),
                                       Tensor::FromVector<float>({3}, {10, 20, 30})});
  EXPECT_THAT(result.ToVector<float>(), ElementsAre(1, 41, 1, 21, 1));
}

TEST_F(IndexingKernelsTest, ScatterSkipsOutOfBoundsUpdates) {
  Tensor result = RunOne(kScatterAdd, {Tensor::FromVector<float>({5}, {0, 0, 0, 0, 0}),
                                       Tensor::FromVector<int32_t>({3, 1}, {5, -1, 4}),
                                       Tensor::FromVector<float>({3}, {10, 20, 30})});
  EXPECT_THAT(result.ToVector<float>(), ElementsAre(0, 0, 0, 0, 30));
}

TEST_F(IndexingKernelsTest, ScatterSkipsWindowsThatDoNotFitAsAWhole) {
  // Windows of 2 at 4 (would cover 4..5), at -1 and at 0: only the last one fits.
  Tensor result = RunOne(R"(
    func.func @main(%x: tensor<5xf32>, %idx: tensor<3x1xi32>, %u: tensor<3x2xf32>)
        -> tensor<5xf32> {
      %r = hlo.scatter(%x) indices(%idx) updates(%u), update_window_dims = [1],
          scatter_dims_to_operand_dims = [0], index_vector_dim = 1
          : (tensor<5xf32>, tensor<3x1xi32>, tensor<3x2xf32>) -> tensor<5xf32> update {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = hlo.add %a, %b : tensor<f32>
        hlo.return %s : tensor<f32>
      }
      return %r : tensor<5xf32>
    })",
                         {Tensor::FromVector<float>({5}, {0, 0, 0, 0, 0}),
                          Tensor::FromVector<int32_t>({3, 1}, {4, -1, 0}),
                          Tensor::FromVector<float>({3, 2}, {1, 2, 3, 4, 5, 6})});
  EXPECT_THAT(result.ToVector<float>(), ElementsAre(5, 6, 0, 0, 0));
}

TEST_F(IndexingKernelsTest, ScatterAppliesUpdatesInIndexOrder) {
  // The region keeps the update, so the last update to a position wins: 9 after 7.
  Tensor result = RunOne(R"(
    func.func @main(%x: tensor<3xi32>, %idx: tensor<2xi32>, %u: tensor<2xi32>) -> tensor<3xi32> {
      %r = hlo.scatter(%x) indices(%idx) updates(%u), inserted_window_dims = [0],
          scatter_dims_to_operand_dims = [0], index_vector_dim = 1
          : (tensor<3xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<3xi32> update {
      ^bb0(%a: tensor<i32>, %b: tensor<i32>):
        hlo.return %b : tensor<i32>
      }
      return %r : tensor<3xi32>
    })",
                         {Tensor::FromVector<int32_t>({3}, {0, 0, 0}),
                          Tensor::FromVector<int32_t>({2}, {1, 1}),
                          Tensor::FromVector<int32_t>({2}, {7, 9})});
  EXPECT_THAT(result.ToVector<int32_t>(), ElementsAre(0, 9, 0));
}

TEST_F(IndexingKernelsTest, ScatterOfTwoInputsWithBatchingDimensions) {
  // Batch b of the inputs takes the updates of batch b at the column its index names;
  // the region adds to the first input and counts in the second.
  auto results = Run(R"(
    func.func @main(%x: tensor<2x3xf32>, %n: tensor<2x3xi32>, %idx: tensor<2x2x1xi32>,
                    %u: tensor<2x2xf32>, %c: tensor<2x2xi32>)
        -> (tensor<2x3xf32>, tensor<2x3xi32>) {
      %r:2 = hlo.scatter(%x, %n) indices(%idx) updates(%u, %c), inserted_window_dims = [1],
          input_batching_dims = [0], scatter_indices_batching_dims = [0],
          scatter_dims_to_operand_dims = [1], index_vector_dim = 2
          : (tensor<2x3xf32>, tensor<2x3xi32>, tensor<2x2x1xi32>, tensor<2x2xf32>, tensor<2x2xi32>)
          -> (tensor<2x3xf32>, tensor<2x3xi32>) update {
      ^bb0(%a: tensor<f32>, %an: tensor<i32>, %b: tensor<f32>, %bn: tensor<i32>):
        %s = hlo.add %a, %b : tensor<f32>
        %k = hlo.add %an, %bn : tensor<i32>
        hlo.return %s, %k : tensor<f32>, tensor<i32>
      }
      return %r#0, %r#1 : tensor<2x3xf32>, tensor<2x3xi32>
    })",
                     {Tensor::Zeros(ElementType::kF32, {2, 3}),
                      Tensor::Zeros(ElementType::kS32, {2, 3}),
                      Tensor::FromVector<int32_t>({2, 2, 1}, {2, 2, 0, 1}),
                      Tensor::FromVector<float>({2, 2}, {1, 2, 3, 4}),
                      Tensor::FromVector<int32_t>({2, 2}, {1, 1, 1, 1})});
  ASSERT_THAT(results, IsOk());
  // Batch 0: both updates (1, 2) land on column 2; batch 1: 3 on column 0, 4 on column 1.
  EXPECT_THAT((*results)[0].ToVector<float>(), ElementsAre(0, 0, 3, 3, 4, 0));
  EXPECT_THAT((*results)[1].ToVector<int32_t>(), ElementsAre(0, 0, 2, 1, 1, 0));
}

}  // namespace
}  // namespace tessel::runtime
