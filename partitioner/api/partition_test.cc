// Tests of Partition(), Run() and Verify(): the per-value shardings and their origins, the
// fallback warnings, the collective summary, partitioned runs against single-device runs,
// and misuse reported as a Status.
#include "partitioner/api/partition.h"

#include <iostream>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "partitioner/api/graph_builder.h"
#include "partitioner/api/graph_builder_test_util.h"
#include "partitioner/api/run.h"
#include "partitioner/api/verify.h"
#include "support/status_matchers.h"

namespace tessel {
namespace {

using ::tessel::testing::F32;
using ::tessel::testing::IsOk;
using ::tessel::testing::S32;
using ::tessel::testing::StatusIs;
using ::tessel::testing::WithoutColumns;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::StartsWith;
constexpr absl::StatusCode kInvalid = absl::StatusCode::kInvalidArgument;

// x[16,64] @ w1[64,256] -> relu -> @ w2[256,64] on a 1-D "model" mesh, w1 split by columns
// and w2 by rows: one all_reduce.
Program Mlp(int64_t devices) {
  Mesh mesh = *Mesh::Create({{"model", devices}});
  GraphBuilder b;
  Value x = b.Parameter(F32({16, 64}));
  Value w1 = b.Parameter(F32({64, 256}), *Sharding::Create(mesh, {Replicated(), "model"}));
  Value w2 = b.Parameter(F32({256, 64}), *Sharding::Create(mesh, {"model", Replicated()}));
  Value h = b.MatMul(x, w1);
  Value relu = b.Max(h, b.BroadcastInDim(b.ScalarConstant(ElementType::kF32, 0), {16, 256}, {}));
  return *b.Build({b.MatMul(relu, w2)});
}

TEST(PartitionTest, MlpRecordsShardingsAndOneAllReduce) {
  Program program = Mlp(4);
  absl::StatusOr<PartitionResult> result = Partition(program);
  ASSERT_THAT(result, IsOk());
  EXPECT_EQ(result->num_partitions, 4);
  EXPECT_TRUE(result->program.is_partitioned());
  EXPECT_EQ(result->program.num_partitions(), 4);
  EXPECT_THAT(result->program.global_parameter_types(),
              ElementsAre(F32({16, 64}), F32({64, 256}), F32({256, 64})));
  EXPECT_THAT(result->program.parameter_types(),
              ElementsAre(F32({16, 64}), F32({64, 64}), F32({64, 64})));
  ASSERT_EQ(result->parameters.size(), 3u);
  EXPECT_EQ(result->parameters[1].ToString(),
            "parameter 1 f32[64,256]: #tessel.sharding<@mesh, [{}, {\"model\"}]>");
  EXPECT_EQ(result->parameters[1].explanation.ToString(), "argument 1 of @main");
  // The first dot's result is split by columns, as w1 is.
  ASSERT_FALSE(result->op_results.empty());
  const ShardedValue& dot = result->op_results[0];
  EXPECT_EQ(dot.op_name, "hlo.dot_general");
  EXPECT_EQ(dot.index, 0);
  // The builder made the dot on a line of this file (graph_builder_locations_test checks
  // which).
  EXPECT_THAT(dot.location, StartsWith(absl::StrCat(__FILE__, ":")));
  EXPECT_EQ(dot.ToString(),
            absl::StrCat("hlo.dot_general (op 0) at ", dot.location,
                         " f32[16,256]: #tessel.sharding<@mesh, [{}, {\"model\"}]>"));
  EXPECT_THAT(dot.explanation.ToString(), HasSubstr("argument 1 of @main"));
  ASSERT_EQ(result->results.size(), 1u);
  EXPECT_EQ(result->results[0].type, F32({16, 64}));
  EXPECT_TRUE(result->fallback_warnings.empty());
  EXPECT_EQ(result->collectives.count("all_reduce"), 1);
  EXPECT_EQ(result->collectives.total_count(), 1);
  EXPECT_EQ(result->collectives.bytes_per_device("all_reduce"), 16 * 64 * 4);
  EXPECT_EQ(result->collectives.ToString(),
            "all_reduce over \"model\": 1 (4096 bytes per device)");

  absl::StatusOr<VerifyReport> report = Verify(program, *result, /*seed=*/3);
  ASSERT_THAT(report, IsOk());
  EXPECT_TRUE(report->ok()) << *report;
  EXPECT_EQ(report->num_partitions, 4);
  EXPECT_THAT(report->ToString(), HasSubstr("verified on 4 devices: 1 of 1 results match"));
}

TEST(PartitionTest, TheInputProgramIsLeftUnchanged) {
  Program program = Mlp(2);
  std::string before = program.ToMlirText();
  ASSERT_THAT(Partition(program), IsOk());
  EXPECT_EQ(program.ToMlirText(), before);
  EXPECT_FALSE(program.is_partitioned());
}

TEST(PartitionTest, LoadedProgramsReportLocationsAndOrigins) {
  absl::StatusOr<Program> program = Program::FromMlirText(R"mlir(
tessel.mesh @mesh = <["x"=2]>
func.func @main(%a: tensor<8x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>},
                %b: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %0 = hlo.add %a, %b : tensor<8x4xf32>
  %1 = hlo.mul %0, %0 : tensor<8x4xf32>
  return %1 : tensor<8x4xf32>
})mlir");
  ASSERT_THAT(program, IsOk());
  absl::StatusOr<PartitionResult> result = Partition(*program);
  ASSERT_THAT(result, IsOk());
  ASSERT_EQ(result->op_results.size(), 2u);
  const ShardedValue& mul = result->op_results[1];
  EXPECT_EQ(mul.op_name, "hlo.mul");
  EXPECT_EQ(mul.location, "program.mlir:6:8");
  EXPECT_EQ(mul.name(), "hlo.mul (op 1) at program.mlir:6:8");
  EXPECT_EQ(mul.explanation.origin, "argument 0 of @main");
  EXPECT_THAT(mul.explanation.path,
              ElementsAre("hlo.add (program.mlir:5:8)", "hlo.mul (program.mlir:6:8)"));
  // %b had no sharding; propagation split it like %a.
  EXPECT_EQ(result->parameters[1].sharding->ToString(),
            "#tessel.sharding<@mesh, [{\"x\"}, {}]>");
  EXPECT_EQ(result->collectives.ToString(), "none");
  absl::StatusOr<VerifyReport> report = Verify(*program, *result, /*seed=*/1);
  ASSERT_THAT(report, IsOk());
  EXPECT_TRUE(report->ok()) << *report;
}

// The rows of a product split like one operand and its columns like the other: each axis
// of the explanation names its own annotation.
TEST(PartitionTest, ExplanationsSayWhereEachAxisCameFrom) {
  absl::StatusOr<Program> program = Program::FromMlirText(R"mlir(
tessel.mesh @mesh = <["data"=2, "model"=2]>
func.func @main(%x: tensor<8x16xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>},
                %w: tensor<16x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {"model"}]>})
    -> tensor<8x4xf32> {
  %y = hlo.dot_general %x, %w, lhs_contract = [1], rhs_contract = [0]
      : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
  return %y : tensor<8x4xf32>
})mlir");
  ASSERT_THAT(program, IsOk());
  absl::StatusOr<PartitionResult> result = Partition(*program);
  ASSERT_THAT(result, IsOk());
  ASSERT_EQ(result->op_results.size(), 1u);
  const Explanation& dot = result->op_results[0].explanation;
  ASSERT_EQ(dot.axes.size(), 2u);
  EXPECT_EQ(dot.axes[0].dimension, 0);
  EXPECT_EQ(dot.axes[0].axis, "data");
  EXPECT_EQ(dot.axes[0].origin, "argument 0 of @main");
  // The text names the dot's value %y; programs read from text keep that name.
  EXPECT_THAT(dot.axes[0].path, ElementsAre("hlo.dot_general ('y' at program.mlir:6:8)"));
  EXPECT_EQ(dot.axes[1].dimension, 1);
  EXPECT_EQ(dot.axes[1].axis, "model");
  EXPECT_EQ(dot.axes[1].origin, "argument 1 of @main");
  ASSERT_EQ(result->parameters[0].explanation.axes.size(), 1u);
  EXPECT_TRUE(result->parameters[0].explanation.axes[0].path.empty());
}

