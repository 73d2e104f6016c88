// Tests of GraphBuilder's sort, while, case and custom_call.
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

TEST(GraphBuilderControlTest, SortOneTensorDescending) {
  GraphBuilder b;
  Value sorted = b.Sort(b.Parameter(F32({8})), 0, ComparisonDirection::kGt, /*is_stable=*/true);
  EXPECT_EQ(sorted.type(), F32({8}));
  std::string text = BuildText(b, {sorted});
  EXPECT_THAT(text, HasSubstr("hlo.sort(%arg0) dimension = 0 is_stable"));
  // Floats compare by totalOrder, so NaNs cannot break the order.
  EXPECT_THAT(text, HasSubstr("hlo.compare GT, %arg1, %arg2, TOTALORDER"));
}

TEST(GraphBuilderControlTest, SortKeysAndValuesTogether) {
  GraphBuilder b;
  Value keys = b.Parameter(F32({8}));
  Value values = b.Iota(S32({8}), 0);
  std::vector<Value> sorted =
      b.Sort({keys, values}, 0, [](GraphBuilder& c, absl::Span<const Value> args) {
        // (a_keys, b_keys, a_values, b_values): order by the keys only.
        return std::vector<Value>{c.Compare(args[0], args[1], ComparisonDirection::kLt)};
      });
  ASSERT_EQ(sorted.size(), 2u);
  EXPECT_EQ(sorted[1].type(), S32({8}));
  EXPECT_THAT(b.Build(sorted), IsOk());
}

TEST(GraphBuilderControlTest, SortRejectsADimensionOutOfRange) {
  GraphBuilder b;
  b.Sort(b.Parameter(F32({8})), 1);
  EXPECT_THAT(b.status(), StatusIs(kInvalid, "sort: dimension 1 is out of range [0, 1)"));
}

TEST(GraphBuilderControlTest, AComparatorThatIsNotAPredIsReported) {
  GraphBuilder b;
  b.Sort({b.Parameter(F32({8}))}, 0,
         [](GraphBuilder&, absl::Span<const Value> args) { return std::vector<Value>{args[0]}; });
  EXPECT_THAT(
      b.status(),
      StatusIs(kInvalid, "sort: comparator result 0 must be 'tensor<i1>', got 'tensor<f32>'"));
}

TEST(GraphBuilderControlTest, WhileCountsToTen) {
  GraphBuilder b;
  Value x = b.Parameter(F32({4}));
  Value ten = b.ScalarConstant(ElementType::kS32, 10);
  Value one = b.ScalarConstant(ElementType::kS32, 1);
  std::vector<Value> final_state = b.While(
      {b.ScalarConstant(ElementType::kS32, 0), x},
      [&](GraphBuilder& c, absl::Span<const Value> state) {
        // Values from outside (ten) may be used inside the loop.
        return std::vector<Value>{c.Compare(state[0], ten, ComparisonDirection::kLt)};
      },
      [&](GraphBuilder& c, absl::Span<const Value> state) {
        return std::vector<Value>{c.Add(state[0], one), c.Add(state[1], state[1])};
      });
  ASSERT_EQ(final_state.size(), 2u);
  EXPECT_EQ(final_state[1].type(), F32({4}));
  EXPECT_THAT(BuildText(b, {final_state[1]}), HasSubstr("hlo.while("));
}

TEST(GraphBuilderControlTest, AWhileBodyThatChangesTheStateTypeIsReported) {
  GraphBuilder b;
  Value x = b.Parameter(F32({4}));
  Value flag = b.Parameter(Pred({}));
  std::vector<Value> final_state = b.While(
      {x}, [&](GraphBuilder&, absl::Span<const Value>) { return std::vector<Value>{flag}; },
      [](GraphBuilder& c, absl::Span<const Value> state) {
        return std::vector<Value>{c.Reshape(state[0], {2, 2})};
      });
  ASSERT_EQ(final_state.size(), 1u);
  EXPECT_FALSE(final_state[0].valid());
  EXPECT_THAT(b.status(), StatusIs(kInvalid, "while: body"));
}

