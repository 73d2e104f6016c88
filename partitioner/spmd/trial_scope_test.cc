// SpmdBuilder::TrialScope: a priced strategy's offsets are placeholders, so a trial makes no
// partition id and leaves none behind in the function; one made before the trial stays, one
// asked for after it is made then, once. The partition id is asked for through a reshard
// that needs it: a whole value made unreduced is kept on the first device of each group.
#include <gtest/gtest.h>

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/ir/parse_module.h"
#include "partitioner/ir/tessel/tessel_ops.h"
#include "partitioner/spmd/layout.h"
#include "partitioner/spmd/spmd_builder.h"

namespace tessel::spmd {
namespace {

int CountPartitionIds(mlir::func::FuncOp func) {
  int count = 0;
  func.walk([&](ir::PartitionIdOp) { ++count; });
  return count;
}

class TrialScopeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto parsed = ParseModule(R"(tessel.mesh @mesh = <["x"=2]>
func.func @f(%a: tensor<4xf32>) {
  return
})",
                              "trial.mlir", context_);
    ASSERT_TRUE(parsed.ok()) << parsed.status();
    module_ = std::move(*parsed);
    func_ = module_->lookupSymbol<mlir::func::FuncOp>("f");
    block_ = &func_.getBody().front();
    auto mesh = module_->lookupSymbol<ir::MeshOp>("mesh");
    whole_ = Layout::replicated(mesh.getMesh(), mlir::FlatSymbolRefAttr::get(mesh), 1);
    partial_ = whole_;
    partial_.unreduced.push_back(ir::AxisRefAttr::get(&context_, "x"));
  }

  // Emits the reshard of the argument from whole to unreduced, which reads the partition id.
  void KeepOnFirst(SpmdBuilder& spmd) {
    mlir::FailureOr<mlir::Value> kept = spmd.reshard(
        block_->getArgument(0), whole_, partial_, {4}, mlir::UnknownLoc::get(&context_));
    ASSERT_TRUE(mlir::succeeded(kept));
  }

  mlir::MLIRContext context_;
  mlir::OwningOpRef<mlir::ModuleOp> module_;
  mlir::func::FuncOp func_;
  mlir::Block* block_ = nullptr;
  Layout whole_ = Layout::replicated(nullptr, nullptr, 0), partial_ = whole_;
};

TEST_F(TrialScopeTest, TrialLeavesNoPartitionId) {
  SpmdBuilder spmd(func_, block_);
  spmd.builder().setInsertionPoint(block_->getTerminator());
  {
    SpmdBuilder::TrialScope trial(spmd);
    KeepOnFirst(spmd);
    EXPECT_EQ(CountPartitionIds(func_), 0);
  }
  EXPECT_EQ(CountPartitionIds(func_), 0);
  // Asked for again after the trial, it is made again, and only once.
  KeepOnFirst(spmd);
  KeepOnFirst(spmd);
  EXPECT_EQ(CountPartitionIds(func_), 1);
}

TEST_F(TrialScopeTest, PartitionIdMadeBeforeATrialStays) {
  SpmdBuilder spmd(func_, block_);
  spmd.builder().setInsertionPoint(block_->getTerminator());
  KeepOnFirst(spmd);
  {
    SpmdBuilder::TrialScope trial(spmd);
    KeepOnFirst(spmd);
  }
  EXPECT_EQ(CountPartitionIds(func_), 1);
  ASSERT_TRUE(mlir::succeeded(mlir::verify(*module_)));
}

}  // namespace
}  // namespace tessel::spmd
