// Tests of the cost report: the Megatron MLP through the real pipeline, and control flow on
// hand-written per-device programs, against hand-computed numbers.
#include "cost_model/cost_report.h"

#include <string>
#include <vector>

#include "cost_model/test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "partitioner/ir/location.h"
#include "partitioner/propagation/propagate.h"
#include "partitioner/spmd/partition.h"

namespace tessel::cost_model {
namespace {

using ::testing::HasSubstr;

// examples/mlp/mlp.mlir: batch B = 16 over "data" = 4, hidden 256 over "model" = 2, width 64.
constexpr char kMegatronMlp[] = R"mlir(
  tessel.mesh @mesh = <["data"=4, "model"=2]>
  func.func @main(
      %x: tensor<16x64xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>},
      %w1: tensor<64x256xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {"model"}]>},
      %w2: tensor<256x64xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"model"}, {}]>})
      -> (tensor<16x64xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>}) {
    %h = hlo.dot_general %x, %w1, lhs_contract = [1], rhs_contract = [0]
        : (tensor<16x64xf32>, tensor<64x256xf32>) -> tensor<16x256xf32>
    %h_split = tessel.sharding_constraint %h <@mesh, [{"data", ?}, {"model"}]> : tensor<16x256xf32>
    %zero = hlo.constant dense<0.0> : tensor<f32>
    %zeros = hlo.broadcast_in_dim %zero, dims = [] : (tensor<f32>) -> tensor<16x256xf32>
    %relu = hlo.max %h_split, %zeros : tensor<16x256xf32>
    %y = hlo.dot_general %relu, %w2, lhs_contract = [1], rhs_contract = [0]
        : (tensor<16x256xf32>, tensor<256x64xf32>) -> tensor<16x64xf32>
    return %y : tensor<16x64xf32>
  })mlir";

TEST(CostReportTest, MegatronMlpHasOneAllReduceOfTheActivations) {
  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module = test::Parse(kMegatronMlp, context);
  ASSERT_TRUE(module);
  ASSERT_TRUE(mlir::succeeded(propagation::propagateShardings(*module, {}, nullptr)));
  ASSERT_TRUE(mlir::succeeded(spmd::partitionModule(*module)));
  const HardwareSpec& spec = DefaultHardwareSpec();
  CostReport report = BuildCostReport(test::FindFunc(*module, "main"), spec);

  EXPECT_EQ(report.devices, 8);
  // Local pieces: x 4x64, w1 64x128, w2 128x64, all f32.
  EXPECT_EQ(report.argument_bytes, (256 + 8192 + 8192) * 4);
  EXPECT_EQ(report.result_bytes, 4 * 64 * 4);
  // Exactly one all_reduce, over "model", of the local activations: B/4 * 64 * 4 bytes.
  ASSERT_EQ(report.by_kind.size(), 1u);
  const CollectiveTotals& all_reduce = report.by_kind.at(CollectiveKind::kAllReduce);
  EXPECT_EQ(all_reduce.count, 1);
  EXPECT_DOUBLE_EQ(all_reduce.operand_bytes, 4 * 64 * 4);
  EXPECT_DOUBLE_EQ(all_reduce.sent_bytes, 4 * 64 * 4);  // 2(n-1)/n = 1 for n = 2
  EXPECT_EQ(report.by_kind_and_axes.count({CollectiveKind::kAllReduce, "model"}), 1u);
  EXPECT_DOUBLE_EQ(report.communication_seconds, 2 * 2e-6 + 1024 / 450e9);
  // Two local dots of 2*4*128*64 flops each, and the relu's 4*128 maxima.
  EXPECT_DOUBLE_EQ(report.flops, 2 * (2.0 * 4 * 128 * 64) + 4 * 128);
  EXPECT_DOUBLE_EQ(report.step_seconds, report.compute_seconds + report.communication_seconds);
  // The peak is at the relu: the first dot's result, the broadcast zeros and the maxima
  // (3 * 2048 bytes) beside the arguments.
  EXPECT_EQ(report.peak_bytes, report.argument_bytes + 3 * 2048);
  EXPECT_EQ(report.peak_op, "hlo.max");
  EXPECT_THAT(report.peak_location, HasSubstr("test.mlir:"));
}

