// FunctionAttrEditor: edits land on the right arguments and results, existing attributes
// stay, removals take effect, and nothing is written until commit (or destruction).
#include "partitioner/ir/function_attrs.h"

#include "gtest/gtest.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"

namespace tessel::ir {
namespace {

TEST(FunctionAttrEditorTest, EditsArgumentsAndResultsInOneWrite) {
  mlir::MLIRContext context;
  context.loadDialect<mlir::func::FuncDialect>();
  mlir::OpBuilder builder(&context);
  auto module = mlir::ModuleOp::create(builder.getUnknownLoc());
  builder.setInsertionPointToEnd(module.getBody());
  auto f32 = builder.getF32Type();
  auto func = builder.create<mlir::func::FuncOp>(
      builder.getUnknownLoc(), "f", builder.getFunctionType({f32, f32, f32}, {f32, f32}));
  func.setArgAttr(1, "kept", builder.getUnitAttr());
  func.setArgAttr(2, "dropped", builder.getUnitAttr());
  {
    FunctionAttrEditor edit(func);
    edit.setArg(0, "a", builder.getI64IntegerAttr(7));
    edit.setArg(1, "b", builder.getI64IntegerAttr(8));
    edit.removeArg(2, "dropped");
    edit.setResult(1, "r", builder.getStringAttr("x"));
    EXPECT_EQ(edit.getArg(1, "kept"), builder.getUnitAttr());
    EXPECT_FALSE(func.getArgAttr(0, "a"));  // not written yet
  }
  EXPECT_EQ(func.getArgAttr(0, "a"), builder.getI64IntegerAttr(7));
  EXPECT_EQ(func.getArgAttr(1, "b"), builder.getI64IntegerAttr(8));
  EXPECT_TRUE(func.getArgAttr(1, "kept"));
  EXPECT_FALSE(func.getArgAttr(2, "dropped"));
  EXPECT_FALSE(func.getResultAttr(0, "r"));
  EXPECT_EQ(func.getResultAttr(1, "r"), builder.getStringAttr("x"));
  module->erase();
}

}  // namespace
}  // namespace tessel::ir
