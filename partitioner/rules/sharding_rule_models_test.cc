// Tests that every op gets its model from registerShardingRuleModels: each hlo and tessel op
// (but the module-level tessel.mesh, which has no tensors), the elementwise ops of arith and
// math, and linalg.generic / linalg.matmul; that getShardingRuleOf answers for ops
// without a model; and which ops share a rule by name and types (rule_key.h).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <variant>
#include <vector>

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/MLIRContext.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/ir/parse_module.h"
#include "partitioner/ir/tessel/tessel_ops.h"
#include "partitioner/rules/rule_key.h"
#include "partitioner/rules/sharding_rule_interface.h"
#include "partitioner/rules/sharding_rule_models.h"
#include "support/status_matchers.h"

namespace tessel::rules {
namespace {

using ::testing::HasSubstr;
using ::tessel::testing::IsOk;

class ShardingRuleModelsTest : public ::testing::Test {
 protected:
  ShardingRuleModelsTest() {
    mlir::DialectRegistry registry;
    registry.insert<mlir::func::FuncDialect, hlo::HloDialect, ir::TesselDialect,
                    mlir::arith::ArithDialect, mlir::math::MathDialect,
                    mlir::linalg::LinalgDialect>();
    registerShardingRuleModels(registry);
    context_.appendDialectRegistry(registry);
    context_.loadAllAvailableDialects();
  }

  // The names of the registered ops of `dialect` that lack ShardingRuleOpInterface.
  std::vector<std::string> opsWithoutModel(llvm::StringRef dialect) {
    std::vector<std::string> missing;
    for (mlir::RegisteredOperationName name : context_.getRegisteredOperations()) {
      if (name.getDialectNamespace() != dialect) continue;
      if (!name.hasInterface<ShardingRuleOpInterface>()) {
        missing.push_back(name.getStringRef().str());
      }
    }
    return missing;
  }

  bool hasModel(llvm::StringRef opName) {
    std::optional<mlir::RegisteredOperationName> name =
        mlir::RegisteredOperationName::lookup(opName, &context_);
    return name && name->hasInterface<ShardingRuleOpInterface>();
  }

  mlir::MLIRContext context_;
};

TEST_F(ShardingRuleModelsTest, EveryHloOpHasAModel) {
  EXPECT_THAT(opsWithoutModel("hlo"), ::testing::IsEmpty());
}

TEST_F(ShardingRuleModelsTest, EveryTesselTensorOpHasAModel) {
  EXPECT_THAT(opsWithoutModel("tessel"), ::testing::ElementsAre("tessel.mesh"));
}

TEST_F(ShardingRuleModelsTest, ElementwiseOpsOfUpstreamDialectsHaveModels) {
  EXPECT_TRUE(hasModel("arith.addf"));
  EXPECT_TRUE(hasModel("arith.cmpi"));
  EXPECT_TRUE(hasModel("arith.select"));
  EXPECT_TRUE(hasModel("math.exp"));
  EXPECT_TRUE(hasModel("math.fma"));
  // Not elementwise.
  EXPECT_FALSE(hasModel("arith.constant"));
}

TEST_F(ShardingRuleModelsTest, LinalgGenericAndMatmulHaveModels) {
  EXPECT_TRUE(hasModel("linalg.generic"));
  EXPECT_TRUE(hasModel("linalg.matmul"));
}

TEST_F(ShardingRuleModelsTest, OpsWithoutAModelAreOpaque) {
  absl::StatusOr<mlir::OwningOpRef<mlir::ModuleOp>> module = ParseModule(R"mlir(
    func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
      %y = hlo.add %x, %x : tensor<4xf32>
      return %y : tensor<4xf32>
    }
  )mlir", "f.mlir", context_);
  ASSERT_THAT(module.status(), IsOk());
  auto func = llvm::cast<mlir::func::FuncOp>((**module).getBody()->front());
  mlir::Operation* add = &func.getBody().front().front();
  mlir::Operation* ret = func.getBody().front().getTerminator();

  ShardingRuleOrNone addAnswer = getShardingRuleOf(add, ShardingRuleOptions());
  ASSERT_TRUE(std::holds_alternative<OpShardingRule>(addAnswer));
  EXPECT_EQ(std::get<OpShardingRule>(addAnswer).toString(), "([i], [i])->([i]) {i=4}");

