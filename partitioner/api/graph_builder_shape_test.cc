// Tests of GraphBuilder's shape ops: result shapes and the errors for shapes that do not fit.
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

TEST(GraphBuilderShapeTest, BroadcastInDimTakesTheResultShape) {
  GraphBuilder b;
  Value y = b.BroadcastInDim(b.Parameter(F32({4})), {2, 4}, {1});
  EXPECT_EQ(y.type(), F32({2, 4}));
  EXPECT_THAT(
      BuildText(b, {y}),
      HasSubstr("hlo.broadcast_in_dim %arg0, dims = [1] : (tensor<4xf32>) -> tensor<2x4xf32>"));
}

TEST(GraphBuilderShapeTest, BroadcastInDimRejectsSizesThatDoNotStretch) {
  GraphBuilder b;
  b.BroadcastInDim(b.Parameter(F32({4})), {2, 3}, {1});
  EXPECT_THAT(b.status(), StatusIs(kInvalid,
                                   "broadcast_in_dim: operand dimension 0 of size 4 "
                                   "cannot be broadcast to result dimension 1 of size 3"));
}

TEST(GraphBuilderShapeTest, ReshapeKeepsTheElementCount) {
  GraphBuilder b;
  Value x = b.Parameter(F32({2, 3}));
  EXPECT_EQ(b.Reshape(x, {6}).type(), F32({6}));
  b.Reshape(x, {4});
  EXPECT_THAT(
      b.status(),
      StatusIs(kInvalid, "reshape: cannot reshape f32[2,3] (6 elements) to f32[4] (4 elements)"));
}

TEST(GraphBuilderShapeTest, ReshapeRejectsNegativeSizes) {
  GraphBuilder b;
  b.Reshape(b.Parameter(F32({2})), {-2});
  EXPECT_THAT(b.status(), StatusIs(kInvalid, "reshape: result dimension 0 is negative (-2)"));
}

TEST(GraphBuilderShapeTest, TransposePermutesDimensions) {
  GraphBuilder b;
  Value x = b.Parameter(F32({2, 3, 5}));
  EXPECT_EQ(b.Transpose(x, {2, 0, 1}).type(), F32({5, 2, 3}));
  b.Transpose(x, {0, 0, 1});
  EXPECT_THAT(b.status(), StatusIs(kInvalid, "transpose: permutation: dimension 0 appears twice"));
}

TEST(GraphBuilderShapeTest, SliceDefaultsToUnitStrides) {
  GraphBuilder b;
  Value x = b.Parameter(F32({8, 3}));
  EXPECT_EQ(b.Slice(x, {1, 0}, {5, 3}, {2, 1}).type(), F32({2, 3}));
  EXPECT_EQ(b.Slice(x, {1, 0}, {5, 3}).type(), F32({4, 3}));
  b.Slice(x, {0, 0}, {9, 3});
  EXPECT_THAT(b.status(), StatusIs(kInvalid,
                                   "slice: dimension 0: limit index 9 exceeds dimension "
                                   "size 8"));
}

TEST(GraphBuilderShapeTest, DynamicSliceAndUpdate) {
  GraphBuilder b;
  Value x = b.Parameter(F32({8, 8}));
  Value i = b.Parameter(S32({}));
  Value piece = b.DynamicSlice(x, {i, i}, {2, 3});
  EXPECT_EQ(piece.type(), F32({2, 3}));
  EXPECT_EQ(b.DynamicUpdateSlice(x, piece, {i, i}).type(), F32({8, 8}));
  EXPECT_THAT(b.status(), IsOk());
  b.DynamicSlice(x, {i}, {2, 3});
  EXPECT_THAT(
      b.status(),
      StatusIs(kInvalid,
               "dynamic_slice: expects 2 start indices (one per operand dimension), got 1"));
}

TEST(GraphBuilderShapeTest, DynamicUpdateSliceRejectsALargerUpdate) {
  GraphBuilder b;
  Value i = b.Parameter(S32({}));
  b.DynamicUpdateSlice(b.Parameter(F32({2})), b.Parameter(F32({3})), {i});
  EXPECT_THAT(b.status(),
              StatusIs(kInvalid,
                       "dynamic_update_slice: dimension 0: update size 3 exceeds operand size 2"));
}

TEST(GraphBuilderShapeTest, PadAddsEdgesAndInteriorAndMayCrop) {
  GraphBuilder b;
  Value x = b.Parameter(F32({2, 3}));
  Value zero = b.ScalarConstant(ElementType::kF32, 0);
  // Dimension 0: 1 + 2 + 2 = 5. Dimension 1: 0 - 1 + 3 + 2 * 1 = 4.
  EXPECT_EQ(b.Pad(x, zero, {1, 0}, {2, -1}, {0, 1}).type(), F32({5, 4}));
  EXPECT_EQ(b.Pad(x, zero, {1, 1}, {0, 0}).type(), F32({3, 4}));
  EXPECT_THAT(b.status(), IsOk());
  b.Pad(x, b.ScalarConstant(ElementType::kS32, 0), {0, 0}, {0, 0});
  EXPECT_THAT(b.status(), StatusIs(kInvalid,
                                   "pad: padding value s32[] must be a rank-0 tensor of "
                                   "the operand's element type (f32[2,3])"));
}

TEST(GraphBuilderShapeTest, ConcatenateSumsOneDimension) {
  GraphBuilder b;
  Value a = b.Parameter(F32({2, 3}));
  Value c = b.Parameter(F32({4, 3}));
  EXPECT_EQ(b.Concatenate({a, c}, 0).type(), F32({6, 3}));
  b.Concatenate({a, c}, 1);
  EXPECT_THAT(b.status(),
              StatusIs(kInvalid,
                       "concatenate: input 1 has size 4 in dimension 0, expected 2 like input 0"));
}

TEST(GraphBuilderShapeTest, ConcatenateNeedsAnInput) {
  GraphBuilder b;
  b.Concatenate({}, 0);
  EXPECT_THAT(b.status(), StatusIs(kInvalid, "concatenate: needs at least one input"));
}

TEST(GraphBuilderShapeTest, ReverseKeepsTheShape) {
  GraphBuilder b;
  Value x = b.Parameter(F32({4, 3}));
  EXPECT_EQ(b.Reverse(x, {0}).type(), F32({4, 3}));
  b.Reverse(x, {2});
  EXPECT_THAT(b.status(), StatusIs(kInvalid, "reverse: dimensions: dimension 2 is out of range"));
}

}  // namespace
}  // namespace tessel