// Names given in C++ label the records, the explanations' paths and the fallback warnings,
// with the line that made the value.
TEST(PartitionTest, BuilderNamesLabelTheRecords) {
  Mesh mesh = *Mesh::Create({{"x", 4}});
  GraphBuilder b;
  Value v = b.Named("tokens", b.Parameter(S32({16}), *Sharding::Create(mesh, {"x"})));
  const int doubled_line = __LINE__ + 1;
  Value doubled = b.Named("doubled", b.Add(v, v));
  const int grid_line = __LINE__ + 1;
  Value reshaped = b.Named("grid", b.Reshape(doubled, {2, 8}));
  auto lines = [](const std::string& text) { return WithoutColumns(text, __FILE__); };
  absl::StatusOr<Program> program =
      b.Build({reshaped}, {*Sharding::Create(mesh, {"x", Replicated()})});
  ASSERT_THAT(program, IsOk());
  absl::StatusOr<PartitionResult> result = Partition(*program);
  ASSERT_THAT(result, IsOk());
  EXPECT_EQ(result->parameters[0].source_name, "tokens");
  EXPECT_EQ(result->parameters[0].name(), "tokens = parameter 0");
  ASSERT_EQ(result->op_results.size(), 2u);
  EXPECT_EQ(lines(result->op_results[0].name()),
            absl::StrCat("doubled = hlo.add (op 0) at ", __FILE__, ":", doubled_line));
  EXPECT_EQ(result->op_results[1].source_name, "grid");
  ASSERT_EQ(result->op_results[0].explanation.path.size(), 1u);
  EXPECT_EQ(lines(result->op_results[0].explanation.path[0]),
            absl::StrCat("hlo.add ('doubled' at ", __FILE__, ":", doubled_line, ")"));
  ASSERT_EQ(result->fallback_warnings.size(), 1u);
  EXPECT_EQ(lines(result->fallback_warnings[0].location),
            absl::StrCat("'grid' at ", __FILE__, ":", grid_line));
}

