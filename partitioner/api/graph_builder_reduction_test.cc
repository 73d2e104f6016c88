// Tests of GraphBuilder's reductions: built-in reducers with their identities, reducer
// callbacks, windows, and the errors of each.
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
using ::tessel::testing::Pred;
using ::tessel::testing::S32;
using ::tessel::testing::StatusIs;
using ::testing::HasSubstr;
constexpr absl::StatusCode kInvalid = absl::StatusCode::kInvalidArgument;

TEST(GraphBuilderReductionTest, SumDropsTheReducedDimensions) {
  GraphBuilder b;
  Value y = b.Reduce(b.Parameter(F32({4, 8})), ReduceKind::kSum, {1});
  EXPECT_EQ(y.type(), F32({4}));
  std::string text = BuildText(b, {y});
  EXPECT_THAT(text, HasSubstr("hlo.constant dense<0.000000e+00> : tensor<f32>"));
  EXPECT_THAT(text,
              HasSubstr("dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>"));
  EXPECT_THAT(text, HasSubstr("hlo.add"));
}

TEST(GraphBuilderReductionTest, BuiltInReducersStartFromTheirIdentity) {
  GraphBuilder b;
  Value x = b.Parameter(F32({4}));
  Value i = b.Parameter(S32({4}));
  Value p = b.Parameter(Pred({4}));
  std::string text =
      BuildText(b, {b.Reduce(x, ReduceKind::kMax, {0}), b.Reduce(x, ReduceKind::kMin, {0}),
                    b.Reduce(x, ReduceKind::kProd, {0}), b.Reduce(i, ReduceKind::kMax, {0}),
                    b.Reduce(i, ReduceKind::kAnd, {0}), b.Reduce(p, ReduceKind::kOr, {0})});
  EXPECT_THAT(text, HasSubstr("dense<0xFF800000> : tensor<f32>"));  // -inf
  EXPECT_THAT(text, HasSubstr("dense<0x7F800000> : tensor<f32>"));  // +inf
  EXPECT_THAT(text, HasSubstr("dense<1.000000e+00> : tensor<f32>"));
  EXPECT_THAT(text, HasSubstr("dense<-2147483648> : tensor<i32>"));
  EXPECT_THAT(text, HasSubstr("dense<-1> : tensor<i32>"));  // all bits set
  EXPECT_THAT(text, HasSubstr("dense<false> : tensor<i1>"));
  EXPECT_THAT(text, HasSubstr("hlo.min"));
  EXPECT_THAT(text, HasSubstr("hlo.mul"));
  EXPECT_THAT(text, HasSubstr("hlo.and"));
  EXPECT_THAT(text, HasSubstr("hlo.or"));
}

TEST(GraphBuilderReductionTest, LogicalReducersRejectFloats) {
  GraphBuilder b;
  b.Reduce(b.Parameter(F32({4})), ReduceKind::kAnd, {0});
  EXPECT_THAT(
      b.status(),
      StatusIs(kInvalid, "reduce: reducer type f32[] must have a pred or integer element type"));
}

TEST(GraphBuilderReductionTest, ReduceRejectsDimensionsOutOfRange) {
  GraphBuilder b;
  b.Reduce(b.Parameter(F32({4})), ReduceKind::kSum, {1});
  EXPECT_THAT(b.status(),
              StatusIs(kInvalid, "reduce: dimensions: dimension 1 is out of range [0, 1)"));
}

TEST(GraphBuilderReductionTest, ACallbackReducesSeveralInputsTogether) {
  // Max with the index of the max: the reducer sees (acc_value, acc_index, value, index).
  GraphBuilder b;
  Value values = b.Parameter(F32({8}));
  Value indices = b.Iota(S32({8}), 0);
  std::vector<Value> result =
      b.Reduce({values, indices},
               {b.ScalarConstant(ElementType::kF32, -1e30), b.ScalarConstant(ElementType::kS32, 0)},
               {0}, [](GraphBuilder& r, absl::Span<const Value> args) -> std::vector<Value> {
                 Value keep = r.Compare(args[0], args[2], ComparisonDirection::kGe);
                 return {r.Select(keep, args[0], args[2]), r.Select(keep, args[1], args[3])};
               });
  ASSERT_EQ(result.size(), 2u);
  EXPECT_EQ(result[0].type(), F32({}));
  EXPECT_EQ(result[1].type(), S32({}));
  EXPECT_THAT(b.Build(result), IsOk());
}

TEST(GraphBuilderReductionTest, AReducerOfTheWrongArityIsReported) {
  GraphBuilder b;
  std::vector<Value> result =
      b.Reduce({b.Parameter(F32({4}))}, {b.ScalarConstant(ElementType::kF32, 0)}, {0},
               [](GraphBuilder&, absl::Span<const Value> args) -> std::vector<Value> {
                 return {args[0], args[1]};
               });
  ASSERT_EQ(result.size(), 1u);
  EXPECT_FALSE(result[0].valid());
  EXPECT_THAT(b.status(), StatusIs(kInvalid, "reduce: reducer must return 1 values, returns 2"));
}

