// Where each axis of a propagated value came from (PropagationReport::axisProvenanceOf) and
// which ops propagation left in conflict (PropagationReport::conflicts).
#include <string>

#include "gtest/gtest.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "partitioner/ir/parse_module.h"
#include "partitioner/ir/tessel/tessel_ops.h"
#include "partitioner/propagation/propagate.h"
#include "partitioner/rules/sharding_rule_models.h"

namespace tessel::propagation {
namespace {

class AxisProvenanceTest : public ::testing::Test {
 protected:
  AxisProvenanceTest() {
    rules::registerShardingRuleModels(registry_);
    context_ = std::make_unique<mlir::MLIRContext>(registry_);
  }

  // Parses and propagates `text` with axis origins recorded; returns the entry function.
  mlir::func::FuncOp Propagate(const std::string& text, bool record = true) {
    auto module = ParseModule(text, "test.mlir", *context_);
    EXPECT_TRUE(module.ok()) << module.status();
    module_ = *std::move(module);
    PropagationOptions options;
    options.recordAxisOrigins = record;
    EXPECT_TRUE(mlir::succeeded(propagateShardings(*module_, options, &report_)));
    return module_->lookupSymbol<mlir::func::FuncOp>("main");
  }

  static ir::ShardingAttr ShardingOf(mlir::Operation* op) {
    return op->getAttrOfType<ir::ShardingPerValueAttr>(ir::TesselDialect::kShardingAttrName)
        .getShardings()[0];
  }

  mlir::DialectRegistry registry_;
  std::unique_ptr<mlir::MLIRContext> context_;
  mlir::OwningOpRef<mlir::ModuleOp> module_;
  PropagationReport report_;
};

constexpr char kDot[] = R"(
tessel.mesh @mesh = <["data"=4, "model"=2]>
func.func @main(%x: tensor<8x16xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>},
                %w: tensor<16x32xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {"model"}]>})
    -> tensor<8x32xf32> {
  %y = hlo.dot_general %x, %w, lhs_contract = [1], rhs_contract = [0]
      : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  %z = hlo.tanh %y : tensor<8x32xf32>
  return %z : tensor<8x32xf32>
}
)";

// The whole-value origin names one annotation; the rows of the product come from the first
// operand and its columns from the second, and each axis says so.
TEST_F(AxisProvenanceTest, EachAxisOfADotNamesItsOwnOperand) {
  mlir::func::FuncOp main = Propagate(kDot);
  mlir::Operation* dot = &main.getBody().front().front();
  mlir::Operation* tanh = dot->getNextNode();
  std::vector<AxisProvenance> axes =
      report_.axisProvenanceOf(tanh->getResult(0), ShardingOf(tanh));
  ASSERT_EQ(axes.size(), 2u);
  EXPECT_EQ(axes[0].dim, 0);
  EXPECT_EQ(axes[0].axis.getName(), "data");
  EXPECT_EQ(axes[0].origin, "argument 0 of @main");
  EXPECT_EQ(axes[0].annotated, main.getArgument(0));
  EXPECT_EQ(axes[0].path, (llvm::SmallVector<mlir::Operation*, 4>{dot, tanh}));
  EXPECT_EQ(axes[1].dim, 1);
  EXPECT_EQ(axes[1].axis.getName(), "model");
  EXPECT_EQ(axes[1].origin, "argument 1 of @main");
  EXPECT_EQ(axes[1].annotated, main.getArgument(1));
  EXPECT_EQ(axes[1].path, (llvm::SmallVector<mlir::Operation*, 4>{dot, tanh}));
  EXPECT_EQ(describeAxisProvenance(axes[1]).rfind("\"model\" from argument 1 of @main via", 0),
            0u)
      << describeAxisProvenance(axes[1]);
  EXPECT_TRUE(report_.conflicts.empty());
}

TEST_F(AxisProvenanceTest, NothingIsRecordedUnlessAsked) {
  mlir::func::FuncOp main = Propagate(kDot, /*record=*/false);
  mlir::Operation* dot = &main.getBody().front().front();
  std::vector<AxisProvenance> axes = report_.axisProvenanceOf(dot->getResult(0), ShardingOf(dot));
  ASSERT_EQ(axes.size(), 2u);
  EXPECT_TRUE(axes[0].origin.empty());
  EXPECT_TRUE(axes[1].origin.empty());
  // The value's one origin is still kept.
  EXPECT_TRUE(report_.provenanceOf(dot->getResult(0)).has_value());
}

// An add of two values split differently: propagation cannot reconcile them and says where.
TEST_F(AxisProvenanceTest, ConflictsLeftAtTheFixedPointAreRecorded) {
  mlir::func::FuncOp main = Propagate(R"(
tessel.mesh @mesh = <["data"=4, "model"=2]>
func.func @main(%a: tensor<8x16xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>},
                %b: tensor<8x16xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"model"}, {}]>})
    -> tensor<8x16xf32> {
  %c = hlo.add %a, %b : tensor<8x16xf32>
  return %c : tensor<8x16xf32>
}
)");
  mlir::Operation* add = &main.getBody().front().front();
  ASSERT_EQ(report_.conflicts.size(), 1u);
  const OpConflict& conflict = report_.conflicts[0];
  EXPECT_EQ(conflict.op, add);
  EXPECT_TRUE(conflict.agreed.empty());
  ASSERT_EQ(conflict.members.size(), 3u);
  EXPECT_EQ(conflict.members[0].value, main.getArgument(0));
  EXPECT_EQ(conflict.members[0].operand, 0);
  EXPECT_EQ(conflict.members[1].operand, 1);
  EXPECT_EQ(conflict.members[2].result, 0);
  EXPECT_TRUE(conflict.members[2].axes.empty());
  EXPECT_EQ(report_.conflictsOf(main.getArgument(1)).size(), 1u);
  EXPECT_EQ(report_.conflictsOf(add->getResult(0)).size(), 1u);
}

}  // namespace
}  // namespace tessel::propagation
