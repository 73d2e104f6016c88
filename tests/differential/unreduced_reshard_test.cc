// Resharding partial sums: a value unreduced over "x" (each device holds a partial sum)
// constrained to be split over "x" becomes a reduce_scatter. Checked on 8 local partitions
// against the sum computed on the host: device (x, y) must hold rows [2x, 2x+2) of the sum
// over x' of the partial values of devices (x', y).
#include <vector>

#include "gtest/gtest.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "partitioner/ir/parse_module.h"
#include "partitioner/ir/tessel/tessel_ops.h"
#include "partitioner/propagation/propagate.h"
#include "partitioner/spmd/partition.h"
#include "runtime/random_inputs.h"
#include "runtime/spmd_runner.h"

namespace tessel {
namespace {

using runtime::Tensor;

constexpr char kProgram[] = R"(
tessel.mesh @mesh = <["x"=4, "y"=2]>
func.func @main(%a: tensor<8x6xi32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}], unreduced={"x"}>})
    -> tensor<8x6xi32> {
  %0 = tessel.sharding_constraint %a <@mesh, [{"x"}, {}]> : tensor<8x6xi32>
  return %0 : tensor<8x6xi32>
}
)";

TEST(UnreducedReshardTest, PartialSumsSplitByAReduceScatterEqualTheHostSum) {
  mlir::MLIRContext context;
  auto module = ParseModule(kProgram, "unreduced.mlir", context);
  ASSERT_TRUE(module.ok()) << module.status();
  ASSERT_TRUE(mlir::succeeded(
      propagation::propagateShardings(**module, propagation::PropagationOptions(), nullptr)));
  ASSERT_TRUE(mlir::succeeded(spmd::partitionModule(**module)));
  auto function = (*module)->lookupSymbol<mlir::func::FuncOp>("main");
  bool has_reduce_scatter = false;
  function.walk([&](ir::ReduceScatterOp) { has_reduce_scatter = true; });
  EXPECT_TRUE(has_reduce_scatter);

  // Device d = 2x + y holds its own partial value.
  std::vector<std::vector<Tensor>> inputs;
  for (int d = 0; d < 8; ++d) {
    inputs.push_back({runtime::RandomTensor(runtime::ElementType::kS32, {8, 6}, 100 + d)});
  }
  auto outputs = runtime::RunSpmd(function, inputs, 8);
  ASSERT_TRUE(outputs.ok()) << outputs.status();
  for (int x = 0; x < 4; ++x) {
    for (int y = 0; y < 2; ++y) {
      const Tensor& got = (*outputs)[2 * x + y][0];
      ASSERT_EQ(got.shape(), (runtime::Shape{2, 6}));
      for (int row = 0; row < 2; ++row) {
        for (int col = 0; col < 6; ++col) {
          int32_t sum = 0;
          for (int other = 0; other < 4; ++other) {
            sum += inputs[2 * other + y][0].data<int32_t>()[(2 * x + row) * 6 + col];
          }
          EXPECT_EQ(got.data<int32_t>()[row * 6 + col], sum)
              << "device (" << x << ", " << y << ") row " << row << " col " << col;
        }
      }
    }
  }
}

}  // namespace
}  // namespace tessel