TEST(PartitionTest, BuilderNamesMustBeNewAndNonEmpty) {
  GraphBuilder b;
  Value v = b.Named("v", b.Parameter(F32({4})));
  b.Named("v", b.Exp(v));
  EXPECT_THAT(b.status(), StatusIs(absl::StatusCode::kInvalidArgument,
                                   "named: the name 'v' is given to another value already"));
  GraphBuilder c;
  c.Named("", c.Parameter(F32({4})));
  EXPECT_THAT(c.status(), StatusIs(absl::StatusCode::kInvalidArgument, "named: the name is empty"));
}

// A reshape of 16 elements split 4 ways into [2, 8] split 4 ways along the 2: no split of
// the operand maps onto the result's, so the partitioner gathers the operand.
Program ReshapeAcrossFactors() {
  Mesh mesh = *Mesh::Create({{"x", 4}});
  GraphBuilder b;
  Value v = b.Parameter(S32({16}), *Sharding::Create(mesh, {"x"}));
  Value reshaped = b.Reshape(v, {2, 8});
  return *b.Build({reshaped}, {*Sharding::Create(mesh, {"x", Replicated()})});
}

TEST(PartitionTest, FallbacksAreWarningsOrErrors) {
  Program program = ReshapeAcrossFactors();
  absl::StatusOr<PartitionResult> result = Partition(program);
  ASSERT_THAT(result, IsOk());
  ASSERT_EQ(result->fallback_warnings.size(), 1u);
  EXPECT_EQ(result->fallback_warnings[0].op_name, "hlo.reshape");
  EXPECT_THAT(result->fallback_warnings[0].message,
              HasSubstr("is partitioned by replication: 64 bytes"));
  absl::StatusOr<VerifyReport> report = Verify(program, *result, /*seed=*/5);
  ASSERT_THAT(report, IsOk());
  EXPECT_TRUE(report->ok()) << *report;
  EXPECT_THAT(report->ToString(), HasSubstr("result 0 s32[2,8]: matches exactly"));

  PartitionOptions strict;
  strict.replication_is_error = true;
  EXPECT_THAT(Partition(program, strict),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       "'hlo.reshape' would be partitioned by replication (64 bytes of split "
                       "operands gathered), which the options forbid"));
}

