// Tests of BlockLifetimes: which values die after each op, and which operands an op may
// overwrite, on a block whose reads cover each case (twice by one op, inside a region, by
// the terminator, never), arguments included.
#include "runtime/value_lifetimes.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "partitioner/ir/parse_module.h"
#include "support/status_matchers.h"

namespace tessel::runtime {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

constexpr absl::string_view kProgram = R"(
    func.func @main(%x: tensor<2xf32>, %i: tensor<i32>) -> (tensor<2xf32>, tensor<2xf32>) {
      %a = hlo.exp %x : tensor<2xf32>
      %b = hlo.add %a, %a : tensor<2xf32>
      %c = hlo.neg %b : tensor<2xf32>
      %unused = hlo.abs %c : tensor<2xf32>
      %d = hlo.case %i branches {
        hlo.return %c : tensor<2xf32>
      }, {
        %n = hlo.neg %c : tensor<2xf32>
        hlo.return %n : tensor<2xf32>
      } : (tensor<i32>) -> tensor<2xf32>
      %e = hlo.sub %x, %d : tensor<2xf32>
      %f = hlo.mul %e, %e : tensor<2xf32>
      return %f, %e : tensor<2xf32>, tensor<2xf32>
    })";

class BlockLifetimesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    absl::StatusOr<mlir::OwningOpRef<mlir::ModuleOp>> module =
        ParseModule(kProgram, "test.mlir", context_);
    ASSERT_THAT(module, ::tessel::testing::IsOk());
    module_ = *std::move(module);
    block_ = &module_->lookupSymbol<mlir::func::FuncOp>("main").getBody().front();
  }

  // The names the values of `values` have in kProgram.
  std::vector<std::string> Names(llvm::ArrayRef<mlir::Value> values) {
    std::vector<std::string> names;
    for (mlir::Value value : values) {
      if (auto argument = llvm::dyn_cast<mlir::BlockArgument>(value)) {
        names.push_back(kArgumentNames[argument.getArgNumber()]);
      }
      for (auto [index, op] : llvm::enumerate(block_->getOperations())) {
        if (value.getDefiningOp() == &op) names.push_back(kNames[index]);
      }
    }
    return names;
  }

  static constexpr const char* kArgumentNames[] = {"x", "i"};
  static constexpr const char* kNames[] = {"a", "b", "c", "unused", "d", "e", "f"};
  mlir::MLIRContext context_;
  mlir::OwningOpRef<mlir::ModuleOp> module_;
  mlir::Block* block_ = nullptr;
};

TEST_F(BlockLifetimesTest, ValuesDieAfterTheirLastRead) {
  BlockLifetimes lifetimes(*block_);
  ASSERT_EQ(lifetimes.size(), 7u);
  EXPECT_THAT(Names(lifetimes.DiesAfter(0)), IsEmpty());  // a is read by b
  EXPECT_THAT(Names(lifetimes.DiesAfter(1)), ElementsAre("a"));
  EXPECT_THAT(Names(lifetimes.DiesAfter(2)), ElementsAre("b"));
  // Nothing reads `unused`: it dies where it is made. c is read later, in the case's regions.
  EXPECT_THAT(Names(lifetimes.DiesAfter(3)), ElementsAre("unused"));
  // Arguments are listed as well (the interpreter frees them only when it owns them),
  // before results.
  EXPECT_THAT(Names(lifetimes.DiesAfter(4)), ElementsAre("i", "c"));
  EXPECT_THAT(Names(lifetimes.DiesAfter(5)), ElementsAre("x", "d"));
  // e and f are returned: the terminator reads them, so they never die in the block.
  EXPECT_THAT(Names(lifetimes.DiesAfter(6)), IsEmpty());
}

TEST_F(BlockLifetimesTest, OnlyOperandsReadOnceAndLastMayBeOverwritten) {
  BlockLifetimes lifetimes(*block_);
  EXPECT_THAT(lifetimes.Overwritable(0), IsEmpty());        // x is read later
  EXPECT_THAT(lifetimes.Overwritable(1), IsEmpty());        // a is both operands
  EXPECT_THAT(lifetimes.Overwritable(2), ElementsAre(0u));  // b, read last by neg
  EXPECT_THAT(lifetimes.Overwritable(3), IsEmpty());        // c is read later
  // i, read last here; c is read inside the regions, so it may not be overwritten
  EXPECT_THAT(lifetimes.Overwritable(4), ElementsAre(0u));
  EXPECT_THAT(lifetimes.Overwritable(5), ElementsAre(0u, 1u));  // x and d, read last here
  EXPECT_THAT(lifetimes.Overwritable(6), IsEmpty());        // e is returned
}

}  // namespace
}  // namespace tessel::runtime
