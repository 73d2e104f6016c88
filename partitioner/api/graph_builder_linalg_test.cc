// Tests of GraphBuilder's dot_general, MatMul and convolution: the computed result shapes
// and the errors for dimension numbers that do not fit.
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
using ::tessel::testing::StatusIs;
using ::testing::HasSubstr;
constexpr absl::StatusCode kInvalid = absl::StatusCode::kInvalidArgument;

TEST(GraphBuilderLinalgTest, DotGeneralPutsBatchThenLhsThenRhsDimensions) {
  GraphBuilder b;
  DotDimensions dims;
  dims.lhs_batch = {0};
  dims.rhs_batch = {0};
  dims.lhs_contracting = {2};
  dims.rhs_contracting = {1};
  Value y = b.DotGeneral(b.Parameter(F32({2, 3, 4})), b.Parameter(F32({2, 4, 5})), dims);
  EXPECT_EQ(y.type(), F32({2, 3, 5}));
  EXPECT_THAT(BuildText(b, {y}), HasSubstr("lhs_batch = [0], rhs_batch = [0], lhs_contract = [2], "
                                           "rhs_contract = [1]"));
}

TEST(GraphBuilderLinalgTest, DotGeneralMayAccumulateInAWiderType) {
  GraphBuilder b;
  TensorType bf16(ElementType::kBF16, {4, 8});
  DotDimensions dims;
  dims.lhs_contracting = {1};
  dims.rhs_contracting = {1};
  Value y = b.DotGeneral(b.Parameter(bf16), b.Parameter(bf16), dims, ElementType::kF32);
  EXPECT_EQ(y.type(), F32({4, 4}));
  EXPECT_THAT(b.status(), IsOk());
}

TEST(GraphBuilderLinalgTest, DotGeneralRejectsBadDimensionNumbers) {
  {
    GraphBuilder b;
    DotDimensions dims;
    dims.lhs_contracting = {2};
    dims.rhs_contracting = {0};
    b.DotGeneral(b.Parameter(F32({4, 8})), b.Parameter(F32({8, 2})), dims);
    EXPECT_THAT(b.status(), StatusIs(kInvalid,
                                     "dot_general: lhs_contracting: dimension 2 is out "
                                     "of range [0, 2)"));
  }
  {
    GraphBuilder b;
    DotDimensions dims;
    dims.lhs_contracting = {1};
    dims.rhs_contracting = {0};
    b.DotGeneral(b.Parameter(F32({4, 8})), b.Parameter(F32({6, 2})), dims);
    EXPECT_THAT(b.status(), StatusIs(kInvalid,
                                     "dot_general: contracting dimension 1 of lhs f32[4,8] "
                                     "and dimension 0 of rhs f32[6,2] differ in size"));
  }
  {
    GraphBuilder b;
    DotDimensions dims;
    dims.lhs_batch = {0};
    b.DotGeneral(b.Parameter(F32({4, 8})), b.Parameter(F32({4, 8})), dims);
    EXPECT_THAT(b.status(), StatusIs(kInvalid,
                                     "dot_general: lhs and rhs must have as many batch "
                                     "dimensions"));
  }
  {
    // Batch sizes are checked by the hlo verifier.
    GraphBuilder b;
    DotDimensions dims;
    dims.lhs_batch = {0};
    dims.rhs_batch = {0};
    b.DotGeneral(b.Parameter(F32({4, 8})), b.Parameter(F32({3, 8})), dims);
    EXPECT_THAT(b.status(), StatusIs(kInvalid, "dot_general: batch dimension sizes differ"));
  }
}

TEST(GraphBuilderLinalgTest, MatMulContractsTheInnerDimensions) {
  GraphBuilder b;
  EXPECT_EQ(b.MatMul(b.Parameter(F32({16, 64})), b.Parameter(F32({64, 256}))).type(),
            F32({16, 256}));
  EXPECT_EQ(b.MatMul(b.Parameter(F32({3, 16, 64})), b.Parameter(F32({3, 64, 8}))).type(),
            F32({3, 16, 8}));
  EXPECT_THAT(b.status(), IsOk());
  b.MatMul(Value(), b.Parameter(F32({16, 4})));
  EXPECT_THAT(b.status(), StatusIs(kInvalid, "matmul: lhs is an invalid Value"));
}

