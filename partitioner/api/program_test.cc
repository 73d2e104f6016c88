// Tests of Program: building, printing and parsing round trips, the signature accessors,
// loading errors, and the sharding and mesh checks at the program boundary.
#include "partitioner/api/program.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "partitioner/api/graph_builder.h"
#include "partitioner/api/graph_builder_test_util.h"
#include "partitioner/api/program_mlir.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/ir/parse_module.h"
#include "support/status_matchers.h"

namespace tessel {
namespace {

using ::tessel::testing::F32;
using ::tessel::testing::IsOk;
using ::tessel::testing::S32;
using ::tessel::testing::StatusIs;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
constexpr absl::StatusCode kInvalid = absl::StatusCode::kInvalidArgument;

class ProgramTest : public ::testing::Test {
 protected:
  Mesh mesh_ = *Mesh::Create({{"data", 4}, {"model", 2}});
  Sharding rows_ = *Sharding::Create(mesh_, {"data", Replicated()});
  Sharding columns_ = *Sharding::Create(mesh_, {Replicated(), DimSpec("model").WithPriority(1)});
};

TEST_F(ProgramTest, BuiltTextParsesBackToTheSameText) {
  GraphBuilder b;
  Value x = b.Parameter(F32({8, 4}), rows_);
  Value w = b.Parameter(F32({4, 6}), columns_);
  Value y = b.MatMul(x, w);
  Value total = b.Reduce(y, ReduceKind::kSum, {0, 1});
  std::vector<Value> loop = b.While(
      {total},
      [](GraphBuilder& c, absl::Span<const Value> s) {
        return std::vector<Value>{c.Compare(s[0], s[0], ComparisonDirection::kNe)};
      },
      [](GraphBuilder& c, absl::Span<const Value> s) { return std::vector<Value>{c.Neg(s[0])}; });
  absl::StatusOr<Program> built = b.Build({y, loop[0]}, {rows_, std::nullopt});
  ASSERT_THAT(built, IsOk());
  std::string text = built->ToMlirText();
  absl::StatusOr<Program> parsed = Program::FromMlirText(text);
  ASSERT_THAT(parsed, IsOk());
  EXPECT_EQ(parsed->ToMlirText(), text);
  EXPECT_THAT(text, HasSubstr("tessel.mesh @mesh = <[\"data\"=4, \"model\"=2]>"));
  EXPECT_THAT(text, HasSubstr("%arg1: tensor<4x6xf32> {tessel.sharding = "
                              "#tessel.sharding<@mesh, [{}, {\"model\"}p1]>}"));
}

TEST_F(ProgramTest, SignatureAccessorsReportTypesShardingsAndMeshes) {
  GraphBuilder b;
  Value x = b.Parameter(F32({8, 4}), rows_);
  Value n = b.Parameter(S32({}));
  absl::StatusOr<Program> program = b.Build({x, n}, {std::nullopt, Sharding::Replicated(mesh_, 0)});
  ASSERT_THAT(program, IsOk());
  EXPECT_EQ(program->entry_function(), "main");
  EXPECT_THAT(program->parameter_types(), ElementsAre(F32({8, 4}), S32({})));
  EXPECT_THAT(program->result_types(), ElementsAre(F32({8, 4}), S32({})));
  absl::StatusOr<std::vector<std::optional<Sharding>>> parameters = program->parameter_shardings();
  ASSERT_THAT(parameters, IsOk());
  EXPECT_THAT(*parameters, ElementsAre(std::optional<Sharding>(rows_), std::nullopt));
  absl::StatusOr<std::vector<std::optional<Sharding>>> results = program->result_shardings();
  ASSERT_THAT(results, IsOk());
  EXPECT_THAT(*results,
              ElementsAre(std::nullopt, std::optional<Sharding>(Sharding::Replicated(mesh_, 0))));
  EXPECT_THAT(program->meshes(), ElementsAre(mesh_));
}

TEST_F(ProgramTest, MeshesWithDeviceOrderAndSeveralMeshesRoundTrip) {
  Mesh ring = *Mesh::CreateNamed("ring", {{"x", 4}}, {0, 2, 3, 1});
  GraphBuilder b;
  Value x = b.Parameter(F32({8}), *Sharding::Create(ring, {"x"}));
  Value y = b.Parameter(F32({8}), *Sharding::Create(mesh_, {Axes({"model", "data"})}));
  absl::StatusOr<Program> program = b.Build({b.Add(x, y)});
  ASSERT_THAT(program, IsOk());
  EXPECT_THAT(program->meshes(), ElementsAre(ring, mesh_));
  EXPECT_THAT(program->ToMlirText(),
              HasSubstr("tessel.mesh @ring = <[\"x\"=4], device_ids=[0, 2, 3, 1]>"));
  absl::StatusOr<Program> parsed = Program::FromMlirText(program->ToMlirText());
  ASSERT_THAT(parsed, IsOk());
  EXPECT_THAT(parsed->meshes(), ElementsAre(ring, mesh_));
}

TEST_F(ProgramTest, ShardingConstraintPinsASharding) {
  GraphBuilder b;
  Value x = b.Parameter(F32({8, 4}));
  Value pinned = b.ShardingConstraint(x, columns_);
  EXPECT_EQ(pinned.type(), F32({8, 4}));
  absl::StatusOr<Program> program = b.Build({pinned});
  ASSERT_THAT(program, IsOk());
  EXPECT_THAT(program->ToMlirText(),
              HasSubstr("tessel.sharding_constraint %arg0 <@mesh, [{}, {\"model\"}p1]>"));
}

TEST_F(ProgramTest, ShardingsOfTheWrongRankAreRejectedWhereTheyAreAttached) {
  {
    GraphBuilder b;
    b.Parameter(F32({8}), rows_);
    EXPECT_THAT(b.status(), StatusIs(kInvalid,
                                     "parameter: sharding #tessel.sharding<@mesh, "
                                     "[{\"data\"}, {}]> has 2 dimensions but f32[8] has rank 1"));
  }
  {
    GraphBuilder b;
    b.ShardingConstraint(b.Parameter(F32({8})), rows_);
    EXPECT_THAT(b.status(), StatusIs(kInvalid, "sharding_constraint: sharding"));
  }
  {
    GraphBuilder b;
    Value x = b.Parameter(F32({8}));
    EXPECT_THAT(b.Build({x}, {rows_}), StatusIs(kInvalid, "build: result 0: sharding"));
  }
}

TEST_F(ProgramTest, ResultShardingsMustMatchTheResults) {
  GraphBuilder b;
  Value x = b.Parameter(F32({8, 4}));
  EXPECT_THAT(b.Build({x, x}, {rows_}),
              StatusIs(kInvalid, "build: got 2 results but 1 result shardings"));
}

TEST_F(ProgramTest, TwoMeshesMayNotShareAName) {
  Mesh other = *Mesh::Create({{"data", 8}});
  GraphBuilder b;
  b.Parameter(F32({8, 4}), rows_);
  b.Parameter(F32({8}), *Sharding::Create(other, {"data"}));
  EXPECT_THAT(b.status(), StatusIs(kInvalid,
                                   "parameter: mesh @mesh = <[\"data\"=8]> has the name "
                                   "of mesh @mesh = <[\"data\"=4, \"model\"=2]> used before"));
}

TEST_F(ProgramTest, BuildEndsTheBuilder) {
  GraphBuilder b;
  Value x = b.Parameter(F32({4}));
  ASSERT_THAT(b.Build({x}), IsOk());
  EXPECT_THAT(b.Build({x}),
              StatusIs(absl::StatusCode::kFailedPrecondition, "Build() was called already"));
  EXPECT_FALSE(b.Neg(x).valid());
}

TEST_F(ProgramTest, BuildRejectsInvalidResults) {
  GraphBuilder b;
  EXPECT_THAT(b.Build({Value()}), StatusIs(kInvalid, "build: result 0 is an invalid Value"));
}

TEST_F(ProgramTest, ProgramsMayHaveNoParametersOrResults) {
  GraphBuilder b;
  absl::StatusOr<Program> program = b.Build({});
  ASSERT_THAT(program, IsOk());
  EXPECT_TRUE(program->parameter_types().empty());
  EXPECT_THAT(program->ToMlirText(), HasSubstr("func.func @main() {"));
}

TEST(ProgramLoadTest, MalformedTextReportsTheLocation) {
  EXPECT_THAT(Program::FromMlirText("func.func @main( {"), StatusIs(kInvalid, "program.mlir:1:"));
}

TEST(ProgramLoadTest, ReadsStableHloWithShardyAnnotations) {
  // What jax.jit(f).lower(...).as_text() prints for tanh(x) with x split over "data".
  absl::StatusOr<Program> program = Program::FromMlirText(R"mlir(
    module @jit_f attributes {mhlo.num_partitions = 4 : i32} {
      sdy.mesh @mesh = <["data"=4]>
      func.func public @main(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>})
          -> (tensor<8x4xf32> {jax.result_info = "result"}) {
        %0 = stablehlo.tanh %arg0 : tensor<8x4xf32>
        return %0 : tensor<8x4xf32>
      }
    })mlir");
  ASSERT_THAT(program, IsOk());
  EXPECT_THAT(program->parameter_types(), ElementsAre(F32({8, 4})));
  absl::StatusOr<std::vector<std::optional<Sharding>>> parameters = program->parameter_shardings();
  ASSERT_THAT(parameters, IsOk());
  ASSERT_TRUE((*parameters)[0].has_value());
  EXPECT_THAT(program->ToMlirText(), HasSubstr("hlo.tanh"));
}

TEST(ProgramLoadTest, StableHloErrorsNameTheOp) {
  EXPECT_THAT(Program::FromMlirText("func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {\n"
                                    "  %0 = stablehlo.frobnicate %a : tensor<2xf32>\n"
                                    "  return %0 : tensor<2xf32>\n}"),
              StatusIs(kInvalid, "program.mlir:2:8: error: custom op 'stablehlo.frobnicate'"));
}

TEST(ProgramLoadTest, TheOnlyFunctionIsTheEntryWhenThereIsNoMain) {
  absl::StatusOr<Program> program = Program::FromMlirText(
      "func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> { return %a : tensor<2xf32> }");
  ASSERT_THAT(program, IsOk());
  EXPECT_EQ(program->entry_function(), "f");
  EXPECT_THAT(program->parameter_types(), ElementsAre(F32({2})));
}

TEST(ProgramLoadTest, RejectsAmbiguousEntriesAndUnsupportedTypes) {
  EXPECT_THAT(Program::FromMlirText("func.func @f() { return }\nfunc.func @g() { return }"),
              StatusIs(kInvalid, "program has no function @main and not exactly one function"));
  EXPECT_THAT(
      Program::FromMlirText(
          "func.func @main(%a: tensor<?xf32>) -> tensor<?xf32> { return %a : tensor<?xf32> }"),
      StatusIs(kInvalid,
               "parameter 0 of the entry function: type tensor<?xf32> is not a "
               "statically shaped tensor"));
  EXPECT_THAT(
      // complex<f16> has no runtime element type (c64 and c128 do).
      Program::FromMlirText("func.func @main(%a: tensor<2xcomplex<f16>>) -> "
                            "tensor<2xcomplex<f16>> { return %a : tensor<2xcomplex<f16>> }"),
      StatusIs(kInvalid, "parameter 0 of the entry function: "));
}

TEST(ProgramLoadTest, AMissingFileIsNotFound) {
  EXPECT_THAT(Program::FromMlirFile("/nonexistent/program.mlir"),
              StatusIs(absl::StatusCode::kNotFound, "/nonexistent/program.mlir"));
}

TEST(ProgramLoadTest, SubAxesBecomeAxisRefs) {
  absl::StatusOr<Program> program = Program::FromMlirText(R"mlir(
    tessel.mesh @mesh = <["x"=4, "y"=2]>
    func.func @main(%a: tensor<8x8xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x":(1)2}, {"x":(2)2, ?}], replicated={"y"}>})
        -> tensor<8x8xf32> {
      return %a : tensor<8x8xf32>
    })mlir");
  ASSERT_THAT(program, IsOk());
  absl::StatusOr<std::vector<std::optional<Sharding>>> shardings = program->parameter_shardings();
  ASSERT_THAT(shardings, IsOk());
  const Sharding& sharding = *(*shardings)[0];
  EXPECT_THAT(sharding.spec().dims()[0].axes(), ElementsAre(SubAxis("x", 1, 2)));
  EXPECT_EQ(sharding.num_shards(1), 2);
  EXPECT_EQ(sharding.ToString(),
            "#tessel.sharding<@mesh, [{\"x\":(1)2}, {\"x\":(2)2, ?}], replicated={\"y\"}>");
}

TEST(ProgramBuildTest, SubAxesRoundTripThroughTheBuilder) {
  Mesh mesh = *Mesh::Create({{"x", 8}});
  absl::StatusOr<Sharding> split = Sharding::Create(mesh, {SubAxis("x", 1, 2), SubAxis("x", 2, 4)});
  ASSERT_THAT(split, IsOk());
  GraphBuilder b;
  Value a = b.Parameter(F32({4, 8}), *split);
  absl::StatusOr<Program> program = b.Build({a}, {*split});
  ASSERT_THAT(program, IsOk());
  EXPECT_THAT(program->ToMlirText(),
              HasSubstr("#tessel.sharding<@mesh, [{\"x\":(1)2}, {\"x\":(2)4}]>"));
  absl::StatusOr<std::vector<std::optional<Sharding>>> results = program->result_shardings();
  ASSERT_THAT(results, IsOk());
  EXPECT_EQ(*(*results)[0], *split);
}

TEST(ProgramMlirTest, TheModuleIsReachableAndForeignModulesAreVerified) {
  absl::StatusOr<Program> program = Program::FromMlirText(
      "func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> { return %a : tensor<2xf32> }");
  ASSERT_THAT(program, IsOk());
  EXPECT_TRUE(GetMlirModule(*program).lookupSymbol<mlir::func::FuncOp>("main"));

  // A module built by hand with an iota whose dimension is out of range.
  auto context = std::make_unique<mlir::MLIRContext>();
  mlir::DialectRegistry registry;
  RegisterTesselDialects(registry);
  context->appendDialectRegistry(registry);
  context->loadAllAvailableDialects();
  mlir::OpBuilder builder(context.get());
  mlir::OwningOpRef<mlir::ModuleOp> module = mlir::ModuleOp::create(builder.getUnknownLoc());
  builder.setInsertionPointToEnd(module->getBody());
  auto type = mlir::RankedTensorType::get({4}, builder.getI32Type());
  auto main = builder.create<mlir::func::FuncOp>(builder.getUnknownLoc(), "main",
                                                 builder.getFunctionType({}, {type}));
  builder.setInsertionPointToEnd(main.addEntryBlock());
  mlir::Value iota = builder.create<hlo::IotaOp>(builder.getUnknownLoc(), type, 3);
  builder.create<mlir::func::ReturnOp>(builder.getUnknownLoc(), iota);
  EXPECT_THAT(ProgramFromMlir(std::move(context), std::move(module)),
              StatusIs(kInvalid, "program does not verify: 'hlo.iota' op"));
}

}  // namespace
}  // namespace tessel
