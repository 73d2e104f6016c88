// Tests of the interpreter loop: argument checks, regions, calls and error reporting, and
// the run limits: a stop (timeout), the cap on while iterations and the memory limit.
#include "runtime/interpreter.h"

#include <cmath>

#include "absl/time/clock.h"
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
  // Parses `text` and runs its @main on `args` under `limits`.
  absl::StatusOr<std::vector<Tensor>> Run(absl::string_view text, std::vector<Tensor> args,
                                          RunLimits limits = RunLimits()) {
    absl::StatusOr<mlir::OwningOpRef<mlir::ModuleOp>> module =
        ParseModule(text, "test.mlir", context_);
    if (!module.ok()) return module.status();
    module_ = *std::move(module);
    Interpreter interpreter(DefaultKernelRegistry(), PartitionContext{}, limits);
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

// A loop that never ends: its condition is always true.
constexpr absl::string_view kEndlessLoop = R"(
    func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
      %r = hlo.while(%s = %x) : tensor<2xf32>
      cond {
        %t = hlo.constant dense<true> : tensor<i1>
        hlo.return %t : tensor<i1>
      } do {
        %s1 = hlo.add %s, %s : tensor<2xf32>
        hlo.return %s1 : tensor<2xf32>
      }
      return %r : tensor<2xf32>
    })";

TEST_F(InterpreterTest, AStoppedRunNamesTheLoopAndTheIteration) {
  StopSignal stop;
  // The loop runs until the watchdog stops it; no bound on when, only that it does.
  Watchdog watchdog(stop, absl::Now() + absl::Milliseconds(50),
                    absl::DeadlineExceededError("the run's timeout of 50ms has passed"));
  auto results = Run(kEndlessLoop, {Tensor::FromVector<float>({2}, {1, 2})}, RunLimits{&stop});
  EXPECT_THAT(results, StatusIs(absl::StatusCode::kDeadlineExceeded,
                                "hlo.while at test.mlir:3:12: iteration "));
  EXPECT_THAT(results, StatusIs(absl::StatusCode::kDeadlineExceeded,
                                "the run's timeout of 50ms has passed"));
}

TEST_F(InterpreterTest, ARunStoppedBeforeItStartsRunsNothing) {
  StopSignal stop;
  stop.Stop(absl::CancelledError("given up"));
  EXPECT_THAT(Run(kEndlessLoop, {Tensor::FromVector<float>({2}, {1, 2})}, RunLimits{&stop}),
              StatusIs(absl::StatusCode::kCancelled, "given up"));
}

TEST_F(InterpreterTest, AWhileLoopPastItsIterationLimitFails) {
  EXPECT_THAT(Run(kEndlessLoop, {Tensor::FromVector<float>({2}, {1, 2})},
                  RunLimits{nullptr, /*max_while_iterations=*/1000}),
              StatusIs(absl::StatusCode::kResourceExhausted,
                       "hlo.while at test.mlir:3:12: the loop did not end within "
                       "max_while_iterations = 1000 iterations"));
}

TEST_F(InterpreterTest, AWhileLoopThatRunsNoOpStillCountsIterations) {
  // The condition returns a captured value: the loop runs no op the interpreter could
  // check between, only the loop's own check.
  constexpr absl::string_view kProgram = R"(
    func.func @main(%x: tensor<2xf32>, %f: tensor<i1>) -> tensor<2xf32> {
      %r = hlo.while(%s = %x) : tensor<2xf32>
      cond {
        hlo.return %f : tensor<i1>
      } do {
        hlo.return %s : tensor<2xf32>
      }
      return %r : tensor<2xf32>
    })";
  EXPECT_THAT(Run(kProgram, {Tensor::FromVector<float>({2}, {1, 2}), Tensor::Scalar<bool>(true)},
                  RunLimits{nullptr, /*max_while_iterations=*/7}),
              StatusIs(absl::StatusCode::kResourceExhausted, "max_while_iterations = 7"));
}

