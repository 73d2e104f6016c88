// Strategy enumeration: what a matmul's rule yields on a 2-D mesh, and what pruning drops.
#include "partitioner/auto/strategies.h"

#include "gtest/gtest.h"
#include "mlir/IR/MLIRContext.h"
#include "partitioner/ir/tessel/tessel_ops.h"
#include "partitioner/rules/op_sharding_rule_builder.h"

namespace tessel::auto_sharding {
namespace {

using rules::FactorKind;
using rules::kNoDim;
using rules::OpShardingRuleBuilder;

class StrategiesTest : public ::testing::Test {
 protected:
  StrategiesTest() { context_.loadDialect<ir::TesselDialect>(); }

  ir::MeshAttr mesh(std::vector<std::pair<std::string, int64_t>> axes) {
    llvm::SmallVector<ir::MeshAxisAttr> attrs;
    for (const auto& [name, size] : axes) {
      attrs.push_back(ir::MeshAxisAttr::get(&context_, name, size));
    }
    return ir::MeshAttr::get(&context_, attrs, {});
  }

  mlir::MLIRContext context_;
};

TEST_F(StrategiesTest, MatmulOnTwoAxesGivesEveryAxisToAFactorOrNone) {
  // C[i,j] = sum_k A[i,k] B[k,j]: each of two axes goes to i, j, k or nowhere: 4 x 4.
  rules::OpShardingRule rule = OpShardingRuleBuilder({{8, 8}, {8, 16}}, {{8, 16}})
                                   .addFactor({0, kNoDim}, {0}, 8)
                                   .addFactor({kNoDim, 1}, {1}, 16)
                                   .addFactor({1, 0}, {kNoDim}, 8, FactorKind::kReduction)
                                   .build();
  ir::MeshAttr m = mesh({{"data", 4}, {"model", 2}});
  std::vector<OpStrategy> strategies = enumerateStrategies(rule, m);
  ASSERT_EQ(strategies.size(), 16u);
  EXPECT_EQ(strategies[0].workShards, 1);
  EXPECT_EQ(strategies[0].results[0], Layout::replicated(2));
  // "data" on the rows and "model" on the contracting factor: A split both ways, B by rows,
  // C by rows after summing over "model".
  bool found = false;
  for (const OpStrategy& s : strategies) {
    if (s.factorAxes[0] != llvm::SmallVector<int, 2>{0}) continue;
    if (s.factorAxes[2] != llvm::SmallVector<int, 2>{1}) continue;
    found = true;
    EXPECT_EQ(s.operands[0].toString(m), "[{\"data\"}, {\"model\"}]");
    EXPECT_EQ(s.operands[1].toString(m), "[{\"model\"}, {}]");
    EXPECT_EQ(s.results[0].toString(m), "[{\"data\"}, {}]");
    EXPECT_EQ(s.reductionAxes, (llvm::SmallVector<int, 2>{1}));
    EXPECT_EQ(s.workShards, 8);
  }
  EXPECT_TRUE(found);
}

TEST_F(StrategiesTest, UnevenSplitsAreKeptWhenThePaddingIsSmallOrThePiecesSmallest) {
  // Over 3 devices, 16 pads to 18 (12.5%: kept); 4 pads to 6, but pieces of 2 beat the whole
  // 4 (kept); 2 has fewer elements than devices (dropped).
  ir::MeshAttr m = mesh({{"x", 3}});
  EXPECT_EQ(enumerateStrategies(tensorRule({16}), m).size(), 2u);
  EXPECT_EQ(enumerateStrategies(tensorRule({4}), m).size(), 2u);
  EXPECT_EQ(enumerateStrategies(tensorRule({2}), m).size(), 1u);
  // On x=2, y=3, 4 over y gives pieces of 2, as x alone does with no padding: dropped, and
  // 6 devices are more than 4 elements: none and x are left.
  ir::MeshAttr m23 = mesh({{"x", 2}, {"y", 3}});
  EXPECT_EQ(enumerateStrategies(tensorRule({4}), m23).size(), 2u);
}

TEST_F(StrategiesTest, BothAxesOnOneDimensionFollowMeshOrder) {
  // [8, 6] on x=2, y=3: each axis to dim 0, dim 1 or none (9). x and y together on dim 0
  // pad 8 to 12 but leave pieces of 2, smaller than 2 or 3 devices leave: kept. Both on one
  // dimension list x major, as the mesh does.
  ir::MeshAttr m = mesh({{"x", 2}, {"y", 3}});
  std::vector<OpStrategy> strategies = enumerateStrategies(tensorRule({8, 6}), m);
  ASSERT_EQ(strategies.size(), 9u);
  int bothOnColumns = 0, bothOnRows = 0;
  for (const OpStrategy& s : strategies) {
    if (s.results[0].dims[1].size() == 2) {
      ++bothOnColumns;
      EXPECT_EQ(s.results[0].toString(m), "[{}, {\"x\", \"y\"}]");
    }
    if (s.results[0].dims[0].size() == 2) {
      ++bothOnRows;
      EXPECT_EQ(s.results[0].toString(m), "[{\"x\", \"y\"}, {}]");
    }
  }
  EXPECT_EQ(bothOnColumns, 1);
  EXPECT_EQ(bothOnRows, 1);
}

TEST_F(StrategiesTest, FactorsThatMustStayWholeAreNeverSplit) {
  // A sort-like rule: dim 0 passes through, dim 1 (sorted) needs replication.
  rules::OpShardingRule rule =
      OpShardingRuleBuilder({{8, 8}}, {{8, 8}})
          .addFactor({0}, {0}, 8)
          .addFactor({1}, {1}, 8, FactorKind::kNeedReplication)
          .build();
  std::vector<OpStrategy> strategies = enumerateStrategies(rule, mesh({{"x", 2}}));
  ASSERT_EQ(strategies.size(), 2u);
  for (const OpStrategy& s : strategies) EXPECT_TRUE(s.results[0].dims[1].empty());
}

}  // namespace
}  // namespace tessel::auto_sharding
