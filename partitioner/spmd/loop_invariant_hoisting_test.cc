// After partitioning, a while body whose weight is loop-invariant holds no collective: the
// weight's reshard runs once before the loop, on every standard mesh and uneven splits. A
// case whose branches reshard the same weight alike reshards it once, before the case.
#include "partitioner/spmd/loop_invariant_hoisting.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "gtest/gtest.h"
#include "mlir/IR/MLIRContext.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/ir/parse_module.h"
#include "partitioner/ir/tessel/tessel_ops.h"
#include "partitioner/propagation/propagate.h"
#include "partitioner/spmd/partition.h"

namespace tessel::spmd {
namespace {

bool isCollective(mlir::Operation* op) {
  return llvm::isa<ir::AllGatherOp, ir::AllReduceOp, ir::ReduceScatterOp, ir::AllToAllOp,
                   ir::CollectivePermuteOp>(op);
}

struct Counts {
  int inside = 0;   // collectives in the regions of `Region` ops
  int outside = 0;  // collectives at function level
};

template <typename Region>
Counts CountCollectives(mlir::ModuleOp module) {
  Counts counts;
  module.walk([&](mlir::Operation* op) {
    if (!isCollective(op)) return;
    if (op->getParentOfType<Region>()) {
      ++counts.inside;
    } else {
      ++counts.outside;
    }
  });
  return counts;
}

mlir::OwningOpRef<mlir::ModuleOp> Partitioned(const std::string& text,
                                              mlir::MLIRContext& context) {
  auto module = ParseModule(text, "hoist.mlir", context);
  EXPECT_TRUE(module.ok()) << module.status();
  if (!module.ok()) return nullptr;
  EXPECT_TRUE(mlir::succeeded(propagation::propagateShardings(**module, {}, nullptr)));
  EXPECT_TRUE(mlir::succeeded(partitionModule(**module)));
  return std::move(*module);
}

// h' = tanh(h w): h split by rows over "x" and kept so, w split by rows over "y" (FSDP-like).
// Per trip, gathering w is free once hoisted, where a partial sum over "y" would need an
// all_reduce every trip: strategy choice prices the hoisted gather as free.
constexpr char kLoop[] = R"(tessel.mesh @mesh = <["x"=X, "y"=Y]>
func.func @main(%h: tensor<10x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>},
                %w: tensor<6x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"y"}, {}]>})
    -> (tensor<10x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>}) {
  %zero = hlo.constant dense<0> : tensor<i32>
  %r:3 = hlo.while(%i = %zero, %a = %h, %v = %w) : tensor<i32>, tensor<10x6xf32>, tensor<6x6xf32>
  cond {
    %n = hlo.constant dense<4> : tensor<i32>
    %p = hlo.compare LT, %i, %n : tensor<i32>
    hlo.return %p : tensor<i1>
  } do {
    %one = hlo.constant dense<1> : tensor<i32>
    %i1 = hlo.add %i, %one : tensor<i32>
    %d = hlo.dot_general %a, %v, lhs_contract = [1], rhs_contract = [0] : (tensor<10x6xf32>, tensor<6x6xf32>) -> tensor<10x6xf32>
    %t = hlo.tanh %d : tensor<10x6xf32>
    %c = tessel.sharding_constraint %t <@mesh, [{"x"}, {}]> : tensor<10x6xf32>
    hlo.return %i1, %c, %v : tensor<i32>, tensor<10x6xf32>, tensor<6x6xf32>
  }
  return %r#1 : tensor<10x6xf32>
})";

class LoopHoistingTest : public ::testing::TestWithParam<std::pair<int, int>> {};

TEST_P(LoopHoistingTest, InvariantWeightIsReshardedBeforeTheLoop) {
  auto [x, y] = GetParam();
  mlir::MLIRContext context;
  auto module = Partitioned(
      absl::StrReplaceAll(kLoop, {{"X", absl::StrCat(x)}, {"Y", absl::StrCat(y)}}), context);
  ASSERT_TRUE(module);
  Counts counts = CountCollectives<hlo::WhileOp>(*module);
  EXPECT_EQ(counts.inside, 0);
  if (y > 1) {
    EXPECT_GE(counts.outside, 1);
  }
}

INSTANTIATE_TEST_SUITE_P(Meshes, LoopHoistingTest,
                         ::testing::Values(std::make_pair(1, 2), std::make_pair(2, 3),
                                           std::make_pair(3, 2), std::make_pair(2, 4),
                                           std::make_pair(1, 6), std::make_pair(4, 2)));

TEST(LoopHoistingTest, LoopVariantStateStaysInTheBody) {
  // The carried activation changes every trip: its collectives cannot leave the loop.
  mlir::MLIRContext context;
  auto module = Partitioned(R"(tessel.mesh @mesh = <["x"=2]>
func.func @main(%h: tensor<8x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {"x"}]>},
                %w: tensor<6x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>})
    -> tensor<8x6xf32> {
  %r:2 = hlo.while(%a = %h, %v = %w) : tensor<8x6xf32>, tensor<6x6xf32>
  cond {
    %z = hlo.constant dense<false> : tensor<i1>
    hlo.return %z : tensor<i1>
  } do {
    %d = hlo.dot_general %a, %v, lhs_contract = [1], rhs_contract = [0] : (tensor<8x6xf32>, tensor<6x6xf32>) -> tensor<8x6xf32>
    %c = tessel.sharding_constraint %d <@mesh, [{}, {"x"}]> : tensor<8x6xf32>
    hlo.return %c, %v : tensor<8x6xf32>, tensor<6x6xf32>
  }
  return %r#0 : tensor<8x6xf32>
})",
                            context);
  ASSERT_TRUE(module);
  EXPECT_GE(CountCollectives<hlo::WhileOp>(*module).inside, 1);
}

TEST(CaseHoistingTest, CommonReshardRunsOnceBeforeTheCase) {
  mlir::MLIRContext context;
  auto module = Partitioned(R"(tessel.mesh @mesh = <["x"=4]>
func.func @main(%i: tensor<i32>, %h: tensor<8x6xf32>,
                %w: tensor<6x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>})
    -> tensor<8x6xf32> {
  %r = hlo.case %i branches {
    %d = hlo.dot_general %h, %w, lhs_contract = [1], rhs_contract = [0] : (tensor<8x6xf32>, tensor<6x6xf32>) -> tensor<8x6xf32>
    hlo.return %d : tensor<8x6xf32>
  }, {
    %d = hlo.dot_general %h, %w, lhs_contract = [1], rhs_contract = [0] : (tensor<8x6xf32>, tensor<6x6xf32>) -> tensor<8x6xf32>
    %t = hlo.tanh %d : tensor<8x6xf32>
    hlo.return %t : tensor<8x6xf32>
  } : (tensor<i32>) -> tensor<8x6xf32>
  return %r : tensor<8x6xf32>
})",
                            context);
  ASSERT_TRUE(module);
  Counts counts = CountCollectives<hlo::CaseOp>(*module);
  EXPECT_EQ(counts.inside, 0);
  EXPECT_EQ(counts.outside, 1);
}

}  // namespace
}  // namespace tessel::spmd