// The value where memory peaks is named by the caller's namer when given one, by a name
// location without one, and not at all where the location is only a file position.
TEST(CostReportTest, PeakValueIsNamedByTheNamerOrTheNameLocation) {
  std::string text = kMegatronMlp;
  const std::string relu = "%relu = hlo.max %h_split, %zeros : tensor<16x256xf32>";
  ASSERT_NE(text.find(relu), std::string::npos);
  text.replace(text.find(relu), relu.size(), relu + " loc(\"relu.4\")");
  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module = test::Parse(text.c_str(), context);
  ASSERT_TRUE(module);
  ASSERT_TRUE(mlir::succeeded(propagation::propagateShardings(*module, {}, nullptr)));
  ASSERT_TRUE(mlir::succeeded(spmd::partitionModule(*module)));
  mlir::func::FuncOp main = test::FindFunc(*module, "main");

  CostReport by_location = BuildCostReport(main, DefaultHardwareSpec());
  EXPECT_EQ(by_location.peak_op, "hlo.max");
  EXPECT_EQ(by_location.peak_value, "relu.4");

  std::vector<std::string> asked;
  CostReport by_namer =
      BuildCostReport(main, DefaultHardwareSpec(), [&](mlir::Location loc) -> std::string {
        asked.push_back(FormatLocation(loc));
        return "%activation";
      });
  EXPECT_EQ(by_namer.peak_value, "%activation");
  EXPECT_EQ(asked.size(), 1u);

  mlir::OwningOpRef<mlir::ModuleOp> unnamed = test::Parse(kMegatronMlp, context);
  ASSERT_TRUE(unnamed);
  ASSERT_TRUE(mlir::succeeded(propagation::propagateShardings(*unnamed, {}, nullptr)));
  ASSERT_TRUE(mlir::succeeded(spmd::partitionModule(*unnamed)));
  EXPECT_EQ(BuildCostReport(test::FindFunc(*unnamed, "main"), DefaultHardwareSpec()).peak_value,
            "");
}

TEST(CostReportTest, WhileBodiesCountOnceAndCaseTakesTheCostliestBranch) {
  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module = test::Parse(R"mlir(
    tessel.mesh @mesh = <["x"=4]>
    func.func @main(%i0: tensor<i32>, %a: tensor<256xf32>, %p: tensor<i1>) -> tensor<256xf32> {
      %r:2 = hlo.while(%i = %i0, %y = %a) : tensor<i32>, tensor<256xf32>
      cond {
        hlo.return %p : tensor<i1>
      } do {
        %s = tessel.all_reduce %y over @mesh ["x"] kind = sum : tensor<256xf32>
        hlo.return %i, %s : tensor<i32>, tensor<256xf32>
      }
      %c = hlo.case %i0 branches {
        hlo.return %a : tensor<256xf32>
      }, {
        %g = tessel.all_gather %a over @mesh ["x"] dim = 0 : (tensor<256xf32>) -> tensor<1024xf32>
        %e = hlo.exp %a : tensor<256xf32>
        hlo.return %e : tensor<256xf32>
      } : (tensor<i32>) -> tensor<256xf32>
      return %c : tensor<256xf32>
    })mlir", context);
  ASSERT_TRUE(module);
  CostReport report = BuildCostReport(test::FindFunc(*module, "main"), DefaultHardwareSpec());
  EXPECT_EQ(report.devices, 4);
  EXPECT_EQ(report.while_loops, 1);
  EXPECT_EQ(report.by_kind.at(CollectiveKind::kAllReduce).count, 1);
  // The second branch (a gather and an exp) is costlier than returning %a.
  EXPECT_EQ(report.by_kind.at(CollectiveKind::kAllGather).count, 1);
  EXPECT_DOUBLE_EQ(report.by_kind.at(CollectiveKind::kAllGather).sent_bytes, 3 * 1024);
  EXPECT_DOUBLE_EQ(report.flops, 256);
}

TEST(CostReportTest, CountedLoopBodiesCountOncePerTrip) {
  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module = test::Parse(R"mlir(
    tessel.mesh @mesh = <["x"=4]>
    func.func @main(%a: tensor<256xf32>) -> tensor<256xf32> {
      %zero = hlo.constant dense<0> : tensor<i32>
      %r:2 = hlo.while(%i = %zero, %y = %a) : tensor<i32>, tensor<256xf32>
      cond {
        %n = hlo.constant dense<3> : tensor<i32>
        %p = hlo.compare LT, %i, %n : tensor<i32>
        hlo.return %p : tensor<i1>
      } do {
        %one = hlo.constant dense<1> : tensor<i32>
        %i1 = hlo.add %i, %one : tensor<i32>
        %s = tessel.all_reduce %y over @mesh ["x"] kind = sum : tensor<256xf32>
        hlo.return %i1, %s : tensor<i32>, tensor<256xf32>
      }
      return %r#1 : tensor<256xf32>
    })mlir", context);
  ASSERT_TRUE(module);
  CostReport report = BuildCostReport(test::FindFunc(*module, "main"), DefaultHardwareSpec());
  EXPECT_EQ(report.while_loops, 0);
  const CollectiveTotals& all_reduce = report.by_kind.at(CollectiveKind::kAllReduce);
  EXPECT_EQ(all_reduce.count, 3);
  // A ring all_reduce of 1 KiB over 4 devices sends 2 * 3/4 KiB, three times.
  EXPECT_DOUBLE_EQ(all_reduce.sent_bytes, 3 * 1536);
  EXPECT_THAT(FormatCostReport(report), Not(HasSubstr("note:")));
}

