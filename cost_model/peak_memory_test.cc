// Tests of the liveness walk on hand-made functions with hand-computed peaks.
#include "cost_model/peak_memory.h"

#include "cost_model/test_util.h"
#include "gtest/gtest.h"

namespace tessel::cost_model {
namespace {

TEST(PeakMemoryTest, ValuesLiveFromDefinitionToLastUse) {
  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module = test::Parse(R"mlir(
    func.func @f(%a: tensor<100xf32>) -> tensor<100xf32> {
      %b = hlo.exp %a : tensor<100xf32>
      %big = hlo.iota dim = 0 : tensor<1000xf32>
      %c = hlo.neg %a : tensor<100xf32>
      %d = hlo.add %b, %c : tensor<100xf32>
      return %d : tensor<100xf32>
    })mlir", context);
  ASSERT_TRUE(module);
  PeakMemory memory = EstimatePeakMemory(test::FindFunc(*module, "f"));
  EXPECT_EQ(memory.argument_bytes, 400);
  EXPECT_EQ(memory.result_bytes, 400);
  // Live at each op, arguments included: exp 800, iota 4800 (unused, so only at its op),
  // neg 1200, add 1600, return 800.
  EXPECT_EQ(memory.peak_bytes, 4800);
  ASSERT_NE(memory.peak_op, nullptr);
  EXPECT_EQ(memory.peak_op->getName().getStringRef(), "hlo.iota");
}

TEST(PeakMemoryTest, OperandsAndResultsAreLiveTogether) {
  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module = test::Parse(R"mlir(
    func.func @f(%a: tensor<10xf32>) -> tensor<10xf64> {
      %b = hlo.exp %a : tensor<10xf32>
      %c = hlo.convert %b : (tensor<10xf32>) -> tensor<10xf64>
      return %c : tensor<10xf64>
    })mlir", context);
  ASSERT_TRUE(module);
  PeakMemory memory = EstimatePeakMemory(test::FindFunc(*module, "f"));
  // At the convert: the argument (40), its operand (40) and its result (80).
  EXPECT_EQ(memory.peak_bytes, 160);
  EXPECT_EQ(memory.peak_op->getName().getStringRef(), "hlo.convert");
}

TEST(PeakMemoryTest, RegionValuesCountAtTheirOp) {
  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module = test::Parse(R"mlir(
    func.func @f(%i0: tensor<i32>, %x: tensor<10xf32>, %p: tensor<i1>) -> tensor<10xf32> {
      %r:2 = hlo.while(%i = %i0, %y = %x) : tensor<i32>, tensor<10xf32>
      cond {
        hlo.return %p : tensor<i1>
      } do {
        %e = hlo.exp %y : tensor<10xf32>
        %f = hlo.add %e, %e : tensor<10xf32>
        hlo.return %i, %f : tensor<i32>, tensor<10xf32>
      }
      return %r#1 : tensor<10xf32>
    })mlir", context);
  ASSERT_TRUE(module);
  PeakMemory memory = EstimatePeakMemory(test::FindFunc(*module, "f"));
  // Arguments 4 + 40 + 1; the loop's results 44; inside the body %e and %f (80) at once.
  EXPECT_EQ(memory.argument_bytes, 45);
  EXPECT_EQ(memory.peak_bytes, 45 + 44 + 80);
  EXPECT_EQ(memory.peak_op->getName().getStringRef(), "hlo.while");
}

TEST(PeakMemoryTest, CallsCountTheirCallee) {
  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module = test::Parse(R"mlir(
    func.func private @callee(%a: tensor<100xf32>) -> tensor<100xf32> {
      %e = hlo.exp %a : tensor<100xf32>
      %f = hlo.add %e, %e : tensor<100xf32>
      return %f : tensor<100xf32>
    }
    func.func @caller(%a: tensor<100xf32>) -> tensor<100xf32> {
      %r = func.call @callee(%a) : (tensor<100xf32>) -> tensor<100xf32>
      return %r : tensor<100xf32>
    })mlir", context);
  ASSERT_TRUE(module);
  PeakMemory memory = EstimatePeakMemory(test::FindFunc(*module, "caller"));
  // The argument, the call's result, and the callee's %e and %f.
  EXPECT_EQ(memory.peak_bytes, 400 + 400 + 800);
  EXPECT_EQ(memory.peak_op->getName().getStringRef(), "func.call");
}

TEST(PeakMemoryTest, UnusedArgumentsStayLive) {
  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module = test::Parse(R"mlir(
    func.func @f(%a: tensor<8xf32>, %unused: tensor<1000xi8>) -> tensor<8xf32> {
      return %a : tensor<8xf32>
    })mlir", context);
  ASSERT_TRUE(module);
  PeakMemory memory = EstimatePeakMemory(test::FindFunc(*module, "f"));
  EXPECT_EQ(memory.peak_bytes, 1032);
  EXPECT_EQ(memory.peak_op->getName().getStringRef(), "func.return");
}

}  // namespace
}  // namespace tessel::cost_model
