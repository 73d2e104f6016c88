// Unit tests of OpShardingRule and its builder: the textual form and its parser, factor
// queries, and the checks of a rule against an op's types.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"
#include "partitioner/rules/op_sharding_rule.h"
#include "partitioner/rules/op_sharding_rule_builder.h"

namespace tessel::rules {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Optional;

// The matmul rule of the header's example: A 8x8, B 8x16, C 8x16.
OpShardingRule matmulRule() {
  return OpShardingRuleBuilder({{8, 8}, {8, 16}}, {{8, 16}})
      .addFactor({0, kNoDim}, {0}, 8)
      .addFactor({kNoDim, 1}, {1}, 16)
      .addFactor({1, 0}, {kNoDim}, 8, FactorKind::kReduction)
      .build();
}

class OpShardingRuleTest : public ::testing::Test {
 protected:
  mlir::Type tensor(llvm::ArrayRef<int64_t> shape) {
    return mlir::RankedTensorType::get(shape, mlir::Float32Type::get(&context_));
  }
  mlir::MLIRContext context_;
};

TEST(OpShardingRuleBuilderTest, PrintsMatmulInShardyStyle) {
  EXPECT_EQ(matmulRule().toString(),
            "([i, k], [k, j])->([i, j]) {i=8, j=16, k=8} reduction={k}");
}

TEST(OpShardingRuleBuilderTest, PointwiseSkipsValuesOfAnotherRank) {
  // A select with a rank-0 predicate.
  OpShardingRule rule =
      OpShardingRuleBuilder({{}, {4, 8}, {4, 8}}, {{4, 8}}).addPointwise({4, 8}).build();
  EXPECT_EQ(rule.toString(), "([], [i, j], [i, j])->([i, j]) {i=4, j=8}");
}

TEST(OpShardingRuleBuilderTest, AppendsFactorsMajorToMinor) {
  OpShardingRule rule = OpShardingRuleBuilder({{6}}, {{2, 3}})
                            .addFactor({0}, {0}, 2)
                            .addFactor({0}, {1}, 3)
                            .build();
  EXPECT_EQ(rule.toString(), "([ij])->([i, j]) {i=2, j=3}");
  EXPECT_THAT(rule.getOperand(0)[0], ElementsAre(0, 1));
}

TEST(OpShardingRuleBuilderTest, SingleTensorFactorsAndAllKindLists) {
  OpShardingRule rule = OpShardingRuleBuilder({{4}}, {{6}})
                            .addOperandFactor(0, 0, 4, FactorKind::kNeedReplication)
                            .addResultFactor(0, 0, 6, FactorKind::kPermutation,
                                             /*blocked=*/true)
                            .build();
  EXPECT_EQ(rule.toString(),
            "([i])->([j]) {i=4, j=6} need_replication={i} permutation={j} blocked={j}");
}

TEST(OpShardingRuleBuilderTest, MovableNeedReplicationFactor) {
  OpShardingRule rule = OpShardingRuleBuilder({{4, 6}}, {{4, 6}})
                            .addFactor({0}, {0}, 4)
                            .addFactor({1}, {1}, 6, FactorKind::kNeedReplication)
                            .markLastFactorMovable()
                            .build();
  EXPECT_FALSE(rule.getFactor(0).movable);
  EXPECT_TRUE(rule.getFactor(1).movable);
  EXPECT_EQ(rule.toString(), "([i, j])->([i, j]) {i=4, j=6} need_replication={j} movable={j}");
  std::string error;
  mlir::FailureOr<OpShardingRule> parsed = OpShardingRule::parse(rule.toString(), &error);
  ASSERT_TRUE(mlir::succeeded(parsed)) << error;
  EXPECT_EQ(*parsed, rule);
}

TEST(OpShardingRuleHashTest, EqualRulesHashAlikeAndDifferentOnesApart) {
  std::string error;
  mlir::FailureOr<OpShardingRule> parsed =
      OpShardingRule::parse("([i, k], [k, j])->([i, j]) {i=8, j=16, k=8} reduction={k}", &error);
  ASSERT_TRUE(mlir::succeeded(parsed)) << error;
  ASSERT_EQ(*parsed, matmulRule());
  EXPECT_EQ(hash_value(*parsed), hash_value(matmulRule()));
  // Each differs from the matmul in one thing: a size, a kind, where a factor goes, which
  // tensors are operands, or a flag.
  for (llvm::StringRef text : {"([i, k], [k, j])->([i, j]) {i=8, j=16, k=4} reduction={k}",
                               "([i, k], [k, j])->([i, j]) {i=8, j=16, k=8}",
                               "([k, i], [k, j])->([i, j]) {i=8, j=16, k=8} reduction={k}",
                               "([i, k])->([k, j], [i, j]) {i=8, j=16, k=8}",
                               "([i, k], [k, j])->([i, j]) {i=8, j=16, k=8} reduction={k} "
                               "blocked={i}"}) {
    mlir::FailureOr<OpShardingRule> other = OpShardingRule::parse(text, &error);
    ASSERT_TRUE(mlir::succeeded(other)) << text.str() << ": " << error;
    ASSERT_NE(*other, matmulRule()) << text.str();
    EXPECT_NE(hash_value(*other), hash_value(matmulRule())) << text.str();
  }
}

TEST(OpShardingRuleTextTest, NamesFactorsPastTheAlphabet) {
  EXPECT_EQ(OpShardingRule::factorName(0), "i");
  EXPECT_EQ(OpShardingRule::factorName(17), "z");
  EXPECT_EQ(OpShardingRule::factorName(18), "z_1");
  EXPECT_EQ(OpShardingRule::factorName(30), "z_13");
}

TEST(OpShardingRuleTextTest, ParsesWhatItPrints) {
  OpShardingRule rule = matmulRule();
  std::string error;
  mlir::FailureOr<OpShardingRule> parsed = OpShardingRule::parse(rule.toString(), &error);
  ASSERT_TRUE(mlir::succeeded(parsed)) << error;
  EXPECT_EQ(*parsed, rule);
}

TEST(OpShardingRuleTextTest, ParsesManyFactorsWithSuffixedNames) {
  // 20 factors, one per dim: the last two are z_1 and z_2, and z_1z_2 is a dim of two.
  OpShardingRuleBuilder builder({llvm::SmallVector<int64_t, 4>(19, 2)}, {});
  for (int64_t dim = 0; dim < 19; ++dim) builder.addOperandFactor(0, dim, 2);
  OpShardingRule rule = builder.build();
  std::string text = rule.toString();
  EXPECT_THAT(text, HasSubstr("y, z, z_1]"));
  std::string error;
  mlir::FailureOr<OpShardingRule> parsed = OpShardingRule::parse(text, &error);
  ASSERT_TRUE(mlir::succeeded(parsed)) << error;
  EXPECT_EQ(*parsed, rule);
}

TEST(OpShardingRuleTextTest, ParseIgnoresSpacesAndSizeOrder) {
  std::string error;
  mlir::FailureOr<OpShardingRule> parsed =
      OpShardingRule::parse(" ( [ i , k ] ,[k,j] ) -> ([i,j]){k=8,j=16,i=8}reduction={ k }", &error);
  ASSERT_TRUE(mlir::succeeded(parsed)) << error;
  EXPECT_EQ(*parsed, matmulRule());
}

TEST(OpShardingRuleTextTest, ParseReportsWhatIsWrong) {
  auto errorOf = [](llvm::StringRef text) {
    std::string error;
    EXPECT_TRUE(mlir::failed(OpShardingRule::parse(text, &error))) << text.str();
    return error;
  };
  EXPECT_EQ(errorOf("([i])->([i]) {}"), "factor i has no size");
  EXPECT_EQ(errorOf("([i])->([j]) {i=2}"), "factor j has no size");
  EXPECT_EQ(errorOf("([i])->([i]) {i=2, i=2}"), "factor i has two sizes");
  EXPECT_EQ(errorOf("([i])->([i]) {i=x}"), "expected the size of factor i");
  EXPECT_EQ(errorOf("([i])->([i]) {i=2} reduction={i} permutation={i}"),
            "factor i has two kinds");
  EXPECT_EQ(errorOf("([i])->([i]) {i=2} reduction={j}"), "factor j has no size");
  EXPECT_EQ(errorOf("([i])->([i]) {i=2} sideways={i}"),
            "expected reduction, need_replication, permutation, blocked or movable at "
            "'sideways={i}'");
  EXPECT_EQ(errorOf("([i, ])->([i]) {i=2}"), "expected a factor name at '])->([i]) {i'");
  EXPECT_EQ(errorOf("([i]) ([i]) {i=2}"), "expected '->' at '([i]) {i=2}'");
}

TEST_F(OpShardingRuleTest, FitsTheMatmulTypes) {
  EXPECT_EQ(matmulRule().findMismatch({tensor({8, 8}), tensor({8, 16})}, {tensor({8, 16})}),
            std::nullopt);
}

TEST_F(OpShardingRuleTest, FindsMismatchesWithTheOpTypes) {
  OpShardingRule rule = matmulRule();
  EXPECT_THAT(rule.findMismatch({tensor({8, 8})}, {tensor({8, 16})}),
              Optional(std::string("the rule has 2 operand mappings but the op has 1 operands")));
  EXPECT_THAT(rule.findMismatch({tensor({8, 8}), tensor({8})}, {tensor({8, 16})}),
              Optional(std::string("operand 1 has rank 1 but its mapping has 2 dimensions")));
  EXPECT_THAT(
      rule.findMismatch({tensor({8, 8}), tensor({8, 32})}, {tensor({8, 16})}),
      Optional(std::string("dimension 1 of operand 1 has size 32 but its factors multiply to 16")));
  EXPECT_THAT(rule.findMismatch({tensor({8, 8}), tensor({8, mlir::ShapedType::kDynamic})},
                                {tensor({8, 16})}),
              Optional(std::string("dimension 1 of operand 1 is dynamic")));
}

TEST_F(OpShardingRuleTest, FindsMalformedRules) {
  mlir::Type t4 = tensor({4});
  mlir::Type t4x4 = tensor({4, 4});
  EXPECT_THAT(OpShardingRule({{4}}, {{{0}}}, {{{0}}}).findMismatch({t4}, {t4}), std::nullopt);
  EXPECT_THAT(OpShardingRule({{-1}}, {{{0}}}, {}).findMismatch({t4}, {}),
              Optional(std::string("factor i has negative size -1")));
  EXPECT_THAT(OpShardingRule({{4}}, {{{}}}, {}).findMismatch({t4}, {}),
              Optional(std::string("dimension 0 of operand 0 has no factor")));
  EXPECT_THAT(OpShardingRule({{4}}, {{{3}}}, {}).findMismatch({t4}, {}),
              Optional(std::string("factor index 3 is out of range [0, 1)")));
  EXPECT_THAT(OpShardingRule({{4}}, {{{0}, {0}}}, {}).findMismatch({t4x4}, {}),
              Optional(std::string("factor i appears twice in operand 0")));
  EXPECT_THAT(
      OpShardingRule({{4, FactorKind::kReduction}}, {{{0}}}, {{{0}}}).findMismatch({t4}, {t4}),
      Optional(std::string("reduction factor i appears in a result")));
}

TEST_F(OpShardingRuleTest, WindowedDimsNeedNotMatchTheirFactorSizes) {
  // A slice 8 -> 2 along a permutation factor of size 8, and a need-replication factor
  // shared by 8 and 2.
  for (FactorKind kind : {FactorKind::kPermutation, FactorKind::kNeedReplication}) {
    OpShardingRule rule({{8, kind}}, {{{0}}}, {{{0}}});
    EXPECT_EQ(rule.findMismatch({tensor({8})}, {tensor({2})}), std::nullopt)
        << stringifyFactorKind(kind).str();
  }
  // A need-replication factor next to another factor is exact again.
  OpShardingRule mixed({{2, FactorKind::kNeedReplication}, {4}}, {{{0, 1}}}, {});
  EXPECT_FALSE(mixed.isExactDim({0}));
  EXPECT_TRUE(mixed.isExactDim({0, 1}));
  EXPECT_TRUE(mixed.findMismatch({tensor({6})}, {}).has_value());
}

TEST(OpShardingRuleQueryTest, ListsUsesOfAFactor) {
  OpShardingRule rule = matmulRule();
  // k: lhs dim 1 and rhs dim 0, never the result.
  llvm::SmallVector<FactorUse> uses = rule.getUses(2);
  ASSERT_EQ(uses.size(), 2u);
  EXPECT_FALSE(uses[0].isResult);
  EXPECT_EQ(uses[0].tensor, 0);
  EXPECT_EQ(uses[0].dim, 1);
  EXPECT_EQ(uses[1].tensor, 1);
  EXPECT_EQ(uses[1].dim, 0);
  EXPECT_FALSE(rule.isInResults(2));
  EXPECT_TRUE(rule.isInResults(0));
  // i: lhs dim 0 and result dim 0.
  uses = rule.getUses(0);
  ASSERT_EQ(uses.size(), 2u);
  EXPECT_TRUE(uses[1].isResult);
  EXPECT_EQ(uses[1].position, 0);
}

TEST(OpShardingRuleQueryTest, TellsWhetherAFactorIsInOperands) {
  OpShardingRule rule = matmulRule();
  EXPECT_TRUE(rule.isInOperands(2));  // k
  EXPECT_TRUE(rule.isInOperands(0));  // i
  // A factor only the result has: a broadcast's new dimension.
  OpShardingRule broadcast =
      OpShardingRuleBuilder({{8}}, {{8, 4}}).addFactor({0}, {0}, 8).addFactor({}, {1}, 4).build();
  EXPECT_FALSE(broadcast.isInOperands(1));
  EXPECT_TRUE(broadcast.isInResults(1));
}

TEST(OpShardingRuleQueryTest, SetsOfFactorsAgreeWithTheQueries) {
  OpShardingRule broadcast =
      OpShardingRuleBuilder({{8}}, {{8, 4}}).addFactor({0}, {0}, 8).addFactor({}, {1}, 4).build();
  for (const OpShardingRule& rule : {matmulRule(), broadcast}) {
    llvm::SmallBitVector operands = rule.operandFactors();
    llvm::SmallBitVector results = rule.resultFactors();
    ASSERT_EQ(static_cast<int64_t>(operands.size()), rule.getNumFactors());
    ASSERT_EQ(static_cast<int64_t>(results.size()), rule.getNumFactors());
    for (int64_t factor = 0; factor < rule.getNumFactors(); ++factor) {
      EXPECT_EQ(operands.test(factor), rule.isInOperands(factor)) << factor;
      EXPECT_EQ(results.test(factor), rule.isInResults(factor)) << factor;
    }
  }
  // k of the product is in the operands only; the broadcast's new dimension in the result.
  EXPECT_TRUE(matmulRule().operandFactors().test(2));
  EXPECT_FALSE(matmulRule().resultFactors().test(2));
  EXPECT_FALSE(broadcast.operandFactors().test(1));
  EXPECT_TRUE(broadcast.resultFactors().test(1));
}

}  // namespace
}  // namespace tessel::rules