TEST(CostReportTest, ProgramWithoutMeshIsOneDevice) {
  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module = test::Parse(R"mlir(
    func.func @main(%a: tensor<8xf32>) -> tensor<8xf32> {
      %e = hlo.exp %a : tensor<8xf32>
      return %e : tensor<8xf32>
    })mlir", context);
  ASSERT_TRUE(module);
  CostReport report = BuildCostReport(test::FindFunc(*module, "main"), DefaultHardwareSpec());
  EXPECT_EQ(report.devices, 1);
  EXPECT_TRUE(report.by_kind.empty());
  EXPECT_EQ(report.communication_seconds, 0);
  // exp is memory bound: 64 bytes at 3.35 TB/s.
  EXPECT_DOUBLE_EQ(report.compute_seconds, 64 / 3.35e12);
}

TEST(CostReportTest, FormatsTableAndJson) {
  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module = test::Parse(R"mlir(
    tessel.mesh @mesh = <["model"=2]>
    func.func @main(%a: tensor<256xf32>) -> tensor<256xf32> {
      %s = tessel.all_reduce %a over @mesh ["model"] kind = sum : tensor<256xf32>
      return %s : tensor<256xf32>
    })mlir", context);
  ASSERT_TRUE(module);
  CostReport report = BuildCostReport(test::FindFunc(*module, "main"), DefaultHardwareSpec());
  std::string table = FormatCostReport(report);
  EXPECT_THAT(table, HasSubstr("cost report: @main on 2 devices\n"));
  EXPECT_THAT(table, HasSubstr("  arguments          1.00 KiB (1024 B)\n"));
  EXPECT_THAT(table, HasSubstr("  all_reduce           model             1     1.00 KiB     1.00 KiB    4.00 us\n"
                               "  total                                  1     1.00 KiB     1.00 KiB    4.00 us\n"));
  EXPECT_THAT(table, HasSubstr("(compute + communication, no overlap)"));
  std::string json = FormatCostReportJson(report);
  EXPECT_THAT(json, HasSubstr("\"devices\": 2,"));
  EXPECT_THAT(json, HasSubstr("\"memory\": {\"argument_bytes\": 1024, \"result_bytes\": 1024, "
                              "\"peak_bytes\": 2048, \"peak_op\": \"tessel.all_reduce\""));
  EXPECT_THAT(json, HasSubstr("{\"kind\": \"all_reduce\", \"axes\": \"model\", \"count\": 1, "
                              "\"operand_bytes\": 1024, \"sent_bytes\": 1024, "));
}

TEST(CostReportTest, TableSubtotalsAKindOverSeveralAxisGroups) {
  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module = test::Parse(R"mlir(
    tessel.mesh @mesh = <["x"=2, "y"=2]>
    func.func @main(%a: tensor<256xf32>) -> tensor<256xf32> {
      %s = tessel.all_reduce %a over @mesh ["x"] kind = sum : tensor<256xf32>
      %t = tessel.all_reduce %s over @mesh ["y"] kind = sum : tensor<256xf32>
      return %t : tensor<256xf32>
    })mlir", context);
  ASSERT_TRUE(module);
  CostReport report = BuildCostReport(test::FindFunc(*module, "main"), DefaultHardwareSpec());
  EXPECT_THAT(FormatCostReport(report),
              HasSubstr("  all_reduce           x                 1     1.00 KiB     1.00 KiB    4.00 us\n"
                        "  all_reduce           y                 1     1.00 KiB     1.00 KiB    4.00 us\n"
                        "  all_reduce           (all)             2     2.00 KiB     2.00 KiB    8.00 us\n"
                        "  total                                  2     2.00 KiB     2.00 KiB    8.00 us\n"));
}

TEST(CostReportTest, TableSaysWhenThereAreNoCollectivesAndWhenLoopsRanOnce) {
  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module = test::Parse(R"mlir(
    func.func @main(%i0: tensor<i32>, %p: tensor<i1>) -> tensor<i32> {
      %r = hlo.while(%i = %i0) : tensor<i32>
      cond {
        hlo.return %p : tensor<i1>
      } do {
        %n = hlo.add %i, %i : tensor<i32>
        hlo.return %n : tensor<i32>
      }
      return %r : tensor<i32>
    })mlir", context);
  ASSERT_TRUE(module);
  CostReport report = BuildCostReport(test::FindFunc(*module, "main"), DefaultHardwareSpec());
  std::string table = FormatCostReport(report);
  EXPECT_THAT(table, HasSubstr("cost report: @main on 1 device\n"));
  EXPECT_THAT(table, HasSubstr("  no collectives\n  time               0 s\n"));
  EXPECT_THAT(table, HasSubstr(
                         "note: 1 while loop counted as one iteration (trip counts are not known)"));
  EXPECT_THAT(FormatCostReportJson(report), HasSubstr("\"while_loops\": 1\n}"));
}

}  // namespace
}  // namespace tessel::cost_model