TEST_F(InterpreterTest, ALoopWithinTheIterationLimitRuns) {
  // Counts to 5: five iterations, exactly the limit.
  constexpr absl::string_view kProgram = R"(
    func.func @main(%n: tensor<i32>) -> tensor<i32> {
      %zero = hlo.constant dense<0> : tensor<i32>
      %one = hlo.constant dense<1> : tensor<i32>
      %r = hlo.while(%i = %zero) : tensor<i32>
      cond {
        %lt = hlo.compare LT, %i, %n : tensor<i32>
        hlo.return %lt : tensor<i1>
      } do {
        %i1 = hlo.add %i, %one : tensor<i32>
        hlo.return %i1 : tensor<i32>
      }
      return %r : tensor<i32>
    })";
  auto results =
      Run(kProgram, {Tensor::Scalar<int32_t>(5)}, RunLimits{nullptr, /*max_while_iterations=*/5});
  ASSERT_THAT(results, IsOk());
  EXPECT_EQ((*results)[0].ToVector<int32_t>(), (std::vector<int32_t>{5}));
  EXPECT_THAT(Run(kProgram, {Tensor::Scalar<int32_t>(6)}, RunLimits{nullptr, 5}),
              StatusIs(absl::StatusCode::kResourceExhausted, "max_while_iterations = 5"));
}

TEST_F(InterpreterTest, CountersCountTheOpsRun) {
  RunCounters counters;
  RunLimits limits;
  limits.counters = &counters;
  auto results = Run(R"(
    func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
      %n = hlo.neg %x : tensor<2xf32>
      %e = hlo.exp %n : tensor<2xf32>
      %s = hlo.add %e, %x : tensor<2xf32>
      return %s : tensor<2xf32>
    })",
                     {Tensor::FromVector<float>({2}, {1, 2})}, limits);
  ASSERT_THAT(results, IsOk());
  EXPECT_EQ(counters.ops.load(), 3);
}

TEST_F(InterpreterTest, AManualComputationOnMoreDevicesThanThreadsAllowIsRefused) {
  // One thread per device: 2048 is beyond the documented 1024, and says what to do.
  auto results = Run(R"(
    tessel.mesh @mesh = <["x"=2048]>
    func.func @main(%a: tensor<2048xf32>) -> tensor<2048xf32> {
      %r = tessel.manual_computation(%a) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"} (%la: tensor<1xf32>) {
        tessel.return %la : tensor<1xf32>
      } : (tensor<2048xf32>) -> tensor<2048xf32>
      return %r : tensor<2048xf32>
    })",
                     {Tensor::Zeros(ElementType::kF32, {2048})});
  EXPECT_THAT(results, StatusIs(absl::StatusCode::kResourceExhausted,
                                "@mesh has 2048 devices, more than 1024"));
}

TEST_F(InterpreterTest, AStopReachesTheDevicesOfAManualComputation) {
  // Device 0 of the manual computation loops for ever, device 1 waits for it in a
  // collective; stopping the enclosing run ends both.
  StopSignal stop;
  Watchdog watchdog(stop, absl::Now() + absl::Milliseconds(50),
                    absl::DeadlineExceededError("the run's timeout of 50ms has passed"));
  auto results = Run(R"(
    tessel.mesh @mesh = <["x"=2]>
    func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {
      %r = tessel.manual_computation(%a) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"} (%la: tensor<1xf32>) {
        %id = tessel.partition_id : tensor<ui32>
        %zero = hlo.constant dense<0> : tensor<ui32>
        %first = hlo.compare EQ, %id, %zero : tensor<ui32>
        %l = hlo.while(%s = %la) : tensor<1xf32>
        cond {
          hlo.return %first : tensor<i1>
        } do {
          %s1 = hlo.add %s, %s : tensor<1xf32>
          hlo.return %s1 : tensor<1xf32>
        }
        %sum = tessel.all_reduce %l over @mesh ["x"] kind = sum : tensor<1xf32>
        tessel.return %sum : tensor<1xf32>
      } : (tensor<2xf32>) -> tensor<2xf32>
      return %r : tensor<2xf32>
    })",
                     {Tensor::FromVector<float>({2}, {1, 2})}, RunLimits{&stop});
  EXPECT_THAT(results, StatusIs(absl::StatusCode::kDeadlineExceeded,
                                "tessel.manual_computation at test.mlir:4:12: manual "
                                "computation, device 0: hlo.while at test.mlir:8:14: iteration "));
  EXPECT_THAT(results, StatusIs(absl::StatusCode::kDeadlineExceeded,
                                "the run's timeout of 50ms has passed"));
}