TEST(PartitionTest, PartitionedProgramsSurviveTextAndCannotBePartitionedAgain) {
  Program program = Mlp(2);
  absl::StatusOr<PartitionResult> result = Partition(program);
  ASSERT_THAT(result, IsOk());
  std::string text = result->program.ToMlirText();
  EXPECT_THAT(text, HasSubstr("tessel.partitioned = {num_partitions = 2 : i64"));
  absl::StatusOr<Program> reloaded = Program::FromMlirText(text);
  ASSERT_THAT(reloaded, IsOk());
  EXPECT_TRUE(reloaded->is_partitioned());
  EXPECT_EQ(reloaded->num_partitions(), 2);
  std::vector<HostTensor> inputs = RandomInputs(program, 9);
  absl::StatusOr<std::vector<HostTensor>> want = tessel::Run(program, inputs);
  absl::StatusOr<std::vector<HostTensor>> got = tessel::Run(*reloaded, inputs);
  ASSERT_THAT(want, IsOk());
  ASSERT_THAT(got, IsOk());
  EXPECT_EQ(got->at(0).shape(), want->at(0).shape());
  EXPECT_THAT(Partition(*reloaded), StatusIs(absl::StatusCode::kFailedPrecondition,
                                             "the program is partitioned already (for 2 "
                                             "devices)"));
}

TEST(PartitionTest, ProgramsWithoutAMeshRunOnOneDevice) {
  GraphBuilder b;
  Value x = b.Parameter(S32({3}));
  Program program = *b.Build({b.Add(x, x)});
  absl::StatusOr<PartitionResult> result = Partition(program);
  ASSERT_THAT(result, IsOk());
  EXPECT_EQ(result->num_partitions, 1);
  EXPECT_FALSE(result->program.is_partitioned());
  absl::StatusOr<std::vector<HostTensor>> out =
      tessel::Run(result->program, {*HostTensor::FromVector<int32_t>({3}, {1, 2, 3})});
  ASSERT_THAT(out, IsOk());
  EXPECT_THAT(out->at(0).ToVector<int32_t>(), ElementsAre(2, 4, 6));
}

TEST(RunTest, WrongInputsAreNamed) {
  Program program = Mlp(2);
  absl::StatusOr<PartitionResult> result = Partition(program);
  ASSERT_THAT(result, IsOk());
  std::vector<HostTensor> inputs = RandomInputs(program, 1);
  for (const Program* p : {&program, &result->program}) {
    EXPECT_THAT(tessel::Run(*p, {inputs[0]}),
                StatusIs(kInvalid, "the program takes 3 inputs but 1 were given"));
    std::vector<HostTensor> wrong_shape = inputs;
    wrong_shape[1] = HostTensor::Random(ElementType::kF32, {64, 255}, 1);
    EXPECT_THAT(tessel::Run(*p, wrong_shape),
                StatusIs(kInvalid, "input 1 is f32[64,255] but parameter 1 is f32[64,256]"));
    std::vector<HostTensor> wrong_type = inputs;
    wrong_type[2] = HostTensor::Random(ElementType::kF16, {256, 64}, 1);
    EXPECT_THAT(tessel::Run(*p, wrong_type),
                StatusIs(kInvalid, "input 2 is f16[256,64] but parameter 2 is f32[256,64]"));
    EXPECT_THAT(Verify(program, *result, wrong_type), StatusIs(kInvalid, "input 2 is f16"));
  }
}

// A loop that never ends: on one device, and on four where the devices then wait for each
// other in an all_reduce.
constexpr char kEndlessLoop[] = R"(
tessel.mesh @mesh = <["x"=4]>
func.func @main(%x: tensor<8xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}]>})
    -> tensor<8xf32> {
  %true = hlo.constant dense<true> : tensor<i1>
  %l = hlo.while(%s = %x) : tensor<8xf32>
  cond {
    hlo.return %true : tensor<i1>
  } do {
    %s1 = hlo.add %s, %s : tensor<8xf32>
    hlo.return %s1 : tensor<8xf32>
  }
  %sum = hlo.constant dense<0.0> : tensor<f32>
  %r = hlo.reduce(%l) init(%sum) dimensions = [0] : (tensor<8xf32>, tensor<f32>) -> tensor<f32> reducer {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = hlo.add %a, %b : tensor<f32>
    hlo.return %c : tensor<f32>
  }
  %out = hlo.broadcast_in_dim %r, dims = [] : (tensor<f32>) -> tensor<8xf32>
  return %out : tensor<8xf32>
})";

