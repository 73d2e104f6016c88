// Tests of where a GraphBuilder program says its ops come from: the C++ line of each call
// (CallSite), inside region callbacks and for ops the builder makes on the caller's behalf,
// kept under names, in the builder's errors and in PartitionResult's records.
//
// Expected lines come from __LINE__ here: `const int line = __LINE__ + 1;` names the line
// below it. Columns are dropped before comparing (WithoutColumns): clang records them and
// gcc 12 does not.
#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Location.h"
#include "partitioner/api/call_site.h"
#include "partitioner/api/graph_builder.h"
#include "partitioner/api/graph_builder_test_util.h"
#include "partitioner/api/partition.h"
#include "partitioner/api/program_mlir.h"
#include "support/status_matchers.h"

namespace tessel {
namespace {

using ::tessel::testing::F32;
using ::tessel::testing::IsOk;
using ::tessel::testing::S32;
using ::testing::StartsWith;

// "<this file>:<line>": a call on `line` of this file, as recorded without a column.
std::string Site(int line) { return absl::StrCat(__FILE__, ":", line); }

std::string Lines(const std::string& text) { return testing::WithoutColumns(text, __FILE__); }

// The op named `name` ("hlo.max") that comes first in `program`, or null.
mlir::Operation* FirstOp(const Program& program, llvm::StringRef name) {
  mlir::Operation* found = nullptr;
  GetMlirModule(program).walk([&](mlir::Operation* op) {
    if (!found && op->getName().getStringRef() == name) found = op;
  });
  return found;
}

// The line of `loc`'s file position, or -1 if it has none in this file.
int LineIn(mlir::Location loc) {
  auto file = loc->findInstanceOf<mlir::FileLineColLoc>();
  if (!file || file.getFilename().getValue() != __FILE__) return -1;
  return static_cast<int>(file.getLine());
}

TEST(CallSiteTest, CurrentIsWhereItIsWritten) {
  const int line = __LINE__ + 1;
  CallSite site = CallSite::Current();
  EXPECT_TRUE(site.known());
  EXPECT_STREQ(site.file(), __FILE__);
  EXPECT_EQ(site.line(), line);
  EXPECT_EQ(Lines(site.ToString()), Site(line));
}

TEST(CallSiteTest, PrintsFileLineAndColumnWhenKnown) {
  EXPECT_FALSE(CallSite().known());
  EXPECT_EQ(CallSite().ToString(), "");
  EXPECT_EQ(CallSite("model.cc", 42, 7).ToString(), "model.cc:42:7");
  EXPECT_EQ(CallSite("model.cc", 42).ToString(), "model.cc:42");
}

// The records of Partition name each op by the line that made it, and the explanation's
// path goes through those lines.
TEST(GraphBuilderLocationTest, RecordsNameTheLinesThatMadeTheOps) {
  Mesh mesh = *Mesh::Create({{"x", 2}});
  GraphBuilder b;
  Value x = b.Parameter(F32({4, 8}), *Sharding::Create(mesh, {"x", Replicated()}));
  Value w = b.Parameter(F32({8, 2}));
  const int dot_line = __LINE__ + 1;
  Value h = b.MatMul(x, w);
  const int exp_line = __LINE__ + 1;
  Value e = b.Exp(h);
  absl::StatusOr<Program> program = b.Build({e});
  ASSERT_THAT(program, IsOk());
  absl::StatusOr<PartitionResult> result = Partition(*program);
  ASSERT_THAT(result, IsOk());
  ASSERT_EQ(result->op_results.size(), 2u);
  EXPECT_EQ(Lines(result->op_results[0].location), Site(dot_line));
  EXPECT_EQ(Lines(result->op_results[0].name()),
            absl::StrCat("hlo.dot_general (op 0) at ", Site(dot_line)));
  EXPECT_EQ(Lines(result->op_results[1].location), Site(exp_line));
  // x's rows are split; the split reaches the exp through the dot.
  EXPECT_EQ(Lines(result->op_results[1].explanation.ToString()),
            absl::StrCat("argument 0 of @main via hlo.dot_general (", Site(dot_line),
                         "), hlo.exp (", Site(exp_line), ")"));
}

// Ops made for the caller (a built-in reducer's identity constant and its region, a sort's
// comparator, a mesh, the return) and the arguments of their regions take the caller's
// line, never the builder's own source.
TEST(GraphBuilderLocationTest, OpsMadeOnTheCallersBehalfTakeTheCallersLine) {
  Mesh mesh = *Mesh::Create({{"x", 2}});
  Window pairs;
  pairs.strides = {1, 2};
  const int builder_line = __LINE__ + 1;
  GraphBuilder b;
  const int x_line = __LINE__ + 1;
  Value x = b.Parameter(F32({4, 8}), *Sharding::Create(mesh, {"x", Replicated()}));
  const int reduce_line = __LINE__ + 1;
  Value sum = b.Reduce(x, ReduceKind::kSum, {1});
  const int pool_line = __LINE__ + 1;
  Value pooled = b.ReduceWindow(x, ReduceKind::kMax, {1, 2}, pairs);
  const int grad_line = __LINE__ + 1;
  Value grad = b.SelectAndScatter(x, pooled, b.ScalarConstant(ElementType::kF32, 0), {1, 2}, pairs,
                                  ComparisonDirection::kGe, ReduceKind::kSum);
  const int sort_line = __LINE__ + 1;
  Value sorted = b.Sort(x, 1, ComparisonDirection::kGt);
  const int build_line = __LINE__ + 1;
  absl::StatusOr<Program> program = b.Build({sum, grad, sorted});
  ASSERT_THAT(program, IsOk());

  const std::vector<int> lines = {builder_line, x_line,    reduce_line, pool_line,
                                  grad_line,    sort_line, build_line};
  auto expected = [&](int line) {
    return std::find(lines.begin(), lines.end(), line) != lines.end();
  };
  GetMlirModule(*program).walk([&](mlir::Operation* op) {
    EXPECT_TRUE(expected(LineIn(op->getLoc())))
        << op->getName().getStringRef().str() << " is at " << LineIn(op->getLoc());
    for (mlir::Region& region : op->getRegions()) {
      for (mlir::BlockArgument argument : region.getArguments()) {
        EXPECT_TRUE(expected(LineIn(argument.getLoc())))
            << "an argument of " << op->getName().getStringRef().str();
      }
    }
  });
  // The reduce, its identity constant (the first constant) and its reducer's ops are all
  // on the Reduce line.
  mlir::Operation* reduce = FirstOp(*program, "hlo.reduce");
  ASSERT_NE(reduce, nullptr);
  reduce->walk([&](mlir::Operation* op) { EXPECT_EQ(LineIn(op->getLoc()), reduce_line); });
  EXPECT_EQ(LineIn(FirstOp(*program, "hlo.constant")->getLoc()), reduce_line);
  mlir::Operation* comparator = FirstOp(*program, "hlo.compare");
  ASSERT_NE(comparator, nullptr);
  EXPECT_EQ(LineIn(comparator->getLoc()), grad_line);
  EXPECT_EQ(LineIn(FirstOp(*program, "tessel.mesh")->getLoc()), x_line);
  EXPECT_EQ(LineIn(FirstOp(*program, "func.return")->getLoc()), build_line);
}

// A callback's ops are where the callback makes them; the op that owns the region is where
// the call that takes the callback starts.
TEST(GraphBuilderLocationTest, RegionCallbacksOpsHaveTheirOwnLines) {
  GraphBuilder b;
  Value values = b.Parameter(F32({8}));
  int compare_line = 0;
  int select_line = 0;
  const int reduce_line = __LINE__ + 1;
  std::vector<Value> max_and_index = b.Reduce(
      {values, b.Iota(TensorType(ElementType::kS32, {8}), 0)},
      {b.ScalarConstant(ElementType::kF32, -1e30), b.ScalarConstant(ElementType::kS32, 0)},
      /*dimensions=*/{0}, [&](GraphBuilder& r, absl::Span<const Value> args) -> std::vector<Value> {
        compare_line = __LINE__ + 1;
        Value keep = r.Compare(args[0], args[2], ComparisonDirection::kGe);
        select_line = __LINE__ + 1;
        return {r.Select(keep, args[0], args[2]), r.Select(keep, args[1], args[3])};
      });
  absl::StatusOr<Program> program = b.Build(max_and_index);
  ASSERT_THAT(program, IsOk());
  EXPECT_EQ(LineIn(FirstOp(*program, "hlo.reduce")->getLoc()), reduce_line);
  EXPECT_EQ(LineIn(FirstOp(*program, "hlo.compare")->getLoc()), compare_line);
  EXPECT_EQ(LineIn(FirstOp(*program, "hlo.select")->getLoc()), select_line);
}

TEST(GraphBuilderLocationTest, TheErrorNamesTheFailingCall) {
  GraphBuilder b;
  Value a = b.Parameter(F32({4}));
  Value c = b.Parameter(F32({5}));
  const int add_line = __LINE__ + 1;
  Value sum = b.Add(a, c);
  b.Mul(sum, sum);  // does nothing: the first error stays
  const std::string expected =
      absl::StrCat(Site(add_line), ": add: operand shapes f32[4] and f32[5] differ");
  EXPECT_EQ(Lines(std::string(b.status().message())), expected);
  absl::StatusOr<Program> program = b.Build({sum});
  EXPECT_EQ(program.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(Lines(std::string(program.status().message())), expected);
}

TEST(GraphBuilderLocationTest, AnErrorInACallbackNamesTheCallbacksLine) {
  GraphBuilder b;
  Value x = b.Parameter(F32({4}));
  int bad_line = 0;
  b.Reduce({x}, {b.ScalarConstant(ElementType::kF32, 0)}, {0},
           [&](GraphBuilder& r, absl::Span<const Value> args) -> std::vector<Value> {
             bad_line = __LINE__ + 1;
             return {r.Add(args[0], r.ScalarConstant(ElementType::kS32, 1))};
           });
  EXPECT_EQ(Lines(std::string(b.status().message())),
            absl::StrCat(Site(bad_line), ": add: operand shapes f32[] and s32[] differ"));
}

// CallSite() says "no place": the op's location is unknown and the error has no prefix, as
// for code that builds on behalf of a source without C++ lines.
TEST(GraphBuilderLocationTest, AnUnknownSiteLeavesOpsAndErrorsUnlocated) {
  GraphBuilder b;
  Value a = b.Parameter(F32({4}), std::nullopt, CallSite());
  b.Add(a, b.Parameter(F32({5})), CallSite());
  EXPECT_EQ(b.status().message(), "add: operand shapes f32[4] and f32[5] differ");
  GraphBuilder good;
  Value p = good.Parameter(F32({4}), std::nullopt, CallSite());
  absl::StatusOr<Program> program = good.Build({good.Exp(p, CallSite())});
  ASSERT_THAT(program, IsOk());
  EXPECT_TRUE(mlir::isa<mlir::UnknownLoc>(FirstOp(*program, "hlo.exp")->getLoc()));
}

// A name wraps the place the value was made, so the records show both.
TEST(GraphBuilderLocationTest, NamedValuesKeepTheirNameAndLine) {
  Mesh mesh = *Mesh::Create({{"x", 4}});
  GraphBuilder b;
  const int tokens_line = __LINE__ + 1;
  Value v = b.Named("tokens", b.Parameter(S32({16}), *Sharding::Create(mesh, {"x"})));
  const int doubled_line = __LINE__ + 1;
  Value doubled = b.Named("doubled", b.Add(v, v));
  const int grid_line = __LINE__ + 1;
  Value grid = b.Named("grid", b.Reshape(doubled, {2, 8}));
  absl::StatusOr<Program> program = b.Build({grid}, {*Sharding::Create(mesh, {"x", Replicated()})});
  ASSERT_THAT(program, IsOk());

  mlir::BlockArgument argument =
      GetMlirModule(*program).lookupSymbol<mlir::func::FuncOp>("main").getArgument(0);
  auto name = mlir::dyn_cast<mlir::NameLoc>(argument.getLoc());
  ASSERT_TRUE(name);
  EXPECT_EQ(name.getName().getValue(), "tokens");
  EXPECT_EQ(LineIn(name.getChildLoc()), tokens_line);

  absl::StatusOr<PartitionResult> result = Partition(*program);
  ASSERT_THAT(result, IsOk());
  EXPECT_EQ(result->parameters[0].name(), "tokens = parameter 0");
  ASSERT_EQ(result->op_results.size(), 2u);
  EXPECT_EQ(result->op_results[0].source_name, "doubled");
  EXPECT_EQ(Lines(result->op_results[0].name()),
            absl::StrCat("doubled = hlo.add (op 0) at ", Site(doubled_line)));
  ASSERT_EQ(result->op_results[0].explanation.path.size(), 1u);
  EXPECT_EQ(Lines(result->op_results[0].explanation.path[0]),
            absl::StrCat("hlo.add ('doubled' at ", Site(doubled_line), ")"));
  // The reshape cannot keep the split (partition_test's ReshapeAcrossFactors): its fallback
  // warning names the value and its line.
  ASSERT_EQ(result->fallback_warnings.size(), 1u);
  EXPECT_EQ(Lines(result->fallback_warnings[0].location),
            absl::StrCat("'grid' at ", Site(grid_line)));
  EXPECT_THAT(Lines(result->fallback_warnings[0].ToString()),
              StartsWith(absl::StrCat("'grid' at ", Site(grid_line),
                                      ": 'hlo.reshape' is partitioned by replication")));
}

// The text with locations keeps names and lines: a program read back from it names its
// values as the builder did, so tools that read files (tessel explain, viz) can too.
TEST(GraphBuilderLocationTest, TextWithLocationsKeepsNamesAndLines) {
  Mesh mesh = *Mesh::Create({{"x", 4}});
  GraphBuilder b;
  Value v = b.Parameter(S32({16}), *Sharding::Create(mesh, {"x"}));
  const int doubled_line = __LINE__ + 1;
  Value doubled = b.Named("doubled", b.Add(v, v));
  absl::StatusOr<Program> program = b.Build({doubled});
  ASSERT_THAT(program, IsOk());
  EXPECT_EQ(program->ToMlirText().find("loc("), std::string::npos);

  const std::string text = program->ToMlirTextWithLocations();
  EXPECT_NE(text.find("\"doubled\""), std::string::npos) << text;
  absl::StatusOr<Program> reread = Program::FromMlirText(text);
  ASSERT_THAT(reread, IsOk());
  EXPECT_EQ(reread->ToMlirTextWithLocations(), text);
  absl::StatusOr<PartitionResult> result = Partition(*reread);
  ASSERT_THAT(result, IsOk());
  ASSERT_EQ(result->op_results.size(), 1u);
  EXPECT_EQ(result->op_results[0].source_name, "doubled");
  EXPECT_EQ(Lines(result->op_results[0].name()),
            absl::StrCat("doubled = hlo.add (op 0) at ", Site(doubled_line)));
}

// Naming again replaces the name and keeps the place; a failed Named names its own line.
TEST(GraphBuilderLocationTest, RenamingKeepsThePlaceAndNamedErrorsAreLocated) {
  GraphBuilder b;
  Value e = b.Exp(b.Parameter(F32({4})));
  const int empty_line = __LINE__ + 1;
  b.Named("", e);
  EXPECT_EQ(Lines(std::string(b.status().message())),
            absl::StrCat(Site(empty_line), ": named: the name is empty"));

  GraphBuilder c;
  const int f_line = __LINE__ + 1;
  Value f = c.Exp(c.Parameter(F32({4})));
  c.Named("first", f);
  c.Named("second", f);
  absl::StatusOr<Program> program = c.Build({f});
  ASSERT_THAT(program, IsOk());
  auto name = mlir::dyn_cast<mlir::NameLoc>(FirstOp(*program, "hlo.exp")->getLoc());
  ASSERT_TRUE(name);
  EXPECT_EQ(name.getName().getValue(), "second");
  EXPECT_EQ(LineIn(name.getChildLoc()), f_line);
}

// Where the compiler gives columns (clang), ops carry them.
TEST(GraphBuilderLocationTest, ColumnsComeWithTheCompilersThatGiveThem) {
  GraphBuilder b;
  Value e = b.Exp(b.Parameter(F32({4})));
  absl::StatusOr<Program> program = b.Build({e});
  ASSERT_THAT(program, IsOk());
  auto file = FirstOp(*program, "hlo.exp")->getLoc()->findInstanceOf<mlir::FileLineColLoc>();
  ASSERT_TRUE(file);
  if (CallSite::Current().column() > 0) {
    EXPECT_GT(file.getColumn(), 0u);
  } else {
    EXPECT_EQ(file.getColumn(), 0u);
  }
}

}  // namespace
}  // namespace tessel
