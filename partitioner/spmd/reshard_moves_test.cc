// SpmdBuilder's all_to_all moves end even when a reshard target breaks the layout rules: a
// target that uses one axis on two dimensions (a bug upstream, as weight-update sharding once
// made) used to move the axis between them for ever. Each axis now moves at most once.
#include <gtest/gtest.h>

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "partitioner/ir/parse_module.h"
#include "partitioner/ir/tessel/tessel_ops.h"
#include "partitioner/spmd/layout.h"
#include "partitioner/spmd/spmd_builder.h"

namespace tessel::spmd {
namespace {

TEST(ReshardMovesTest, ATargetUsingAnAxisTwiceDoesNotMoveItForEver) {
  mlir::MLIRContext context;
  auto parsed = ParseModule(R"(tessel.mesh @mesh = <["x"=4]>
func.func @f(%a: tensor<1x1xi32>) {
  return
})",
                            "moves.mlir", context);
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  mlir::OwningOpRef<mlir::ModuleOp> module = std::move(*parsed);
  auto func = module->lookupSymbol<mlir::func::FuncOp>("f");
  mlir::Block* block = &func.getBody().front();
  auto mesh = module->lookupSymbol<ir::MeshOp>("mesh");
  const auto x = ir::AxisRefAttr::get(&context, "x");
  // A 4x1 value split over "x" on dimension 0 (local 1x1), to [{"x"}, {"x"}].
  Layout from = Layout::replicated(mesh.getMesh(), mlir::FlatSymbolRefAttr::get(mesh), 2);
  from.dims[0].push_back(x);
  Layout to = from;
  to.dims[1].push_back(x);
  SpmdBuilder spmd(func, block);
  spmd.builder().setInsertionPoint(block->getTerminator());
  // Whatever it makes of the broken target, it returns.
  (void)spmd.reshard(block->getArgument(0), from, to, {4, 1}, mlir::UnknownLoc::get(&context));
  int allToAlls = 0;
  func.walk([&](ir::AllToAllOp) { ++allToAlls; });
  EXPECT_LE(allToAlls, 1);
}

}  // namespace
}  // namespace tessel::spmd