TEST(RunTest, TimeoutAndIterationLimitEndALoopThatNeverEnds) {
  absl::StatusOr<Program> program = Program::FromMlirText(kEndlessLoop);
  ASSERT_THAT(program, IsOk());
  absl::StatusOr<PartitionResult> partitioned = Partition(*program);
  ASSERT_THAT(partitioned, IsOk());
  EXPECT_TRUE(partitioned->program.is_partitioned());
  std::vector<HostTensor> inputs = {HostTensor::Random(ElementType::kF32, {8}, 1)};
  for (const Program* p : {&*program, &partitioned->program}) {
    RunOptions timeout;
    timeout.timeout = absl::Milliseconds(200);
    EXPECT_THAT(tessel::Run(*p, inputs, timeout),
                StatusIs(absl::StatusCode::kDeadlineExceeded, "hlo.while"));
    RunOptions iterations;
    iterations.max_while_iterations = 50;
    EXPECT_THAT(tessel::Run(*p, inputs, iterations),
                StatusIs(absl::StatusCode::kResourceExhausted, "max_while_iterations = 50"));
  }
  RunOptions invalid;
  invalid.timeout = absl::ZeroDuration();
  EXPECT_THAT(tessel::Run(*program, inputs, invalid), StatusIs(kInvalid, "timeout"));
}

TEST(VerifyTest, DifferentResultsAreReportedNotHidden) {
  Mesh mesh = *Mesh::Create({{"x", 2}});
  auto build = [&](bool subtract) {
    GraphBuilder b;
    Value x = b.Parameter(S32({4}), *Sharding::Create(mesh, {"x"}));
    Value y = b.Parameter(S32({4}));
    return *b.Build({subtract ? b.Sub(x, y) : b.Add(x, y)});
  };
  Program add = build(false);
  absl::StatusOr<PartitionResult> sub = Partition(build(true));
  ASSERT_THAT(sub, IsOk());
  std::vector<HostTensor> inputs = {*HostTensor::FromVector<int32_t>({4}, {1, 2, 3, 4}),
                                    *HostTensor::FromVector<int32_t>({4}, {1, 1, 1, 1})};
  absl::StatusOr<VerifyReport> report = Verify(add, *sub, inputs);
  ASSERT_THAT(report, IsOk());
  EXPECT_FALSE(report->ok());
  EXPECT_EQ(report->results[0].mismatch,
            "got s32[4] {0, 1, 2, 3}, expected s32[4] {2, 3, 4, 5}");
  EXPECT_THAT(report->ToString(), HasSubstr("verified on 2 devices: 0 of 1 results match"));

  absl::StatusOr<PartitionResult> other = Partition(Mlp(2));
  ASSERT_THAT(other, IsOk());
  EXPECT_THAT(Verify(add, *other, 1), StatusIs(kInvalid, "signature is not the original"));
}

TEST(MisuseTest, SpecsThatDoNotFitAreNamed) {
  Mesh mesh = *Mesh::Create({{"data", 2}});
  EXPECT_THAT(Sharding::Create(mesh, {"model"}),
              StatusIs(kInvalid, "dimension 0: axis \"model\" is not in mesh @mesh"));
  GraphBuilder b;
  b.Parameter(F32({4}), *Sharding::Create(mesh, {"data", Replicated()}));
  EXPECT_THAT(b.Build({}), StatusIs(kInvalid, "has 2 dimensions but f32[4] has rank 1"));
}

// The cost estimate comes with every partition: the Megatron MLP's one all_reduce is its
// communication, and a hardware spec that does not parse is named.
TEST(PartitionTest, EstimatesTheCostOfOneDevice) {
  Program program = Mlp(2);
  absl::StatusOr<PartitionResult> result = Partition(program);
  ASSERT_THAT(result, IsOk());
  EXPECT_GT(result->cost.flops, 0);
  EXPECT_GT(result->cost.peak_bytes, 0);
  EXPECT_GT(result->cost.communication_seconds, 0);
  EXPECT_DOUBLE_EQ(result->cost.step_seconds,
                   result->cost.compute_seconds + result->cost.communication_seconds);
  EXPECT_THAT(result->cost.table, HasSubstr("all_reduce"));

  PartitionOptions bad;
  bad.hardware_spec = "flops: 1";
  EXPECT_THAT(Partition(program, bad),
              StatusIs(absl::StatusCode::kInvalidArgument, "hardware_spec"));
}

}  // namespace
}  // namespace tessel
