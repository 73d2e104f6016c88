// getSingleOpCombiners on the reducer regions it must recognize and those it must not.
#include "partitioner/ir/hlo/reducer_region.h"

#include <gtest/gtest.h>

#include <string>

#include "mlir/IR/MLIRContext.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/ir/parse_module.h"

namespace tessel::hlo {
namespace {

// The combiners of the first reduce in `body` (a function of %x: tensor<4xf32>,
// %i: tensor<4xi32>, with %z: tensor<f32> and %n: tensor<i32> defined), as op names;
// "none" when there are none.
std::string CombinersOf(const std::string& reduce, int64_t numInputs) {
  mlir::MLIRContext context;
  std::string text = R"(func.func @f(%x: tensor<4xf32>, %i: tensor<4xi32>) {
  %z = hlo.constant dense<0.0> : tensor<f32>
  %n = hlo.constant dense<0> : tensor<i32>
)" + reduce + "\n  return\n}\n";
  auto module = ParseModule(text, "reducer.mlir", context);
  EXPECT_TRUE(module.ok()) << module.status();
  if (!module.ok()) return "parse error";
  ReduceOp op;
  (*module)->walk([&](ReduceOp found) { op = found; });
  auto combiners = getSingleOpCombiners(op.getBody(), numInputs);
  if (!combiners) return "none";
  std::string names;
  for (mlir::Operation* combiner : *combiners) {
    names += (names.empty() ? "" : ",") + combiner->getName().getStringRef().str();
  }
  return names;
}

TEST(ReducerRegionTest, OneOpPerInputInEitherOrder) {
  EXPECT_EQ(CombinersOf(R"(%r = hlo.reduce(%x) init(%z) dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32> reducer {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = hlo.max %b, %a : tensor<f32>
    hlo.return %s : tensor<f32>
  })", 1),
            "hlo.max");
  EXPECT_EQ(CombinersOf(R"(%r:2 = hlo.reduce(%x, %i) init(%z, %n) dimensions = [0] : (tensor<4xf32>, tensor<4xi32>, tensor<f32>, tensor<i32>) -> (tensor<f32>, tensor<i32>) reducer {
  ^bb0(%a: tensor<f32>, %c: tensor<i32>, %b: tensor<f32>, %d: tensor<i32>):
    %s = hlo.add %a, %b : tensor<f32>
    %t = hlo.min %c, %d : tensor<i32>
    hlo.return %s, %t : tensor<f32>, tensor<i32>
  })", 2),
            "hlo.add,hlo.min");
}

TEST(ReducerRegionTest, OtherShapesAreNotRecognized) {
  // Two ops chained.
  EXPECT_EQ(CombinersOf(R"(%r = hlo.reduce(%x) init(%z) dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32> reducer {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = hlo.add %a, %b : tensor<f32>
    %t = hlo.mul %s, %s : tensor<f32>
    hlo.return %t : tensor<f32>
  })", 1),
            "none");
  // An op of one accumulator with itself.
  EXPECT_EQ(CombinersOf(R"(%r = hlo.reduce(%x) init(%z) dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32> reducer {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = hlo.add %a, %a : tensor<f32>
    hlo.return %s : tensor<f32>
  })", 1),
            "none");
  // Returning an argument.
  EXPECT_EQ(CombinersOf(R"(%r = hlo.reduce(%x) init(%z) dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32> reducer {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    hlo.return %b : tensor<f32>
  })", 1),
            "none");
  // Inputs crossed: accumulator 0 combined with element 1.
  EXPECT_EQ(CombinersOf(R"(%r:2 = hlo.reduce(%i, %i) init(%n, %n) dimensions = [0] : (tensor<4xi32>, tensor<4xi32>, tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>) reducer {
  ^bb0(%a: tensor<i32>, %c: tensor<i32>, %b: tensor<i32>, %d: tensor<i32>):
    %s = hlo.add %a, %d : tensor<i32>
    %t = hlo.add %c, %b : tensor<i32>
    hlo.return %s, %t : tensor<i32>, tensor<i32>
  })", 2),
            "none");
}

}  // namespace
}  // namespace tessel::hlo
