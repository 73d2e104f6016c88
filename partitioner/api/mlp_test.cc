// Builds the Megatron MLP of examples/mlp/mlp.mlir with the public API and checks that the
// program is the example's, op for op, type for type and sharding for sharding: both are
// parsed and printed by MLIR, which names values the same way, so equal text means equal
// programs up to the example's own value names and comments.
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "partitioner/api/graph_builder.h"
#include "partitioner/api/mesh.h"
#include "partitioner/api/program.h"
#include "partitioner/api/sharding.h"
#include "support/status_macros.h"
#include "support/status_matchers.h"

namespace tessel {
namespace {

using ::tessel::testing::IsOk;

// The MLP as a user would write it.
absl::StatusOr<Program> BuildMlp() {
  TESSEL_ASSIGN_OR_RETURN(Mesh mesh, Mesh::Create({{"data", 4}, {"model", 2}}));
  TESSEL_ASSIGN_OR_RETURN(Sharding batch, Sharding::Create(mesh, {"data", Replicated()}));
  TESSEL_ASSIGN_OR_RETURN(Sharding columns, Sharding::Create(mesh, {Replicated(), "model"}));
  TESSEL_ASSIGN_OR_RETURN(Sharding rows, Sharding::Create(mesh, {"model", Replicated()}));
  // The hidden activations stay split over "model"; the batch dimension is left open.
  TESSEL_ASSIGN_OR_RETURN(Sharding hidden,
                          Sharding::Create(mesh, {DimSpec("data").Open(), "model"}));

  GraphBuilder b;
  Value x = b.Parameter(TensorType(ElementType::kF32, {16, 64}), batch);
  Value w1 = b.Parameter(TensorType(ElementType::kF32, {64, 256}), columns);
  Value w2 = b.Parameter(TensorType(ElementType::kF32, {256, 64}), rows);
  Value h = b.ShardingConstraint(b.MatMul(x, w1), hidden);
  Value zeros = b.BroadcastInDim(b.ScalarConstant(ElementType::kF32, 0), {16, 256}, {});
  Value relu = b.Max(h, zeros);
  Value y = b.MatMul(relu, w2);
  return b.Build({y}, {batch});
}

TEST(MlpTest, TheBuiltProgramIsTheExample) {
  absl::StatusOr<Program> built = BuildMlp();
  ASSERT_THAT(built, IsOk());
  absl::StatusOr<Program> example = Program::FromMlirFile("examples/mlp/mlp.mlir");
  ASSERT_THAT(example, IsOk());
  EXPECT_EQ(built->ToMlirText(), example->ToMlirText());
}

TEST(MlpTest, TheSignatureCarriesTheShardings) {
  absl::StatusOr<Program> built = BuildMlp();
  ASSERT_THAT(built, IsOk());
  absl::StatusOr<std::vector<std::optional<Sharding>>> shardings = built->parameter_shardings();
  ASSERT_THAT(shardings, IsOk());
  ASSERT_EQ(shardings->size(), 3u);
  EXPECT_EQ((*shardings)[1]->ToString(), "#tessel.sharding<@mesh, [{}, {\"model\"}]>");
  // Each device holds a 64 x 128 piece of w1.
  EXPECT_EQ((*shardings)[1]->LocalShape(built->parameter_types()[1]),
            (std::vector<int64_t>{64, 128}));
}

}  // namespace
}  // namespace tessel