// Sets the process's memory limit for one test and restores it after.
class ScopedMemoryLimit {
 public:
  explicit ScopedMemoryLimit(int64_t bytes) : previous_(MemoryLimit()) { SetMemoryLimit(bytes); }
  ~ScopedMemoryLimit() { SetMemoryLimit(previous_); }

 private:
  int64_t previous_;
};

TEST_F(InterpreterTest, AnOpBeyondTheMemoryLimitFailsNamingItsShapeAndBytes) {
  constexpr absl::string_view kProgram = R"(
    func.func @main(%x: tensor<f32>) -> tensor<1000x1000xf32> {
      %0 = hlo.broadcast_in_dim %x, dims = [] : (tensor<f32>) -> tensor<1000x1000xf32>
      return %0 : tensor<1000x1000xf32>
    })";
  ScopedMemoryLimit limit(1 << 20);
  EXPECT_THAT(Run(kProgram, {Tensor::Scalar<float>(1)}),
              StatusIs(absl::StatusCode::kResourceExhausted,
                       "hlo.broadcast_in_dim at test.mlir:3:12: out of memory: f32[1000,1000] "
                       "needs 4000000 bytes (3.81 MiB), beyond max_memory = 1048576 bytes "
                       "(1 MiB)"));
}

TEST_F(InterpreterTest, AnOpInALoopBeyondTheMemoryLimitFailsAndTheRunCanGoOn) {
  // The loop's body fails inside nested scopes; the interpreter unwinds them and can run
  // again once the limit allows.
  constexpr absl::string_view kProgram = R"(
    func.func @main(%x: tensor<f32>, %f: tensor<i1>) -> tensor<f32> {
      %r = hlo.while(%s = %x) : tensor<f32>
      cond {
        hlo.return %f : tensor<i1>
      } do {
        %b = hlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<512x1024xf32>
        hlo.return %s : tensor<f32>
      }
      return %r : tensor<f32>
    })";
  absl::StatusOr<mlir::OwningOpRef<mlir::ModuleOp>> module =
      ParseModule(kProgram, "test.mlir", context_);
  ASSERT_THAT(module, IsOk());
  auto main = (*module)->lookupSymbol<mlir::func::FuncOp>("main");
  Interpreter interpreter;
  {
    ScopedMemoryLimit limit(1 << 20);
    EXPECT_THAT(interpreter.RunFunction(main, {Tensor::Scalar<float>(1),
                                               Tensor::Scalar<bool>(true)}),
                StatusIs(absl::StatusCode::kResourceExhausted,
                         "hlo.while at test.mlir:3:12: hlo.broadcast_in_dim at test.mlir:7:14: "
                         "out of memory: f32[512,1024] needs 2097152 bytes"));
  }
  auto results =
      interpreter.RunFunction(main, {Tensor::Scalar<float>(3), Tensor::Scalar<bool>(false)});
  ASSERT_THAT(results, IsOk());
  EXPECT_EQ((*results)[0].ToVector<float>(), (std::vector<float>{3}));
}

// f32[512, 1024] tensors take 2 MiB each; the limits below leave room for fewer tensors
// than the programs would hold if each value lived until the function returned (or each
// result took a fresh buffer).
constexpr int64_t kMiB = int64_t{1} << 20;

TEST_F(InterpreterTest, AValueIsFreedAfterItsLastRead) {
  // Five 2 MiB values, at most two alive at once.
  constexpr absl::string_view kProgram = R"(
    func.func @main(%x: tensor<f32>) -> tensor<512x1024xf32> {
      %b = hlo.broadcast_in_dim %x, dims = [] : (tensor<f32>) -> tensor<512x1024xf32>
      %0 = hlo.add %b, %b : tensor<512x1024xf32>
      %1 = hlo.add %0, %0 : tensor<512x1024xf32>
      %2 = hlo.add %1, %1 : tensor<512x1024xf32>
      %3 = hlo.add %2, %2 : tensor<512x1024xf32>
      return %3 : tensor<512x1024xf32>
    })";
  ScopedMemoryLimit limit(5 * kMiB);
  auto results = Run(kProgram, {Tensor::Scalar<float>(1)});
  ASSERT_THAT(results, IsOk());
  absl::Span<const float> values = (*results)[0].data<float>();
  EXPECT_EQ(values.front(), 16.0f);
  EXPECT_EQ(values.back(), 16.0f);
}

