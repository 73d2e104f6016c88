// Tests of GraphBuilder's elementwise and creation ops: inferred types, the call-site
// errors, and the sticky status.
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "partitioner/api/graph_builder.h"
#include "support/status_matchers.h"

namespace tessel {
namespace {

using ::tessel::testing::IsOk;
using ::tessel::testing::StatusIs;
using ::testing::HasSubstr;

TensorType F32(std::vector<int64_t> dims) { return TensorType(ElementType::kF32, std::move(dims)); }
TensorType S32(std::vector<int64_t> dims) { return TensorType(ElementType::kS32, std::move(dims)); }

TEST(GraphBuilderElementwiseTest, AddInfersTheOperandType) {
  GraphBuilder b;
  Value x = b.Parameter(F32({4}));
  Value y = b.Add(x, x);
  ASSERT_THAT(b.status(), IsOk());
  EXPECT_EQ(y.type(), F32({4}));
  absl::StatusOr<Program> program = b.Build({y});
  ASSERT_THAT(program, IsOk());
  EXPECT_THAT(program->ToMlirText(), HasSubstr("hlo.add %arg0, %arg0 : tensor<4xf32>"));
}

TEST(GraphBuilderElementwiseTest, AddOfDifferentShapesNamesBothShapes) {
  GraphBuilder b;
  Value y = b.Add(b.Parameter(F32({4})), b.Parameter(F32({5})));
  EXPECT_FALSE(y.valid());
  EXPECT_THAT(b.status(),
              StatusIs(absl::StatusCode::kInvalidArgument, "add: operand shapes f32[4] and f32[5] differ"));
}

TEST(GraphBuilderElementwiseTest, TheFirstErrorSticksAndLaterCallsAreNoOps) {
  GraphBuilder b;
  Value x = b.Parameter(F32({4}));
  Value bad = b.Exp(b.Parameter(S32({4})));
  Value later = b.Add(x, x);
  EXPECT_FALSE(bad.valid());
  EXPECT_FALSE(later.valid());
  EXPECT_THAT(b.Build({later}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "exp: operand type s32[4] must have a float element type"));
}

}  // namespace
}  // namespace tessel
