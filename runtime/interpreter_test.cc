// Tests of the interpreter loop: argument checks, regions, calls and error reporting.
#include "runtime/interpreter.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "partitioner/ir/parse_module.h"
#include "support/status_matchers.h"

namespace tessel::runtime {
namespace {

using ::tessel::testing::IsOk;
using ::tessel::testing::StatusIs;

class InterpreterTest : public ::testing::Test {
 protected:
  // Parses `text` and runs its @main on `args`.
  absl::StatusOr<std::vector<Tensor>> Run(absl::string_view text, std::vector<Tensor> args) {
    absl::StatusOr<mlir::OwningOpRef<mlir::ModuleOp>> module =
        ParseModule(text, "test.mlir", context_);
    if (!module.ok()) return module.status();
    module_ = *std::move(module);
    Interpreter interpreter;
    return interpreter.RunFunction(module_->lookupSymbol<mlir::func::FuncOp>("main"), args);
  }

  mlir::MLIRContext context_;
  mlir::OwningOpRef<mlir::ModuleOp> module_;
};

TEST_F(InterpreterTest, RunsConstantsAndAdds) {
  auto results = Run(R"(
    func.func @main(%x: tensor<3xi32>) -> tensor<3xi32> {
      %c = hlo.constant dense<[10, 20, 30]> : tensor<3xi32>
      %0 = hlo.add %x, %c : tensor<3xi32>
      return %0 : tensor<3xi32>
    })",
                     {Tensor::FromVector<int32_t>({3}, {1, 2, 3})});
  ASSERT_THAT(results, IsOk());
  ASSERT_EQ(results->size(), 1u);
  EXPECT_EQ((*results)[0].ToVector<int32_t>(), (std::vector<int32_t>{11, 22, 33}));
}

TEST_F(InterpreterTest, IntegerAddWrapsAround) {
  auto results = Run(R"(
    func.func @main(%x: tensor<2xi8>) -> tensor<2xi8> {
      %0 = hlo.add %x, %x : tensor<2xi8>
      return %0 : tensor<2xi8>
    })",
                     {Tensor::FromVector<int8_t>({2}, {100, -100})});
  ASSERT_THAT(results, IsOk());
  // 200 and -200 wrap to -56 and 56 in 8 bits.
  EXPECT_EQ((*results)[0].ToVector<int8_t>(), (std::vector<int8_t>{-56, 56}));
}

TEST_F(InterpreterTest, RunsCalledFunctions) {
  auto results = Run(R"(
    func.func @twice(%x: tensor<2xf32>) -> tensor<2xf32> {
      %0 = hlo.add %x, %x : tensor<2xf32>
      return %0 : tensor<2xf32>
    }
    func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
      %0 = func.call @twice(%x) : (tensor<2xf32>) -> tensor<2xf32>
      %1 = func.call @twice(%0) : (tensor<2xf32>) -> tensor<2xf32>
      return %1 : tensor<2xf32>
    })",
                     {Tensor::FromVector<float>({2}, {1.5f, -2.0f})});
  ASSERT_THAT(results, IsOk());
  EXPECT_EQ((*results)[0].ToVector<float>(), (std::vector<float>{6.0f, -8.0f}));
}

TEST_F(InterpreterTest, ReturnsArgumentsAndRepeatedValues) {
  // Arguments are bound without a copy and results computed in the block are moved out;
  // neither may disturb the caller's tensors or a value returned twice.
  std::vector<Tensor> args = {Tensor::FromVector<float>({2}, {1.0f, 2.0f})};
  auto results = Run(R"(
    func.func @main(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
      %0 = hlo.add %x, %x : tensor<2xf32>
      return %0, %x, %0 : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
    })",
                     args);
  ASSERT_THAT(results, IsOk());
  ASSERT_EQ(results->size(), 3u);
  EXPECT_EQ((*results)[0].ToVector<float>(), (std::vector<float>{2.0f, 4.0f}));
  EXPECT_EQ((*results)[1].ToVector<float>(), (std::vector<float>{1.0f, 2.0f}));
  EXPECT_EQ((*results)[2].ToVector<float>(), (std::vector<float>{2.0f, 4.0f}));
  EXPECT_EQ(args[0].ToVector<float>(), (std::vector<float>{1.0f, 2.0f}));
}

TEST_F(InterpreterTest, RejectsArgumentsOfTheWrongShapeOrType) {
  constexpr absl::string_view kProgram = R"(
    func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
      return %x : tensor<2xf32>
    })";
  EXPECT_THAT(Run(kProgram, {Tensor::FromVector<float>({3}, {1, 2, 3})}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "argument 0: expected tensor<2xf32>, got f32[3]"));
  EXPECT_THAT(Run(kProgram, {Tensor::FromVector<int32_t>({2}, {1, 2})}),
              StatusIs(absl::StatusCode::kInvalidArgument, "got s32[2]"));
  EXPECT_THAT(Run(kProgram, {}), StatusIs(absl::StatusCode::kInvalidArgument,
                                          "takes 1 arguments, got 0"));
}

TEST_F(InterpreterTest, AnOpWithoutAKernelIsNamedInTheError) {
  // A registry without kernels: the interpreter must name the op it cannot run.
  auto module = ParseModule(R"(
    func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
      %0 = hlo.add %x, %x : tensor<2xf32>
      return %0 : tensor<2xf32>
    })",
                            "test.mlir", context_);
  ASSERT_THAT(module, IsOk());
  KernelRegistry empty;
  Interpreter interpreter(empty, PartitionContext{});
  auto results = interpreter.RunFunction((*module)->lookupSymbol<mlir::func::FuncOp>("main"),
                                         {Tensor::FromVector<float>({2}, {1, 2})});
  EXPECT_THAT(results, StatusIs(absl::StatusCode::kUnimplemented,
                                "hlo.add at test.mlir:3:12: the executor has no kernel"));
}

TEST_F(InterpreterTest, ShardingAnnotationsRunAsTheIdentity) {
  auto results = Run(R"(
    tessel.mesh @mesh = <["x"=2]>
    func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
      %0 = tessel.sharding_constraint %x <@mesh, [{"x"}]> : tensor<2xf32>
      %1 = tessel.reshard %0 <@mesh, [{}]> : tensor<2xf32>
      return %1 : tensor<2xf32>
    })",
                     {Tensor::FromVector<float>({2}, {1, 2})});
  ASSERT_THAT(results, IsOk());
  EXPECT_EQ((*results)[0].ToVector<float>(), (std::vector<float>{1, 2}));
}

}  // namespace
}  // namespace tessel::runtime