TEST_F(InterpreterTest, ElementwiseOpsWriteOverOperandsNothingReadsAfterwards) {
  // The argument (2 MiB, held twice: the initializer list copies it) and exp's result
  // (2 MiB) fit under the limit; one more buffer, for neg, add or sub, would not. Both add
  // and sub write over their right operand, so the operand order must survive.
  constexpr absl::string_view kProgram = R"(
    func.func @main(%x: tensor<512x1024xf32>) -> tensor<512x1024xf32> {
      %e = hlo.exp %x : tensor<512x1024xf32>
      %n = hlo.neg %e : tensor<512x1024xf32>
      %s = hlo.add %x, %n : tensor<512x1024xf32>
      %t = hlo.sub %x, %s : tensor<512x1024xf32>
      return %t : tensor<512x1024xf32>
    })";
  std::vector<float> input(512 * 1024);
  for (size_t i = 0; i < input.size(); ++i) input[i] = static_cast<float>(i % 7) - 3.0f;
  ScopedMemoryLimit limit(7 * kMiB);
  auto results = Run(kProgram, {Tensor::FromVector<float>({512, 1024}, input)});
  ASSERT_THAT(results, IsOk());
  absl::Span<const float> values = (*results)[0].data<float>();
  for (size_t i : {size_t{0}, size_t{1}, size_t{5}, input.size() - 1}) {
    const float x = input[i];
    const float s = x + -std::exp(x);
    EXPECT_FLOAT_EQ(values[i], x - s) << "element " << i;
  }
}

TEST_F(InterpreterTest, ShapeSelectionAndIdentityOpsReuseOperandsNothingReadsAfterwards) {
  // Two 2 MiB values and a 512 KiB predicate fit under the limit; a copy of either value
  // would not. reshape, convert to the same type and optimization_barrier hand their
  // operand on; clamp writes over its operand and select over one of its choices.
  constexpr absl::string_view kProgram = R"(
    func.func @main(%x: tensor<f32>) -> tensor<1024x512xf32> {
      %i = hlo.iota dim = 0 : tensor<1024x512xf32>
      %half = hlo.constant dense<512.0> : tensor<f32>
      %h = hlo.broadcast_in_dim %half, dims = [] : (tensor<f32>) -> tensor<1024x512xf32>
      %p = hlo.compare LT, %i, %h : tensor<1024x512xf32>
      %b = hlo.broadcast_in_dim %x, dims = [] : (tensor<f32>) -> tensor<512x1024xf32>
      %r = hlo.reshape %b : (tensor<512x1024xf32>) -> tensor<1024x512xf32>
      %v = hlo.convert %r : (tensor<1024x512xf32>) -> tensor<1024x512xf32>
      %w = hlo.optimization_barrier %v : tensor<1024x512xf32>
      %lo = hlo.constant dense<0.0> : tensor<f32>
      %hi = hlo.constant dense<1.0> : tensor<f32>
      %c = hlo.clamp %lo, %w, %hi : tensor<f32>, tensor<1024x512xf32>, tensor<f32>
      %s = hlo.select %p, %i, %c : tensor<1024x512xi1>, tensor<1024x512xf32>
      return %s : tensor<1024x512xf32>
    })";
  ScopedMemoryLimit limit(6 * kMiB);
  auto results = Run(kProgram, {Tensor::Scalar<float>(3)});
  ASSERT_THAT(results, IsOk());
  absl::Span<const float> values = (*results)[0].data<float>();
  EXPECT_EQ(values[0], 0.0f);                // row 0: the iota
  EXPECT_EQ(values[511 * 512 + 7], 511.0f);  // row 511: the iota
  EXPECT_EQ(values[512 * 512], 1.0f);        // row 512: 3 clamped to [0, 1]
  EXPECT_EQ(values.back(), 1.0f);
}