TEST(GraphBuilderLinalgTest, MatMulRejectsVectors) {
  GraphBuilder b;
  b.MatMul(b.Parameter(F32({16})), b.Parameter(F32({16, 4})));
  EXPECT_THAT(b.status(), StatusIs(kInvalid,
                                   "matmul: operands must have one rank of at least 2, "
                                   "got f32[16] and f32[16,4]"));
}

TEST(GraphBuilderLinalgTest, ConvolutionWithStridesAndPadding) {
  GraphBuilder b;
  ConvolutionOptions options;
  options.window_strides = {2, 2};
  options.padding = {{1, 1}, {1, 1}};
  Value y = b.Convolution(b.Parameter(F32({1, 8, 8, 3})), b.Parameter(F32({3, 3, 3, 16})),
                          ConvDimensions::ChannelsLast(2), options);
  // Padded 10, window 3, stride 2: (10 - 3) / 2 + 1 = 4.
  EXPECT_EQ(y.type(), F32({1, 4, 4, 16}));
  EXPECT_THAT(BuildText(b, {y}),
              HasSubstr("dims = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window_strides = [2, 2], "
                        "padding = [[1, 1], [1, 1]]"));
}

TEST(GraphBuilderLinalgTest, ConvolutionGroupsAndDilations) {
  GraphBuilder b;
  ConvolutionOptions options;
  options.feature_group_count = 2;
  options.rhs_dilation = {2};
  options.lhs_dilation = {1};
  // Input features 4 in 2 groups of 2; kernel window 3 dilated to 5 over 10: 6 positions.
  Value y = b.Convolution(b.Parameter(F32({2, 10, 4})), b.Parameter(F32({3, 2, 6})),
                          ConvDimensions::ChannelsLast(1), options);
  EXPECT_EQ(y.type(), F32({2, 6, 6}));
  EXPECT_THAT(b.status(), IsOk());
}

TEST(GraphBuilderLinalgTest, ConvolutionRejectsBadShapesAndOptions) {
  {
    GraphBuilder b;
    b.Convolution(b.Parameter(F32({1, 8, 3})), b.Parameter(F32({3, 3, 3, 16})),
                  ConvDimensions::ChannelsLast(2));
    EXPECT_THAT(b.status(), StatusIs(kInvalid,
                                     "convolution: lhs f32[1,8,3] and rhs f32[3,3,3,16] "
                                     "must have rank 4 (2 + spatial dimensions)"));
  }
  {
    GraphBuilder b;
    ConvDimensions dims = ConvDimensions::ChannelsLast(1);
    dims.input_feature = 0;  // the same as input_batch
    b.Convolution(b.Parameter(F32({1, 8, 3})), b.Parameter(F32({3, 3, 4})), dims);
    EXPECT_THAT(b.status(), StatusIs(kInvalid, "convolution: input dimension 0 appears twice"));
  }
  {
    GraphBuilder b;
    ConvolutionOptions options;
    options.batch_group_count = 0;
    b.Convolution(b.Parameter(F32({1, 8, 3})), b.Parameter(F32({3, 3, 4})),
                  ConvDimensions::ChannelsLast(1), options);
    EXPECT_THAT(b.status(), StatusIs(kInvalid,
                                     "convolution: feature_group_count and "
                                     "batch_group_count must be at least 1, got 1 and 0"));
  }
  {
    GraphBuilder b;
    ConvolutionOptions options;
    options.window_strides = {0};
    b.Convolution(b.Parameter(F32({1, 8, 3})), b.Parameter(F32({3, 3, 4})),
                  ConvDimensions::ChannelsLast(1), options);
    EXPECT_THAT(b.status(), StatusIs(kInvalid, "convolution: window_strides"));
  }
  {
    // The kernel's input features must match the input's: checked by the hlo verifier.
    GraphBuilder b;
    b.Convolution(b.Parameter(F32({1, 8, 3})), b.Parameter(F32({3, 5, 4})),
                  ConvDimensions::ChannelsLast(1));
    EXPECT_THAT(b.status(), StatusIs(kInvalid, "convolution: kernel input feature size 5"));
  }
}

}  // namespace
}  // namespace tessel
