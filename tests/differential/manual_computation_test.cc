// manual_computation partitioned and run on every device must equal a global program that
// computes the same thing without manual code: a twin written independently of the
// executor's manual-computation kernel (which runs the body per device the way the
// partitioned program does, and so would share its mistakes). Fully manual over 2 and 4
// devices; manual over "x" with "y" left automatic inside, where "y" divides the manual
// shard (2x2) and where it does not (2x3: 4 rows over "y"=3).
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "gtest/gtest.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "partitioner/ir/parse_module.h"
#include "partitioner/ir/tessel/tessel_ops.h"
#include "partitioner/propagation/propagate.h"
#include "partitioner/rules/sharding_rule_models.h"
#include "partitioner/spmd/partition.h"
#include "runtime/interpreter.h"
#include "runtime/random_inputs.h"
#include "runtime/sharded_tensors.h"
#include "runtime/spmd_runner.h"

namespace tessel {
namespace {

using runtime::Tensor;

// -a, and the column sums of a * a (a local reduce, then an all_reduce over the manual axis).
constexpr char kReference[] = R"(
func.func @main(%a: tensor<8x6xi32>) -> (tensor<8x6xi32>, tensor<6xi32>) {
  %n = hlo.neg %a : tensor<8x6xi32>
  %m = hlo.mul %a, %a : tensor<8x6xi32>
  %z = hlo.constant dense<0> : tensor<i32>
  %s = hlo.reduce(%m) init(%z) dimensions = [0] : (tensor<8x6xi32>, tensor<i32>) -> tensor<6xi32> reducer {
  ^bb0(%l: tensor<i32>, %q: tensor<i32>):
    %t = hlo.add %l, %q : tensor<i32>
    hlo.return %t : tensor<i32>
  }
  return %n, %s : tensor<8x6xi32>, tensor<6xi32>
})";

constexpr char kManual[] = R"(tessel.mesh @mesh = <MESH>
func.func @main(%a: tensor<8x6xi32>) -> (tensor<8x6xi32>, tensor<6xi32>) {
  %r:2 = tessel.manual_computation(%a) in_shardings=[<@mesh, [{IN}, {}]>] out_shardings=[<@mesh, [{"x"}, {OUT}]>, <@mesh, [{}]>] manual_axes={"x"} (%la: tensor<ROWSx6xi32>) {
    %n = hlo.neg %la : tensor<ROWSx6xi32>
    %m = hlo.mul %la, %la : tensor<ROWSx6xi32>
    %z = hlo.constant dense<0> : tensor<i32>
    %s = hlo.reduce(%m) init(%z) dimensions = [0] : (tensor<ROWSx6xi32>, tensor<i32>) -> tensor<6xi32> reducer {
    ^bb0(%l: tensor<i32>, %q: tensor<i32>):
      %t = hlo.add %l, %q : tensor<i32>
      hlo.return %t : tensor<i32>
    }
    %t = tessel.all_reduce %s over @mesh ["x"] kind = sum : tensor<6xi32>
    tessel.return %n, %t : tensor<ROWSx6xi32>, tensor<6xi32>
  } : (tensor<8x6xi32>) -> (tensor<8x6xi32>, tensor<6xi32>)
  return %r#0, %r#1 : tensor<8x6xi32>, tensor<6xi32>
})";

struct Case {
  std::string name;
  std::string mesh;
  std::string in;
  std::string out;
  int rows;
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

class ManualComputationTest : public ::testing::TestWithParam<Case> {};

TEST_P(ManualComputationTest, MatchesGlobalTwin) {
  const Case& c = GetParam();
  mlir::DialectRegistry registry;
  RegisterTesselDialects(registry);
  rules::registerShardingRuleModels(registry);
  mlir::MLIRContext context(registry);
  std::vector<Tensor> inputs = {runtime::RandomTensor(runtime::ElementType::kS32, {8, 6}, 31)};

  auto reference = ParseModule(kReference, "reference.mlir", context);
  ASSERT_TRUE(reference.ok()) << reference.status();
  runtime::Interpreter interpreter;
  auto expected = interpreter.RunFunction(
      (*reference)->lookupSymbol<mlir::func::FuncOp>("main"), inputs);
  ASSERT_TRUE(expected.ok()) << expected.status();

  const std::string text =
      absl::StrReplaceAll(kManual, {{"MESH", c.mesh},
                                    {"IN", c.in},
                                    {"OUT", c.out},
                                    {"ROWS", absl::StrCat(c.rows)}});
  auto module = ParseModule(text, "manual.mlir", context);
  ASSERT_TRUE(module.ok()) << module.status() << "\n" << text;
  ASSERT_TRUE(mlir::succeeded(propagation::propagateShardings(**module, {}, nullptr))) << text;
  ASSERT_TRUE(mlir::succeeded(spmd::partitionModule(**module))) << text;
  ASSERT_TRUE(mlir::succeeded(mlir::verify(**module))) << text;
  std::string partitioned;
  llvm::raw_string_ostream os(partitioned);
  (*module)->print(os);
  EXPECT_EQ(partitioned.find("tessel.manual_computation"), std::string::npos) << partitioned;

  auto main = (*module)->lookupSymbol<mlir::func::FuncOp>("main");
  ir::MeshAttr mesh = (*module)->lookupSymbol<ir::MeshOp>("mesh").getMesh();
  const int64_t devices = mesh.getTotalSize();
  std::vector<std::vector<Tensor>> perPartition(devices);
  auto argSharding =
      main.getArgAttrOfType<ir::ShardingAttr>(0, ir::TesselDialect::kShardingAttrName);
  for (int64_t p = 0; p < devices; ++p) {
    auto local = runtime::ShardTensor(inputs[0], argSharding, mesh, p);
    ASSERT_TRUE(local.ok()) << local.status();
    perPartition[p].push_back(*local);
  }
  auto outputs = runtime::RunSpmd(main, perPartition, devices);
  ASSERT_TRUE(outputs.ok()) << outputs.status() << "\n" << partitioned;
  for (size_t r = 0; r < expected->size(); ++r) {
    std::vector<Tensor> locals;
    for (int64_t p = 0; p < devices; ++p) locals.push_back((*outputs)[p][r]);
    auto sharding =
        main.getResultAttrOfType<ir::ShardingAttr>(r, ir::TesselDialect::kShardingAttrName);
    auto got = runtime::AssembleTensor(locals, sharding, mesh, (*expected)[r].shape());
    ASSERT_TRUE(got.ok()) << got.status() << "\n" << partitioned;
    EXPECT_TRUE(got->BitwiseEquals((*expected)[r]))
        << "result " << r << "\n" << got->ToString() << "\nvs\n"
        << (*expected)[r].ToString() << "\n" << partitioned;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Cases, ManualComputationTest,
    ::testing::Values(Case{"fully_manual_2", R"(["x"=2])", R"("x")", "", 4},
                      Case{"fully_manual_4", R"(["x"=4])", R"("x")", "", 2},
                      Case{"partially_manual_2x2", R"(["x"=2, "y"=2])", R"("x", "y")",
                           R"("y")", 4},
                      Case{"partially_manual_2x3_uneven", R"(["x"=2, "y"=3])",
                           R"("x", "y")", R"("y")", 4}),
    [](const ::testing::TestParamInfo<Case>& info) { return info.param.name; });

}  // namespace
}  // namespace tessel