TEST(GraphBuilderControlTest, CaseReturnsWhatTheBranchesReturn) {
  GraphBuilder b;
  Value index = b.Parameter(S32({}));
  Value x = b.Parameter(F32({4}));
  std::vector<Value> result =
      b.Case(index, {[&](GraphBuilder& c) { return std::vector<Value>{c.Neg(x)}; },
                     [&](GraphBuilder&) { return std::vector<Value>{x}; }});
  ASSERT_EQ(result.size(), 1u);
  EXPECT_EQ(result[0].type(), F32({4}));
  EXPECT_THAT(BuildText(b, result), HasSubstr("hlo.case %arg0 branches"));
}

TEST(GraphBuilderControlTest, CaseRejectsBadIndicesAndDisagreeingBranches) {
  {
    GraphBuilder b;
    Value x = b.Parameter(F32({4}));
    b.Case(b.Parameter(S32({2})), {[&](GraphBuilder&) { return std::vector<Value>{x}; }});
    EXPECT_THAT(b.status(), StatusIs(kInvalid, "case: index must be s32[], got s32[2]"));
  }
  {
    GraphBuilder b;
    Value index = b.Parameter(S32({}));
    Value x = b.Parameter(F32({4}));
    Value y = b.Parameter(F32({5}));
    std::vector<Value> result =
        b.Case(index, {[&](GraphBuilder&) { return std::vector<Value>{x}; },
                       [&](GraphBuilder&) { return std::vector<Value>{y}; }});
    EXPECT_EQ(result.size(), 1u);
    EXPECT_THAT(
        b.status(),
        StatusIs(kInvalid, "case: branch 1 result 0 must be 'tensor<4xf32>', got 'tensor<5xf32>'"));
  }
  {
    GraphBuilder b;
    b.Case(b.Parameter(S32({})), {});
    EXPECT_THAT(b.status(), StatusIs(kInvalid, "case: needs at least one branch"));
  }
}

TEST(GraphBuilderControlTest, AFailedBuilderStillReportsHowManyResultsCaseHas) {
  GraphBuilder b;
  Value x = b.Parameter(F32({4}));
  b.Exp(b.Parameter(S32({})));  // fails
  std::vector<Value> result = b.Case(Value(), {[&](GraphBuilder& c) {
                                       return std::vector<Value>{c.Neg(x), x};
                                     }});
  EXPECT_EQ(result.size(), 2u);
  EXPECT_FALSE(result[0].valid());
}

TEST(GraphBuilderControlTest, EmptyCallbacksAreErrors) {
  {
    GraphBuilder b;
    b.Sort({b.Parameter(F32({8}))}, 0, Computation());
    EXPECT_THAT(b.status(), StatusIs(kInvalid, "sort: the comparator callback is empty"));
  }
  {
    GraphBuilder b;
    b.Case(b.Parameter(S32({})), {Branch()});
    EXPECT_THAT(b.status(), StatusIs(kInvalid, "case: the branch 0 callback is empty"));
  }
}

TEST(GraphBuilderControlTest, CustomCallTakesResultTypesAndOptions) {
  GraphBuilder b;
  Value x = b.Parameter(F32({4}));
  CustomCallOptions options;
  options.backend_config = "fast";
  options.has_side_effect = true;
  std::vector<Value> results = b.CustomCall("my_kernel", {x, x}, {F32({4}), S32({})}, options);
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(results[1].type(), S32({}));
  std::vector<Value> plain = b.CustomCall("plain", {x}, {F32({4})});
  std::string text = BuildText(b, {results[0], plain[0]});
  EXPECT_THAT(text, HasSubstr("hlo.custom_call @my_kernel(%arg0, %arg0) {backend_config = "
                              "\"fast\", has_side_effect = true}"));
  EXPECT_THAT(text, HasSubstr("hlo.custom_call @plain(%arg0) : "));
}

TEST(GraphBuilderControlTest, CustomCallRejectsAnEmptyTargetAndNegativeShapes) {
  {
    GraphBuilder b;
    b.CustomCall("", {}, {F32({4})});
    EXPECT_THAT(b.status(), StatusIs(kInvalid, "custom_call: the call target name is empty"));
  }
  {
    GraphBuilder b;
    b.CustomCall("k", {}, {F32({-1})});
    EXPECT_THAT(b.status(), StatusIs(kInvalid, "custom_call: result 0 dimension 0 is negative"));
  }
}

}  // namespace
}  // namespace tessel