TEST(GraphBuilderReductionTest, ValuesCannotEscapeTheirRegion) {
  GraphBuilder b;
  Value x = b.Parameter(F32({4}));
  Value leaked;
  b.Reduce({x}, {b.ScalarConstant(ElementType::kF32, 0)}, {0},
           [&leaked](GraphBuilder& r, absl::Span<const Value> args) -> std::vector<Value> {
             leaked = r.Add(args[0], args[1]);
             return {leaked};
           });
  ASSERT_THAT(b.status(), IsOk());
  b.Neg(leaked);
  EXPECT_THAT(b.status(),
              StatusIs(kInvalid, "neg: operand was made inside a region that has ended"));
}

TEST(GraphBuilderReductionTest, ParametersCannotBeAddedInsideARegion) {
  GraphBuilder b;
  b.Reduce({b.Parameter(F32({4}))}, {b.ScalarConstant(ElementType::kF32, 0)}, {0},
           [](GraphBuilder& r, absl::Span<const Value> args) -> std::vector<Value> {
             r.Parameter(F32({}));
             return {args[0]};
           });
  EXPECT_THAT(b.status(),
              StatusIs(kInvalid, "parameter: parameters can only be added outside regions"));
}

TEST(GraphBuilderReductionTest, ReduceWindowPoolsWithStridesAndPadding) {
  GraphBuilder b;
  Value x = b.Parameter(F32({4, 6}));
  Window window;
  window.strides = {2, 2};
  EXPECT_EQ(b.ReduceWindow(x, ReduceKind::kMax, {2, 2}, window).type(), F32({2, 3}));
  // Padded 1 + 6 + 1 = 8, window 3, stride 1: 6 positions.
  Window padded;
  padded.padding = {{0, 0}, {1, 1}};
  EXPECT_EQ(b.ReduceWindow(x, ReduceKind::kSum, {1, 3}, padded).type(), F32({4, 6}));
  Window dilated;
  dilated.base_dilations = {2, 1};
  dilated.window_dilations = {1, 2};
  // Base (4 - 1) * 2 + 1 = 7, window 1: 7. Window (2 - 1) * 2 + 1 = 3 over 6: 4.
  EXPECT_EQ(b.ReduceWindow(x, ReduceKind::kSum, {1, 2}, dilated).type(), F32({7, 4}));
  EXPECT_THAT(b.status(), IsOk());
}

TEST(GraphBuilderReductionTest, ReduceWindowRejectsAWindowOfTheWrongRank) {
  GraphBuilder b;
  b.ReduceWindow(b.Parameter(F32({4, 6})), ReduceKind::kMax, {2});
  EXPECT_THAT(b.status(),
              StatusIs(kInvalid, "reduce_window: window_dimensions must have 2 entries, has 1"));
}

TEST(GraphBuilderReductionTest, SelectAndScatterRoutesGradientsToTheMaxima) {
  GraphBuilder b;
  Value x = b.Parameter(F32({4, 4}));
  Value grad = b.Parameter(F32({2, 2}));
  Window window;
  window.strides = {2, 2};
  Value y = b.SelectAndScatter(x, grad, b.ScalarConstant(ElementType::kF32, 0), {2, 2}, window,
                               ComparisonDirection::kGe, ReduceKind::kSum);
  EXPECT_EQ(y.type(), F32({4, 4}));
  std::string text = BuildText(b, {y});
  EXPECT_THAT(text, HasSubstr("hlo.select_and_scatter"));
  EXPECT_THAT(text, HasSubstr("hlo.compare GE"));
}

TEST(GraphBuilderReductionTest, SelectAndScatterRejectsDilationsAndBadSources) {
  {
    GraphBuilder b;
    Window window;
    window.window_dilations = {2};
    b.SelectAndScatter(b.Parameter(F32({4})), b.Parameter(F32({2})),
                       b.ScalarConstant(ElementType::kF32, 0), {2}, window,
                       ComparisonDirection::kGe, ReduceKind::kSum);
    EXPECT_THAT(b.status(), StatusIs(kInvalid,
                                     "select_and_scatter: the window of "
                                     "select_and_scatter takes no dilations"));
  }
  {
    // A 2-window with stride 1 over 4 elements has 3 positions, so the source needs 3.
    GraphBuilder b;
    b.SelectAndScatter(b.Parameter(F32({4})), b.Parameter(F32({2})),
                       b.ScalarConstant(ElementType::kF32, 0), {2}, Window(),
                       ComparisonDirection::kGe, ReduceKind::kSum);
    EXPECT_THAT(
        b.status(),
        StatusIs(kInvalid,
                 "select_and_scatter: source shape must be the window output shape [3], got [2]"));
  }
}

}  // namespace
}  // namespace tessel
