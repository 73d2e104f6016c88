// Tests of Program::parameter_names, WithShardings and ToHloText: names from the source,
// shardings set at the boundary (the mesh declared where missing) and HLO export of the
// original and the partitioned program.
#include <optional>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "partitioner/api/partition.h"
#include "partitioner/api/program.h"
#include "partitioner/api/verify.h"
#include "support/status_matchers.h"

namespace tessel {
namespace {

using ::tessel::testing::IsOk;
using ::tessel::testing::StatusIs;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

// No mesh, no shardings: the caller says how to split it.
constexpr char kPlainDot[] = R"mlir(
func.func @main(%x: tensor<8x4xf32> loc("x"), %w: tensor<4x6xf32>) -> tensor<8x6xf32> {
  %y = hlo.dot_general %x, %w, lhs_contract = [1], rhs_contract = [0]
      : (tensor<8x4xf32>, tensor<4x6xf32>) -> tensor<8x6xf32>
  return %y : tensor<8x6xf32>
}
)mlir";

class ProgramEditTest : public ::testing::Test {
 protected:
  Mesh mesh_ = *Mesh::Create({{"data", 2}, {"model", 2}});
};

TEST_F(ProgramEditTest, ParameterNamesComeFromTheText) {
  // A name location, or the SSA name.
  absl::StatusOr<Program> program = Program::FromMlirText(kPlainDot);
  ASSERT_THAT(program, IsOk());
  EXPECT_THAT(program->parameter_names(), ElementsAre("x", "w"));
}

TEST_F(ProgramEditTest, LoadedTextNamesItsValues) {
  absl::StatusOr<Program> program = Program::FromMlirText(R"mlir(
func.func @main(%tokens: tensor<8xf32>, %arg1: tensor<8xf32>) -> tensor<8xf32> {
  %doubled = hlo.add %tokens, %tokens : tensor<8xf32>
  %0 = hlo.mul %doubled, %arg1 : tensor<8xf32>
  return %0 : tensor<8xf32>
}
)mlir");
  ASSERT_THAT(program, IsOk());
  // MLIR's own numbering (%arg1, %0) names nothing.
  EXPECT_THAT(program->parameter_names(), ElementsAre("tokens", ""));
  Mesh mesh = *Mesh::Create({{"x", 2}});
  absl::StatusOr<Program> annotated =
      program->WithShardings({*Sharding::Create(mesh, {"x"})});
  ASSERT_THAT(annotated, IsOk());
  absl::StatusOr<PartitionResult> result = Partition(*annotated);
  ASSERT_THAT(result, IsOk());
  EXPECT_EQ(result->parameters[0].name(), "tokens = parameter 0");
  ASSERT_EQ(result->op_results.size(), 2u);
  EXPECT_EQ(result->op_results[0].name(), "doubled = hlo.add (op 0) at program.mlir:3:14");
  EXPECT_EQ(result->op_results[1].source_name, "");
  // Locations in messages stay places in the file.
  EXPECT_EQ(result->op_results[0].location, "program.mlir:3:14");
}

TEST_F(ProgramEditTest, LoadedHloNamesItsValues) {
  absl::StatusOr<Program> program = Program::FromHloText(R"(HloModule m, entry_computation_layout={(f32[8]{0})->f32[8]{0}}

ENTRY main {
  x = f32[8]{0} parameter(0), sharding={devices=[2]<=[2]}
  ROOT twice = f32[8]{0} add(x, x)
}
)");
  ASSERT_THAT(program, IsOk());
  EXPECT_THAT(program->parameter_names(), ElementsAre("x"));
  absl::StatusOr<PartitionResult> result = Partition(*program);
  ASSERT_THAT(result, IsOk());
  ASSERT_EQ(result->op_results.size(), 1u);
  EXPECT_EQ(result->op_results[0].source_name, "twice");
}

TEST_F(ProgramEditTest, WithShardingsDeclaresTheMeshAndPartitions) {
  absl::StatusOr<Program> program = Program::FromMlirText(kPlainDot);
  ASSERT_THAT(program, IsOk());
  Sharding rows = *Sharding::Create(mesh_, {"data", Replicated()});
  Sharding columns = *Sharding::Create(mesh_, {Replicated(), "model"});
  absl::StatusOr<Program> annotated = program->WithShardings({rows, columns});
  ASSERT_THAT(annotated, IsOk());
  // The original is unchanged; the copy keeps the source names.
  EXPECT_TRUE(program->meshes().empty());
  ASSERT_EQ(annotated->meshes().size(), 1u);
  EXPECT_EQ(annotated->meshes()[0], mesh_);
  EXPECT_THAT(annotated->parameter_names(), ElementsAre("x", "w"));
  absl::StatusOr<std::vector<std::optional<Sharding>>> shardings =
      annotated->parameter_shardings();
  ASSERT_THAT(shardings, IsOk());
  EXPECT_EQ((*shardings)[0], rows);
  EXPECT_EQ((*shardings)[1], columns);

  absl::StatusOr<PartitionResult> partitioned = Partition(*annotated);
  ASSERT_THAT(partitioned, IsOk());
  EXPECT_EQ(partitioned->num_partitions, 4);
  absl::StatusOr<VerifyReport> report = Verify(*annotated, *partitioned, /*seed=*/3);
  ASSERT_THAT(report, IsOk());
  EXPECT_TRUE(report->ok()) << *report;
}

TEST_F(ProgramEditTest, WithShardingsKeepsWhatIsNotGiven) {
  absl::StatusOr<Program> program = Program::FromMlirText(kPlainDot);
  ASSERT_THAT(program, IsOk());
  Sharding rows = *Sharding::Create(mesh_, {"data", Replicated()});
  absl::StatusOr<Program> first = program->WithShardings({rows});
  ASSERT_THAT(first, IsOk());
  absl::StatusOr<Program> second =
      first->WithShardings({std::nullopt}, {*Sharding::Create(mesh_, {"data", "model"})});
  ASSERT_THAT(second, IsOk());
  EXPECT_EQ((*second->parameter_shardings())[0], rows);
  EXPECT_FALSE((*second->parameter_shardings())[1].has_value());
  EXPECT_TRUE((*second->result_shardings())[0].has_value());
}

TEST_F(ProgramEditTest, WithShardingsRejectsWhatDoesNotFit) {
  absl::StatusOr<Program> program = Program::FromMlirText(kPlainDot);
  ASSERT_THAT(program, IsOk());
  Sharding rank1 = *Sharding::Create(mesh_, {"data"});
  EXPECT_THAT(program->WithShardings({rank1}),
              StatusIs(absl::StatusCode::kInvalidArgument, "parameter 0"));
  Sharding rows = *Sharding::Create(mesh_, {"data", Replicated()});
  EXPECT_THAT(program->WithShardings({rows, rows, rows}),
              StatusIs(absl::StatusCode::kInvalidArgument, "3 parameter shardings"));
  // Another mesh under the program's mesh name.
  absl::StatusOr<Program> annotated = program->WithShardings({rows});
  ASSERT_THAT(annotated, IsOk());
  Mesh other = *Mesh::Create({{"data", 4}});
  EXPECT_THAT(annotated->WithShardings({*Sharding::Create(other, {"data", Replicated()})}),
              StatusIs(absl::StatusCode::kInvalidArgument, "another name"));
  absl::StatusOr<PartitionResult> partitioned = Partition(*annotated);
  ASSERT_THAT(partitioned, IsOk());
  EXPECT_THAT(partitioned->program.WithShardings({rows}),
              StatusIs(absl::StatusCode::kFailedPrecondition, "partitioned already"));
}

TEST_F(ProgramEditTest, ToHloTextExportsTheProgramAndItsPartition) {
  absl::StatusOr<Program> program = Program::FromMlirText(kPlainDot);
  ASSERT_THAT(program, IsOk());
  absl::StatusOr<std::string> hlo = program->ToHloText();
  ASSERT_THAT(hlo, IsOk());
  EXPECT_THAT(*hlo, HasSubstr("ENTRY"));
  EXPECT_THAT(*hlo, HasSubstr("dot("));
  absl::StatusOr<Program> annotated = program->WithShardings(
      {*Sharding::Create(mesh_, {Replicated(), "model"}),
       *Sharding::Create(mesh_, {"model", Replicated()})});
  ASSERT_THAT(annotated, IsOk());
  absl::StatusOr<PartitionResult> partitioned = Partition(*annotated);
  ASSERT_THAT(partitioned, IsOk());
  absl::StatusOr<std::string> partitioned_hlo = partitioned->program.ToHloText();
  ASSERT_THAT(partitioned_hlo, IsOk());
  // The collectives get explicit replica groups of the 4 devices.
  EXPECT_THAT(*partitioned_hlo, HasSubstr("num_partitions=4"));
  EXPECT_THAT(*partitioned_hlo, HasSubstr("replica_groups={{0,1},{2,3}}"));
  // The text imports again.
  EXPECT_THAT(Program::FromHloText(*hlo), IsOk());
}

}  // namespace
}  // namespace tessel