TEST_F(InterpreterTest, KernelResultsAreMovedNotCopied) {
  // Each of the product and the second iota is made while another 2 MiB value is alive,
  // under a 5 MiB limit: a copy of its result on its way out of the kernel would not fit.
  constexpr absl::string_view kProgram = R"(
    func.func @main(%a: tensor<512x1xf32>, %b: tensor<1x1024xf32>) -> tensor<512x1024xf32> {
      %i = hlo.iota dim = 1 : tensor<512x1024xf32>
      %p = hlo.dot_general %a, %b, lhs_contract = [1], rhs_contract = [0]
          : (tensor<512x1xf32>, tensor<1x1024xf32>) -> tensor<512x1024xf32>
      %s = hlo.add %p, %i : tensor<512x1024xf32>
      %j = hlo.iota dim = 0 : tensor<512x1024xf32>
      %t = hlo.add %s, %j : tensor<512x1024xf32>
      return %t : tensor<512x1024xf32>
    })";
  ScopedMemoryLimit limit(5 * kMiB);
  auto results = Run(kProgram, {Tensor::FromVector<float>({512, 1}, std::vector<float>(512, 2)),
                                Tensor::FromVector<float>({1, 1024}, std::vector<float>(1024, 3))});
  ASSERT_THAT(results, IsOk());
  absl::Span<const float> values = (*results)[0].data<float>();
  EXPECT_EQ(values[0], 6.0f);
  EXPECT_EQ(values.back(), 6.0f + 1023.0f + 511.0f);
}

TEST_F(InterpreterTest, AWhileLoopTakesItsStateOverAndItsBodyUpdatesItInPlace) {
  // One 2 MiB state under a 3 MiB limit: the loop takes %w0 over instead of copying it,
  // and the body's neg writes over the state it was handed.
  constexpr absl::string_view kProgram = R"(
    func.func @main(%x: tensor<f32>, %n: tensor<i32>) -> tensor<512x1024xf32> {
      %w0 = hlo.broadcast_in_dim %x, dims = [] : (tensor<f32>) -> tensor<512x1024xf32>
      %zero = hlo.constant dense<0> : tensor<i32>
      %r:2 = hlo.while(%i = %zero, %w = %w0) : tensor<i32>, tensor<512x1024xf32>
      cond {
        %lt = hlo.compare LT, %i, %n : tensor<i32>
        hlo.return %lt : tensor<i1>
      } do {
        %one = hlo.constant dense<1> : tensor<i32>
        %next = hlo.add %i, %one : tensor<i32>
        %v = hlo.neg %w : tensor<512x1024xf32>
        hlo.return %next, %v : tensor<i32>, tensor<512x1024xf32>
      }
      return %r#1 : tensor<512x1024xf32>
    })";
  ScopedMemoryLimit limit(3 * kMiB);
  auto results = Run(kProgram, {Tensor::Scalar<float>(2), Tensor::Scalar<int32_t>(3)});
  ASSERT_THAT(results, IsOk());
  absl::Span<const float> values = (*results)[0].data<float>();
  EXPECT_EQ(values.front(), -2.0f);
  EXPECT_EQ(values.back(), -2.0f);
}

TEST_F(InterpreterTest, AValueReadInsideALaterOpsRegionStaysAlive) {
  // %c is read only inside the case's branches: it must outlive every op before the case,
  // and neg may not overwrite it even though neg is its last direct reader.
  constexpr absl::string_view kProgram = R"(
    func.func @main(%x: tensor<2xf32>, %i: tensor<i32>) -> (tensor<2xf32>, tensor<2xf32>) {
      %c = hlo.exp %x : tensor<2xf32>
      %m = hlo.neg %x : tensor<2xf32>
      %d = hlo.case %i branches {
        hlo.return %c : tensor<2xf32>
      }, {
        %n = hlo.neg %c : tensor<2xf32>
        hlo.return %n : tensor<2xf32>
      } : (tensor<i32>) -> tensor<2xf32>
      return %d, %m : tensor<2xf32>, tensor<2xf32>
    })";
  for (int32_t branch : {0, 1}) {
    auto results = Run(
        kProgram, {Tensor::FromVector<float>({2}, {0.0f, 1.0f}), Tensor::Scalar<int32_t>(branch)});
    ASSERT_THAT(results, IsOk());
    const float sign = branch == 0 ? 1.0f : -1.0f;
    EXPECT_EQ((*results)[0].ToVector<float>(),
              (std::vector<float>{sign * std::exp(0.0f), sign * std::exp(1.0f)}));
    EXPECT_EQ((*results)[1].ToVector<float>(), (std::vector<float>{-0.0f, -1.0f}));
  }
}

}  // namespace
}  // namespace tessel::runtime
