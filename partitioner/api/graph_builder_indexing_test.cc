// Tests of GraphBuilder's gather and scatter.
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "partitioner/api/graph_builder.h"
#include "partitioner/api/graph_builder_test_util.h"
#include "support/status_matchers.h"

namespace tessel {
namespace {

using ::tessel::testing::BuildText;
using ::tessel::testing::F32;
using ::tessel::testing::IsOk;
using ::tessel::testing::S32;
using ::tessel::testing::StatusIs;
using ::testing::HasSubstr;
constexpr absl::StatusCode kInvalid = absl::StatusCode::kInvalidArgument;

// Rows of a [16, 8] table picked by a [4, 1] index tensor, as an embedding lookup does.
GatherDimensions RowGather() {
  GatherDimensions dims;
  dims.offset_dims = {1};
  dims.collapsed_slice_dims = {0};
  dims.start_index_map = {0};
  dims.index_vector_dim = 1;
  return dims;
}

ScatterDimensions RowScatter() {
  ScatterDimensions dims;
  dims.update_window_dims = {1};
  dims.inserted_window_dims = {0};
  dims.scatter_dims_to_operand_dims = {0};
  dims.index_vector_dim = 1;
  return dims;
}

TEST(GraphBuilderIndexingTest, GatherPicksRows) {
  GraphBuilder b;
  Value rows = b.Gather(b.Parameter(F32({16, 8})), b.Parameter(S32({4, 1})), RowGather(), {1, 8},
                        {/*indices_are_sorted=*/true});
  EXPECT_EQ(rows.type(), F32({4, 8}));
  EXPECT_THAT(BuildText(b, {rows}), HasSubstr("slice_sizes = [1, 8], offset_dims = [1], "
                                              "collapsed_slice_dims = [0], start_index_map = [0], "
                                              "index_vector_dim = 1 indices_are_sorted"));
}

TEST(GraphBuilderIndexingTest, GatherRejectsBadIndicesAndSliceSizes) {
  {
    GraphBuilder b;
    b.Gather(b.Parameter(F32({16, 8})), b.Parameter(F32({4, 1})), RowGather(), {1, 8});
    EXPECT_THAT(b.status(), StatusIs(kInvalid,
                                     "gather: start indices type f32[4,1] must have an "
                                     "integer element type"));
  }
  {
    GraphBuilder b;
    b.Gather(b.Parameter(F32({16, 8})), b.Parameter(S32({4, 1})), RowGather(), {1, 9});
    EXPECT_THAT(b.status(),
                StatusIs(kInvalid, "gather: slice_sizes[1] = 9 is out of range [0, 8]"));
  }
  {
    GraphBuilder b;
    IndexingOptions options;
    options.unique_indices = true;
    b.Gather(b.Parameter(F32({16, 8})), b.Parameter(S32({4, 1})), RowGather(), {1, 8}, options);
    EXPECT_THAT(b.status(),
                StatusIs(kInvalid, "gather: unique_indices is a promise only scatter takes"));
  }
}

TEST(GraphBuilderIndexingTest, ScatterAddsRowsWithACallback) {
  GraphBuilder b;
  IndexingOptions options;
  options.unique_indices = true;
  // Separate statements: C++ leaves the order of function arguments open, and parameters
  // are numbered in the order they are made.
  Value table = b.Parameter(F32({16, 8}));
  Value indices = b.Parameter(S32({4, 1}));
  Value rows = b.Parameter(F32({4, 8}));
  std::vector<Value> result = b.Scatter(
      {table}, indices, {rows}, RowScatter(),
      [](GraphBuilder& r, absl::Span<const Value> args) -> std::vector<Value> {
        return {r.Add(args[0], args[1])};
      },
      options);
  ASSERT_EQ(result.size(), 1u);
  EXPECT_EQ(result[0].type(), F32({16, 8}));
  std::string text = BuildText(b, result);
  EXPECT_THAT(text, HasSubstr("hlo.scatter(%arg0) indices(%arg1) updates(%arg2)"));
  EXPECT_THAT(text, HasSubstr("unique_indices"));
}

TEST(GraphBuilderIndexingTest, ScatterRejectsUpdatesOfTheWrongShape) {
  // 4 index vectors but 3 update rows.
  GraphBuilder b;
  std::vector<Value> result = b.Scatter(
      {b.Parameter(F32({16, 8}))}, b.Parameter(S32({4, 1})), {b.Parameter(F32({3, 8}))},
      RowScatter(),
      [](GraphBuilder&, absl::Span<const Value> args) -> std::vector<Value> { return {args[1]}; });
  ASSERT_EQ(result.size(), 1u);
  EXPECT_FALSE(result[0].valid());
  EXPECT_THAT(b.status(), StatusIs(kInvalid,
                                   "scatter: updates dimension 0 has size 3, but the matching "
                                   "scatter_indices dimension has size 4"));
}

}  // namespace
}  // namespace tessel
