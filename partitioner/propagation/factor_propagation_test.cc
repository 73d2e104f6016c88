// Unit tests of one propagation step over a hand-built rule (no ops involved).
#include "partitioner/propagation/factor_propagation.h"

#include "gtest/gtest.h"
#include "partitioner/propagation/mesh_test_fixture.h"

namespace tessel::propagation {
namespace {

class FactorPropagationTest : public MeshTest {
 protected:
  TensorState State(std::vector<AxisList> dims, std::vector<bool> closed = {}) {
    TensorState state = openState(meshName_, mesh_, dims.size());
    for (size_t d = 0; d < dims.size(); ++d) {
      state.dims[d].axes = dims[d];
      state.dims[d].closed = d < closed.size() && closed[d];
    }
    return state;
  }
};

// The rule of C[i, j] = sum_k A[i, k] B[k, j] with i=8, j=16, k=8.
rules::OpShardingRule MatmulRule() {
  using rules::FactorKind;
  return rules::OpShardingRule({{8, FactorKind::kPassThrough, false},
                                {16, FactorKind::kPassThrough, false},
                                {8, FactorKind::kReduction, false}},
                               {{{0}, {2}}, {{2}, {1}}}, {{{0}, {1}}});
}

TEST_F(FactorPropagationTest, OperandShardingsReachTheResult) {
  rules::OpShardingRule rule = MatmulRule();
  TensorState a = State({{Axis("x")}, {}});
  TensorState b = State({{}, {Axis("y")}});
  TensorState c = State({{}, {}});
  llvm::SmallVector<StepTensor> tensors = {
      {&a, &rule.getOperand(0), 64, true},
      {&b, &rule.getOperand(1), 128, true},
      {&c, &rule.getResult(0), 128, true}};
  llvm::SmallVector<StepChange> changes = propagateThroughRule(rule, tensors, mesh_, 0);
  ASSERT_EQ(changes.size(), 1u);
  EXPECT_EQ(changes[0].tensor, 2);
  EXPECT_EQ(c.dims[0].axes, (AxisList{Axis("x")}));
  EXPECT_EQ(c.dims[1].axes, (AxisList{Axis("y")}));
  // Each new axis names the tensor it came from: the rows' from a, the columns' from b.
  ASSERT_EQ(changes[0].gains.size(), 2u);
  for (const AxisGain& gain : changes[0].gains) {
    if (gain.dim == 0) {
      EXPECT_EQ(gain.axis, Axis("x"));
      EXPECT_EQ(gain.source, 0);
    } else {
      EXPECT_EQ(gain.dim, 1);
      EXPECT_EQ(gain.axis, Axis("y"));
      EXPECT_EQ(gain.source, 1);
    }
  }
}

TEST_F(FactorPropagationTest, ReductionFactorsTravelBetweenOperandsOnly) {
  rules::OpShardingRule rule = MatmulRule();
  TensorState a = State({{}, {Axis("x")}});  // contracting dim split
  TensorState b = State({{}, {}});
  TensorState c = State({{}, {}});
  llvm::SmallVector<StepTensor> tensors = {
      {&a, &rule.getOperand(0), 64, true},
      {&b, &rule.getOperand(1), 128, true},
      {&c, &rule.getResult(0), 128, true}};
  propagateThroughRule(rule, tensors, mesh_, 0);
  EXPECT_EQ(b.dims[0].axes, (AxisList{Axis("x")}));
  EXPECT_TRUE(c.dims[0].axes.empty());
  EXPECT_TRUE(c.dims[1].axes.empty());
}

TEST_F(FactorPropagationTest, ClosedDimsAndDisabledTensorsDoNotGrow) {
  rules::OpShardingRule rule = MatmulRule();
  TensorState a = State({{Axis("x")}, {}});
  TensorState b = State({{}, {Axis("y")}});
  TensorState c = State({{}, {}}, {true, false});  // dim 0 closed
  llvm::SmallVector<StepTensor> tensors = {
      {&a, &rule.getOperand(0), 64, true},
      {&b, &rule.getOperand(1), 128, true},
      {&c, &rule.getResult(0), 128, true}};
  propagateThroughRule(rule, tensors, mesh_, 0);
  EXPECT_TRUE(c.dims[0].axes.empty());
  EXPECT_EQ(c.dims[1].axes, (AxisList{Axis("y")}));

  TensorState d = State({{}, {}});
  tensors[2] = {&d, &rule.getResult(0), 128, /*mayGrow=*/false};
  EXPECT_TRUE(propagateThroughRule(rule, tensors, mesh_, 0).empty());
}

TEST_F(FactorPropagationTest, AnAxisUsedByAnotherFactorIsNotTakenTwice) {
  rules::OpShardingRule rule = MatmulRule();
  // Both operands want "x", for i and for j: the larger tensor's factor (b's j) goes first,
  // so the result takes x on dim 1 and not on dim 0.
  TensorState a = State({{Axis("x")}, {}});
  TensorState b = State({{}, {Axis("x")}});
  TensorState c = State({{}, {}});
  llvm::SmallVector<StepTensor> tensors = {
      {&a, &rule.getOperand(0), 64, true},
      {&b, &rule.getOperand(1), 128, true},
      {&c, &rule.getResult(0), 128, true}};
  propagateThroughRule(rule, tensors, mesh_, 0);
  EXPECT_TRUE(c.dims[0].axes.empty());
  EXPECT_EQ(c.dims[1].axes, (AxisList{Axis("x")}));
}

TEST_F(FactorPropagationTest, MaskedDimensionsWaitForTheirPriorityLevel) {
  rules::OpShardingRule rule = MatmulRule();
  TensorState a = State({{Axis("x")}, {}});
  a.dims[0].priority = 1;
  TensorState b = State({{}, {}});
  TensorState c = State({{}, {}});
  llvm::SmallVector<StepTensor> tensors = {
      {&a, &rule.getOperand(0), 64, true},
      {&b, &rule.getOperand(1), 128, true},
      {&c, &rule.getResult(0), 128, true}};
  EXPECT_TRUE(propagateThroughRule(rule, tensors, mesh_, /*level=*/0).empty());
  propagateThroughRule(rule, tensors, mesh_, /*level=*/1);
  EXPECT_EQ(c.dims[0].axes, (AxisList{Axis("x")}));
}

}  // namespace
}  // namespace tessel::propagation
