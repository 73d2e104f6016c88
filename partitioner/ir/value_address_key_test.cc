// ir::ValueAddressKey: a map keyed by it finds every value of a program, and values close
// in memory hash close together, which is what it is for.
#include "partitioner/ir/value_address_key.h"

#include <cstdint>
#include <vector>

#include "gtest/gtest.h"
#include "llvm/ADT/DenseMap.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "partitioner/ir/hlo/hlo_ops.h"

namespace tessel::ir {
namespace {

class ValueAddressKeyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    context_.loadDialect<mlir::func::FuncDialect, hlo::HloDialect>();
    module_ = mlir::parseSourceString<mlir::ModuleOp>(R"(
      func.func @main(%a: tensor<8xf32>) -> tensor<8xf32> {
        %0 = hlo.exp %a : tensor<8xf32>
        %1 = hlo.exp %0 : tensor<8xf32>
        %2 = hlo.exp %1 : tensor<8xf32>
        %3 = hlo.exp %2 : tensor<8xf32>
        %4 = hlo.exp %3 : tensor<8xf32>
        %5 = hlo.exp %4 : tensor<8xf32>
        %6 = hlo.exp %5 : tensor<8xf32>
        %7 = hlo.exp %6 : tensor<8xf32>
        return %7 : tensor<8xf32>
      })",
                                                      &context_);
    ASSERT_TRUE(module_);
    module_->walk([&](mlir::Operation* op) {
      for (mlir::Value result : op->getResults()) values_.push_back(result);
    });
    auto function = *module_->getOps<mlir::func::FuncOp>().begin();
    values_.insert(values_.begin(), function.getArgument(0));
  }

  mlir::MLIRContext context_;
  mlir::OwningOpRef<mlir::ModuleOp> module_;
  std::vector<mlir::Value> values_;
};

TEST_F(ValueAddressKeyTest, MapFindsEveryValueAndOnlyThose) {
  llvm::DenseMap<mlir::Value, int, ValueAddressKey> index;
  for (int i = 0; i < static_cast<int>(values_.size()); ++i) index[values_[i]] = i;
  ASSERT_EQ(index.size(), 9u);
  for (int i = 0; i < static_cast<int>(values_.size()); ++i) {
    auto it = index.find(values_[i]);
    ASSERT_NE(it, index.end());
    EXPECT_EQ(it->second, i);
  }
  index.erase(values_[3]);
  EXPECT_EQ(index.count(values_[3]), 0u);
  EXPECT_EQ(index.count(values_[4]), 1u);
}

// Values in the same 64 KiB of memory keep their order and distance in the hash, where
// MLIR's own hash of a value spreads them over the whole range.
TEST_F(ValueAddressKeyTest, ValuesCloseInMemoryHashAsCloseTogether) {
  auto granule = [](mlir::Value value) {
    return static_cast<int64_t>(reinterpret_cast<uintptr_t>(value.getAsOpaquePointer()) >>
                                ValueAddressKey::kGranuleBits);
  };
  int compared = 0;
  for (size_t i = 1; i < values_.size(); ++i) {
    int64_t a = granule(values_[i - 1]), b = granule(values_[i]);
    if ((a >> ValueAddressKey::kBlockBits) != (b >> ValueAddressKey::kBlockBits)) continue;
    ++compared;
    // Subtracted as 32-bit hashes, which may wrap past zero between the two.
    auto hashDistance = static_cast<int32_t>(ValueAddressKey::getHashValue(values_[i]) -
                                             ValueAddressKey::getHashValue(values_[i - 1]));
    EXPECT_EQ(hashDistance, b - a) << "values " << i - 1 << " and " << i;
  }
  // Ops parsed one after another share a block but for the odd boundary between them.
  EXPECT_GE(compared, 4);
}

}  // namespace
}  // namespace tessel::ir
