// ir::countOpsAndValues on a function with a loop: ops at every depth, results, and the
// arguments of the function's block and of the loop's regions.
#include "partitioner/ir/ir_counts.h"

#include "gtest/gtest.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "partitioner/ir/hlo/hlo_ops.h"

namespace tessel::ir {
namespace {

TEST(IrCountsTest, CountsOpsResultsAndBlockArgumentsAtEveryDepth) {
  mlir::MLIRContext context;
  context.loadDialect<mlir::func::FuncDialect, hlo::HloDialect>();
  mlir::OwningOpRef<mlir::ModuleOp> module = mlir::parseSourceString<mlir::ModuleOp>(R"(
    func.func @main(%a: tensor<8x4xf32>, %init: tensor<i32>) -> tensor<8x4xf32> {
      %r:2 = hlo.while(%i = %init, %v = %a) : tensor<i32>, tensor<8x4xf32>
      cond {
        %t = hlo.constant dense<true> : tensor<i1>
        hlo.return %t : tensor<i1>
      } do {
        %e = hlo.exp %v : tensor<8x4xf32>
        hlo.return %i, %e : tensor<i32>, tensor<8x4xf32>
      }
      return %r#1 : tensor<8x4xf32>
    })",
                                                                                   &context);
  ASSERT_TRUE(module);
  IrCounts all = countOpsAndValues(module->getOperation());
  // module, func, while, constant, return, exp, return, return.
  EXPECT_EQ(all.ops, 8u);
  // %a %init; %r#0 %r#1; %i %v in each of the loop's two regions; %t; %e.
  EXPECT_EQ(all.values, 10u);
  auto function = *module->getOps<mlir::func::FuncOp>().begin();
  IrCounts inFunction = countOpsAndValues(function);
  EXPECT_EQ(inFunction.ops, 7u);
  EXPECT_EQ(inFunction.values, 10u);
}

}  // namespace
}  // namespace tessel::ir