  ShardingRuleOrNone retAnswer = getShardingRuleOf(ret, ShardingRuleOptions());
  ASSERT_TRUE(std::holds_alternative<NoShardingRule>(retAnswer));
  EXPECT_EQ(std::get<NoShardingRule>(retAnswer).treatment, NoRuleTreatment::kOpaque);
  EXPECT_THAT(std::get<NoShardingRule>(retAnswer).reason,
              HasSubstr("'func.return' has no sharding rule model"));
}

TEST_F(ShardingRuleModelsTest, OpsAlikeInWhatTheirRuleReadsShareARuleKey) {
  absl::StatusOr<mlir::OwningOpRef<mlir::ModuleOp>> module = ParseModule(R"mlir(
    func.func @f(%x: tensor<4xf32>, %y: tensor<8xf32>, %m: tensor<4x4xf32>) -> tensor<4xf32> {
      %a = hlo.add %x, %x : tensor<4xf32>
      %b = hlo.add %a, %a {note = 1 : i64} : tensor<4xf32>
      %c = hlo.sub %b, %b : tensor<4xf32>
      %d = hlo.add %y, %y : tensor<8xf32>
      %e = hlo.broadcast_in_dim %x, dims = [0] : (tensor<4xf32>) -> tensor<4x4xf32>
      %f = hlo.broadcast_in_dim %a, dims = [0] : (tensor<4xf32>) -> tensor<4x4xf32>
      %g = hlo.broadcast_in_dim %x, dims = [1] : (tensor<4xf32>) -> tensor<4x4xf32>
      %h = hlo.dot_general %m, %m, lhs_contract = [1], rhs_contract = [1]
          : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
      %i = hlo.dot_general %m, %m, lhs_contract = [1], rhs_contract = [0]
          : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
      %j = hlo.concatenate %x, %x, dim = 0 : (tensor<4xf32>, tensor<4xf32>) -> tensor<8xf32>
      return %c : tensor<4xf32>
    }
  )mlir", "f.mlir", context_);
  ASSERT_THAT(module.status(), IsOk());
  auto func = llvm::cast<mlir::func::FuncOp>((**module).getBody()->front());
  llvm::SmallVector<mlir::Operation*> ops;
  for (mlir::Operation& op : func.getBody().front()) ops.push_back(&op);
  ASSERT_EQ(ops.size(), 11u);
  std::vector<RuleKey> keys(ops.size());
  std::vector<bool> keyed;
  for (auto [op, key] : llvm::zip(ops, keys)) keyed.push_back(ruleKeyOf(op, key));
  for (int i : {0, 1, 2, 3, 4, 5, 6, 7, 8}) EXPECT_TRUE(keyed[i]) << i;
  // The adds of one type share a key, whatever their attributes and operands; a sub of the
  // same types, or an add of other types, has its own.
  EXPECT_EQ(keys[0], keys[1]);
  EXPECT_NE(keys[0], keys[2]);
  EXPECT_NE(keys[0], keys[3]);
  // Broadcasts and products share a key when their dimensions do too.
  EXPECT_EQ(keys[4], keys[5]);
  EXPECT_NE(keys[4], keys[6]);
  EXPECT_NE(keys[7], keys[8]);
  // A concatenate's rule looks at the ops that produce its operands, and ops without a
  // model have no rule: neither is keyed.
  EXPECT_FALSE(keyed[9]);
  EXPECT_FALSE(keyed[10]);

  // Transposes share a key when their permutations agree; reshapes when their types do.
  absl::StatusOr<mlir::OwningOpRef<mlir::ModuleOp>> shapes = ParseModule(R"mlir(
    func.func @g(%m: tensor<4x4xf32>) -> tensor<4x4xf32> {
      %a = hlo.transpose %m, permutation = [1, 0] : (tensor<4x4xf32>) -> tensor<4x4xf32>
      %b = hlo.transpose %m, permutation = [1, 0] : (tensor<4x4xf32>) -> tensor<4x4xf32>
      %c = hlo.transpose %m, permutation = [0, 1] : (tensor<4x4xf32>) -> tensor<4x4xf32>
      %d = hlo.reshape %m : (tensor<4x4xf32>) -> tensor<16xf32>
      %e = hlo.reshape %m : (tensor<4x4xf32>) -> tensor<16xf32>
      %f = hlo.reshape %m : (tensor<4x4xf32>) -> tensor<2x8xf32>
      return %a : tensor<4x4xf32>
    }
  )mlir", "g.mlir", context_);
  ASSERT_THAT(shapes.status(), IsOk());
  auto g = llvm::cast<mlir::func::FuncOp>((**shapes).getBody()->front());
  std::vector<RuleKey> shapeKeys(6);
  auto shapeOp = g.getBody().front().begin();
  for (RuleKey& key : shapeKeys) EXPECT_TRUE(ruleKeyOf(&*shapeOp++, key));
  EXPECT_EQ(shapeKeys[0], shapeKeys[1]);
  EXPECT_NE(shapeKeys[0], shapeKeys[2]);  // same types, another permutation
  EXPECT_EQ(shapeKeys[3], shapeKeys[4]);
  EXPECT_NE(shapeKeys[3], shapeKeys[5]);

  RulesByKey<int> byKey;
  EXPECT_EQ(byKey.find(keys[0]), nullptr);
  const int& kept = byKey.insert(keys[0], 7);
  byKey.insert(keys[2], 8);
  ASSERT_NE(byKey.find(keys[1]), nullptr);
  EXPECT_EQ(byKey.find(keys[1]), &kept);
  EXPECT_EQ(*byKey.find(keys[2]), 8);
  EXPECT_EQ(byKey.find(keys[3]), nullptr);
}

}  // namespace
}  // namespace tessel::rules
