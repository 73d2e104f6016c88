// Tests of RunSpmd and RunPartitions: hand-written SPMD programs on 4 partitions, where each partition adds
// something to its own shard and then calls a collective, compared with values computed by
// hand; and how failures of one partition are reported.
#include "runtime/spmd_runner.h"

#include <atomic>
#include <new>
#include <thread>
#include <vector>

#include "absl/time/clock.h"
#include "collectives/local/local_communicator.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "partitioner/ir/parse_module.h"
#include "support/status_matchers.h"

namespace tessel::runtime {
namespace {

using ::tessel::testing::IsOk;
using ::tessel::testing::StatusIs;
using ::testing::ElementsAre;

class SpmdRunnerTest : public ::testing::Test {
 protected:
  // Parses `text` and runs its @main on every partition.
  absl::StatusOr<std::vector<std::vector<Tensor>>> Run(
      absl::string_view text, const std::vector<std::vector<Tensor>>& inputs,
      SpmdOptions options = SpmdOptions()) {
    absl::StatusOr<mlir::OwningOpRef<mlir::ModuleOp>> module =
        ParseModule(text, "test.mlir", context_);
    if (!module.ok()) return module.status();
    module_ = *std::move(module);
    return RunSpmd(module_->lookupSymbol<mlir::func::FuncOp>("main"), inputs,
                   static_cast<int64_t>(inputs.size()), options);
  }

  // One input per partition: partition p gets make(p).
  template <typename Fn>
  static std::vector<std::vector<Tensor>> PerPartition(int64_t n, Fn make) {
    std::vector<std::vector<Tensor>> inputs;
    for (int64_t p = 0; p < n; ++p) inputs.push_back({make(p)});
    return inputs;
  }

  mlir::MLIRContext context_;
  mlir::OwningOpRef<mlir::ModuleOp> module_;
};

TEST_F(SpmdRunnerTest, AddThenAllReduce) {
  constexpr absl::string_view kProgram = R"(
    tessel.mesh @mesh = <["x"=4]>
    func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
      %c = hlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
      %s = hlo.add %x, %c : tensor<2xf32>
      %r = tessel.all_reduce %s over @mesh ["x"] kind = sum : tensor<2xf32>
      return %r : tensor<2xf32>
    })";
  auto outputs = Run(kProgram, PerPartition(4, [](int64_t p) {
                       return Tensor::FromVector<float>({2}, {float(p), float(10 * p)});
                     }));
  ASSERT_THAT(outputs, IsOk());
  // (0+1+2+3) + 4*1 = 10 and (0+10+20+30) + 4*2 = 68, on every partition.
  for (const auto& output : *outputs) {
    EXPECT_THAT(output[0].ToVector<float>(), ElementsAre(10.0f, 68.0f));
  }
}

TEST_F(SpmdRunnerTest, RunPartitionsRunsASubsetOnTheCallersCommunicator) {
  // Partitions {0, 1} and {3, 2} run from two RunPartitions calls on one communicator, as
  // two ranks of an MPI job would; results come back in the order the partitions were given.
  constexpr absl::string_view kProgram = R"(
    tessel.mesh @mesh = <["x"=4]>
    func.func @main(%x: tensor<1xi32>) -> tensor<4xi32> {
      %g = tessel.all_gather %x over @mesh ["x"] dim = 0 : (tensor<1xi32>) -> tensor<4xi32>
      return %g : tensor<4xi32>
    })";
  auto module = ParseModule(kProgram, "test.mlir", context_);
  ASSERT_THAT(module, IsOk());
  auto main = (*module)->lookupSymbol<mlir::func::FuncOp>("main");
  collectives::LocalCommunicator communicator(4);
  auto input = [](int64_t p) {
    return std::vector<Tensor>{Tensor::FromVector<int32_t>({1}, {int32_t(10 * p)})};
  };
  absl::StatusOr<std::vector<std::vector<Tensor>>> first, second;
  std::thread other([&] {
    second = RunPartitions(main, {3, 2}, {input(3), input(2)}, communicator);
  });
  first = RunPartitions(main, {0, 1}, {input(0), input(1)}, communicator);
  other.join();
  ASSERT_THAT(first, IsOk());
  ASSERT_THAT(second, IsOk());
  for (const auto* outputs : {&*first, &*second}) {
    ASSERT_EQ(outputs->size(), 2u);
    for (const auto& output : *outputs) {
      EXPECT_THAT(output[0].ToVector<int32_t>(), ElementsAre(0, 10, 20, 30));
    }
  }
  EXPECT_THAT(RunPartitions(main, {4}, {input(0)}, communicator),
              StatusIs(absl::StatusCode::kInvalidArgument, "partition 4 is out of range [0, 4)"));
  EXPECT_THAT(RunPartitions(main, {0, 1}, {input(0)}, communicator),
              StatusIs(absl::StatusCode::kInvalidArgument, "expected inputs for 2 partitions"));
}

TEST_F(SpmdRunnerTest, AddThenAllGatherRebuildsTheGlobalValue) {
  constexpr absl::string_view kProgram = R"(
    tessel.mesh @mesh = <["x"=4]>
    func.func @main(%x: tensor<2xi32>) -> tensor<8xi32> {
      %c = hlo.constant dense<100> : tensor<2xi32>
      %s = hlo.add %x, %c : tensor<2xi32>
      %g = tessel.all_gather %s over @mesh ["x"] dim = 0 : (tensor<2xi32>) -> tensor<8xi32>
      return %g : tensor<8xi32>
    })";
  auto outputs =
      Run(kProgram, PerPartition(4, [](int64_t p) {
            // Shard p of the global [0, 1, ..., 7].
            return Tensor::FromVector<int32_t>({2}, {int32_t(2 * p), int32_t(2 * p + 1)});
          }));
  ASSERT_THAT(outputs, IsOk());
  for (const auto& output : *outputs) {
    EXPECT_THAT(output[0].ToVector<int32_t>(), ElementsAre(100, 101, 102, 103, 104, 105, 106, 107));
  }
}

TEST_F(SpmdRunnerTest, AddThenReduceScatter) {
  constexpr absl::string_view kProgram = R"(
    tessel.mesh @mesh = <["x"=4]>
    func.func @main(%x: tensor<8xi32>) -> tensor<2xi32> {
      %c = hlo.constant dense<[0, 1, 2, 3, 4, 5, 6, 7]> : tensor<8xi32>
      %s = hlo.add %x, %c : tensor<8xi32>
      %r = tessel.reduce_scatter %s over @mesh ["x"] dim = 0 kind = sum : (tensor<8xi32>) -> tensor<2xi32>
      return %r : tensor<2xi32>
    })";
  auto outputs = Run(kProgram, PerPartition(4, [](int64_t p) {
                       return Tensor::FromVector<int32_t>({8}, std::vector<int32_t>(8, 10 * p));
                     }));
  ASSERT_THAT(outputs, IsOk());
  // Element i of the sum is 4*i + (0+10+20+30); partition p keeps elements 2p and 2p+1.
  for (int64_t p = 0; p < 4; ++p) {
    EXPECT_THAT((*outputs)[p][0].ToVector<int32_t>(),
                ElementsAre(4 * (2 * p) + 60, 4 * (2 * p + 1) + 60));
  }
}

TEST_F(SpmdRunnerTest, AddThenAllToAllTransposesTheSharding) {
  // A 4x4 matrix M[i][j] = 10i + j, split by columns: partition p holds column p (as 4x1).
  // After the all-to-all it holds row p (as 1x4).
  constexpr absl::string_view kProgram = R"(
    tessel.mesh @mesh = <["x"=4]>
    func.func @main(%x: tensor<4x1xi64>) -> tensor<1x4xi64> {
      %c = hlo.constant dense<[[0], [10], [20], [30]]> : tensor<4x1xi64>
      %s = hlo.add %x, %c : tensor<4x1xi64>
      %t = tessel.all_to_all %s over @mesh ["x"] split_dim = 0 concat_dim = 1 : (tensor<4x1xi64>) -> tensor<1x4xi64>
      return %t : tensor<1x4xi64>
    })";
  auto outputs = Run(kProgram, PerPartition(4, [](int64_t p) {
                       return Tensor::FromVector<int64_t>({4, 1}, std::vector<int64_t>(4, p));
                     }));
  ASSERT_THAT(outputs, IsOk());
  for (int64_t p = 0; p < 4; ++p) {
    EXPECT_THAT((*outputs)[p][0].ToVector<int64_t>(),
                ElementsAre(10 * p, 10 * p + 1, 10 * p + 2, 10 * p + 3));
  }
}

TEST_F(SpmdRunnerTest, AddThenCollectivePermuteRotates) {
  constexpr absl::string_view kProgram = R"(
    tessel.mesh @mesh = <["x"=4]>
    func.func @main(%x: tensor<2xf64>) -> tensor<2xf64> {
      %c = hlo.constant dense<0.5> : tensor<2xf64>
      %s = hlo.add %x, %c : tensor<2xf64>
      %r = tessel.collective_permute %s over @mesh ["x"] shift = 1 cyclic : tensor<2xf64>
      return %r : tensor<2xf64>
    })";
  auto outputs = Run(kProgram, PerPartition(4, [](int64_t p) {
                       return Tensor::FromVector<double>({2}, {double(p), double(-p)});
                     }));
  ASSERT_THAT(outputs, IsOk());
  for (int64_t p = 0; p < 4; ++p) {
    double from = static_cast<double>((p + 3) % 4);  // position p - 1, wrapped
    EXPECT_THAT((*outputs)[p][0].ToVector<double>(), ElementsAre(from + 0.5, -from + 0.5));
  }
}

TEST_F(SpmdRunnerTest, PartitionIdIsTheRunningPartition) {
  constexpr absl::string_view kProgram = R"(
    func.func @main(%x: tensor<ui32>) -> tensor<ui32> {
      %id = tessel.partition_id : tensor<ui32>
      %s = hlo.add %id, %x : tensor<ui32>
      return %s : tensor<ui32>
    })";
  auto outputs =
      Run(kProgram, PerPartition(4, [](int64_t) { return Tensor::Scalar<uint32_t>(100); }));
  ASSERT_THAT(outputs, IsOk());
  for (int64_t p = 0; p < 4; ++p) {
    EXPECT_THAT((*outputs)[p][0].ToVector<uint32_t>(), ElementsAre(100 + p));
  }
}

// A manual computation is per-device code of a single-device program; in a program that
// already runs on partitions it is refused rather than run once more per partition.
TEST_F(SpmdRunnerTest, ManualComputationOnPartitionsIsRefused) {
  constexpr absl::string_view kProgram = R"(
    tessel.mesh @mesh = <["x"=2]>
    func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
      %r = tessel.manual_computation(%a) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"} (%la: tensor<2xf32>) {
        tessel.return %la : tensor<2xf32>
      } : (tensor<4xf32>) -> tensor<4xf32>
      return %r : tensor<4xf32>
    })";
  auto outputs = Run(kProgram, PerPartition(2, [](int64_t) {
                       return Tensor::FromVector<float>({4}, {1, 2, 3, 4});
                     }));
  EXPECT_THAT(outputs, StatusIs(absl::StatusCode::kUnimplemented,
                                "a manual computation runs in a single-device program"));
}

TEST_F(SpmdRunnerTest, ChainsCollectivesOverSeveralGroups) {
  // 2x2 mesh: sum over "y" (rows), then gather over "x" (columns).
  constexpr absl::string_view kProgram = R"(
    tessel.mesh @mesh = <["x"=2, "y"=2]>
    func.func @main(%x: tensor<1xi32>) -> tensor<2xi32> {
      %r = tessel.all_reduce %x over @mesh ["y"] kind = sum : tensor<1xi32>
      %g = tessel.all_gather %r over @mesh ["x"] dim = 0 : (tensor<1xi32>) -> tensor<2xi32>
      return %g : tensor<2xi32>
    })";
  auto outputs = Run(kProgram, PerPartition(4, [](int64_t p) {
                       return Tensor::FromVector<int32_t>({1}, {int32_t(p)});
                     }));
  ASSERT_THAT(outputs, IsOk());
  // Row sums: devices {0, 1} give 1, devices {2, 3} give 5; every device gathers [1, 5].
  for (const auto& output : *outputs) {
    EXPECT_THAT(output[0].ToVector<int32_t>(), ElementsAre(1, 5));
  }
}

// Four partitions meet in an all-reduce; partition 2's argument (from
// InputsWherePartitionTwoFails) has the wrong shape, so it never reaches it.
constexpr absl::string_view kAllReduceOfFour = R"(
    tessel.mesh @mesh = <["x"=4]>
    func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
      %r = tessel.all_reduce %x over @mesh ["x"] kind = sum : tensor<2xf32>
      return %r : tensor<2xf32>
    })";

std::vector<std::vector<Tensor>> InputsWherePartitionTwoFails() {
  std::vector<std::vector<Tensor>> inputs;
  for (int64_t p = 0; p < 4; ++p) {
    inputs.push_back({p == 2 ? Tensor::FromVector<float>({3}, {1, 2, 3})
                             : Tensor::FromVector<float>({2}, {1, 2})});
  }
  return inputs;
}

TEST_F(SpmdRunnerTest, OneFailingPartitionFailsTheRunFastWithItsId) {
  absl::Time start = absl::Now();
  // The other partitions are aborted; they do not wait for the (default, 60 s) timeout.
  EXPECT_THAT(Run(kAllReduceOfFour, InputsWherePartitionTwoFails()),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "partition 2: argument 0: expected tensor<2xf32>, got f32[3]"));
  EXPECT_LT(absl::Now() - start, absl::Seconds(10));
}

// A LocalCommunicator whose first Abort, when made on a partition's thread, throws as an
// allocator with no memory left for that thread would (the abort builds its messages).
class AbortRunsOutOfMemoryOnce final : public collectives::Communicator {
 public:
  explicit AbortRunsOutOfMemoryOnce(int64_t n) : local_(n) {}
  int64_t num_partitions() const override { return local_.num_partitions(); }
  absl::Status AllReduce(int64_t self, absl::Span<const int64_t> group,
                         collectives::ReductionKind kind, collectives::ConstBuffer input,
                         collectives::Buffer output) override {
    return local_.AllReduce(self, group, kind, input, output);
  }
  absl::Status AllGather(int64_t self, absl::Span<const int64_t> group,
                         collectives::ConstBuffer input, collectives::Buffer output) override {
    return local_.AllGather(self, group, input, output);
  }
  absl::Status ReduceScatter(int64_t self, absl::Span<const int64_t> group,
                             collectives::ReductionKind kind, collectives::ConstBuffer input,
                             collectives::Buffer output) override {
    return local_.ReduceScatter(self, group, kind, input, output);
  }
  absl::Status AllToAll(int64_t self, absl::Span<const int64_t> group,
                        collectives::ConstBuffer input, collectives::Buffer output) override {
    return local_.AllToAll(self, group, input, output);
  }
  absl::Status CollectivePermute(int64_t self, absl::Span<const int64_t> group,
                                 absl::Span<const collectives::SourceTarget> pairs,
                                 collectives::ConstBuffer input,
                                 collectives::Buffer output) override {
    return local_.CollectivePermute(self, group, pairs, input, output);
  }
  absl::Status Broadcast(int64_t self, absl::Span<const int64_t> group, int64_t root,
                         collectives::Buffer buffer) override {
    return local_.Broadcast(self, group, root, buffer);
  }
  absl::Status Barrier(int64_t self, absl::Span<const int64_t> group) override {
    return local_.Barrier(self, group);
  }
  void Abort(const absl::Status& reason) override {
    if (std::this_thread::get_id() != caller_ && !threw_.exchange(true)) throw std::bad_alloc();
    aborts_on_caller_ += std::this_thread::get_id() == caller_;
    local_.Abort(reason);
  }

  int aborts_on_caller() const { return aborts_on_caller_; }

 private:
  collectives::LocalCommunicator local_;
  const std::thread::id caller_ = std::this_thread::get_id();
  std::atomic<bool> threw_{false};
  std::atomic<int> aborts_on_caller_{0};
};

TEST_F(SpmdRunnerTest, AnAbortThePartitionCannotAllocateIsMadeByTheCaller) {
  // Partition 2 fails; the abort it starts runs out of memory on its thread, so the others
  // would wait in the all-reduce for it. RunPartitions, waiting on its own thread, aborts
  // the communicator in its place: the run ends, with partition 2's error, without a crash
  // and long before the collectives' timeout.
  auto module = ParseModule(kAllReduceOfFour, "test.mlir", context_);
  ASSERT_THAT(module, IsOk());
  auto main = (*module)->lookupSymbol<mlir::func::FuncOp>("main");
  AbortRunsOutOfMemoryOnce communicator(4);
  absl::Time start = absl::Now();
  EXPECT_THAT(RunPartitions(main, {0, 1, 2, 3}, InputsWherePartitionTwoFails(), communicator),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "partition 2: argument 0: expected tensor<2xf32>, got f32[3]"));
  EXPECT_LT(absl::Now() - start, absl::Seconds(10));
  EXPECT_EQ(communicator.aborts_on_caller(), 1);
}

// Partition 0 loops for ever; the others wait for it in an all_reduce.
constexpr absl::string_view kPartitionZeroLoops = R"(
    tessel.mesh @mesh = <["x"=4]>
    func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
      %id = tessel.partition_id : tensor<ui32>
      %zero = hlo.constant dense<0> : tensor<ui32>
      %first = hlo.compare EQ, %id, %zero : tensor<ui32>
      %l = hlo.while(%s = %x) : tensor<2xf32>
      cond {
        hlo.return %first : tensor<i1>
      } do {
        %s1 = hlo.add %s, %s : tensor<2xf32>
        hlo.return %s1 : tensor<2xf32>
      }
      %r = tessel.all_reduce %l over @mesh ["x"] kind = sum : tensor<2xf32>
      return %r : tensor<2xf32>
    })";

TEST_F(SpmdRunnerTest, AStopEndsPartitionsThatLoopAndThoseWaitingInCollectives) {
  StopSignal stop;
  Watchdog watchdog(stop, absl::Now() + absl::Milliseconds(100),
                    absl::DeadlineExceededError("the run's timeout of 100ms has passed"));
  SpmdOptions options;
  // Far beyond the test's own timeout: only the stop can end the waits.
  options.collective_timeout = absl::Hours(1);
  options.limits.stop = &stop;
  auto outputs = Run(kPartitionZeroLoops,
                     PerPartition(4, [](int64_t) { return Tensor::FromVector<float>({2}, {1, 2}); }),
                     options);
  // The partitions in the all_reduce are woken first, but the error is the one that names
  // the loop that kept them waiting.
  EXPECT_THAT(outputs, StatusIs(absl::StatusCode::kDeadlineExceeded,
                                "partition 0: hlo.while at test.mlir:7:12: iteration "));
  EXPECT_THAT(outputs, StatusIs(absl::StatusCode::kDeadlineExceeded,
                                "the run's timeout of 100ms has passed"));
}

TEST_F(SpmdRunnerTest, TheIterationLimitReachesEveryPartition) {
  SpmdOptions options;
  options.limits.max_while_iterations = 100;
  EXPECT_THAT(Run(kPartitionZeroLoops,
                  PerPartition(4, [](int64_t) { return Tensor::FromVector<float>({2}, {1, 2}); }),
                  options),
              StatusIs(absl::StatusCode::kResourceExhausted,
                       "partition 0: hlo.while at test.mlir:7:12: the loop did not end within "
                       "max_while_iterations = 100 iterations"));
}

TEST_F(SpmdRunnerTest, AFailingPartitionStopsOneThatLoopsWithoutCollectives) {
  // Partition 0 loops for ever and never reaches a collective, where it used to learn of
  // the failure; partition 2 fails at once.
  constexpr absl::string_view kProgram = R"(
    func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
      %id = tessel.partition_id : tensor<ui32>
      %zero = hlo.constant dense<0> : tensor<ui32>
      %first = hlo.compare EQ, %id, %zero : tensor<ui32>
      %l = hlo.while(%s = %x) : tensor<2xf32>
      cond {
        hlo.return %first : tensor<i1>
      } do {
        %s1 = hlo.add %s, %s : tensor<2xf32>
        hlo.return %s1 : tensor<2xf32>
      }
      return %l : tensor<2xf32>
    })";
  auto inputs = PerPartition(4, [](int64_t p) {
    return p == 2 ? Tensor::FromVector<float>({3}, {1, 2, 3})
                  : Tensor::FromVector<float>({2}, {1, 2});
  });
  EXPECT_THAT(Run(kProgram, inputs),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "partition 2: argument 0: expected tensor<2xf32>, got f32[3]"));
}

TEST_F(SpmdRunnerTest, APartitionBeyondTheMemoryLimitFailsTheRunWithAStatus) {
  // An allocation that fails on a partition's thread must not escape it (that would end
  // the process); it fails the run naming the op.
  constexpr absl::string_view kProgram = R"(
    func.func @main(%x: tensor<f32>) -> tensor<1000x1000xf32> {
      %b = hlo.broadcast_in_dim %x, dims = [] : (tensor<f32>) -> tensor<1000x1000xf32>
      return %b : tensor<1000x1000xf32>
    })";
  const int64_t previous = MemoryLimit();
  SetMemoryLimit(1 << 20);
  auto outputs = Run(kProgram, PerPartition(2, [](int64_t) { return Tensor::Scalar<float>(1); }));
  SetMemoryLimit(previous);
  EXPECT_THAT(outputs, StatusIs(absl::StatusCode::kResourceExhausted,
                                "hlo.broadcast_in_dim at test.mlir:3:12: out of memory: "
                                "f32[1000,1000] needs 4000000 bytes"));
}

TEST_F(SpmdRunnerTest, ReportsPartitionsOutsideTheMesh) {
  // The mesh has devices 0 and 1 only; partitions 2 and 3 cannot join its collectives.
  constexpr absl::string_view kProgram = R"(
    tessel.mesh @mesh = <["x"=2]>
    func.func @main(%x: tensor<1xf32>) -> tensor<1xf32> {
      %r = tessel.all_reduce %x over @mesh ["x"] kind = sum : tensor<1xf32>
      return %r : tensor<1xf32>
    })";
  auto outputs =
      Run(kProgram, PerPartition(4, [](int64_t) { return Tensor::FromVector<float>({1}, {1}); }));
  EXPECT_THAT(outputs,
              StatusIs(absl::StatusCode::kInvalidArgument, "is not a device of mesh @mesh"));
}

TEST_F(SpmdRunnerTest, ReportsMeshesLargerThanTheRun) {
  // Devices 4 to 7 of the group have no partition to run them: an error, not a wait.
  constexpr absl::string_view kProgram = R"(
    tessel.mesh @mesh = <["x"=8]>
    func.func @main(%x: tensor<1xf32>) -> tensor<1xf32> {
      %r = tessel.all_reduce %x over @mesh ["x"] kind = sum : tensor<1xf32>
      return %r : tensor<1xf32>
    })";
  auto outputs =
      Run(kProgram, PerPartition(4, [](int64_t) { return Tensor::FromVector<float>({1}, {1}); }));
  EXPECT_THAT(outputs, StatusIs(absl::StatusCode::kInvalidArgument,
                                "mesh @mesh has device 4, but the program runs on 4 partitions"));
}

TEST_F(SpmdRunnerTest, RejectsInputsForTheWrongNumberOfPartitions) {
  absl::StatusOr<mlir::OwningOpRef<mlir::ModuleOp>> module = ParseModule(R"(
    func.func @main(%x: tensor<1xf32>) -> tensor<1xf32> {
      return %x : tensor<1xf32>
    })",
                                                                         "test.mlir", context_);
  ASSERT_THAT(module, IsOk());
  auto main = (*module)->lookupSymbol<mlir::func::FuncOp>("main");
  std::vector<std::vector<Tensor>> inputs(3, {Tensor::FromVector<float>({1}, {1})});
  EXPECT_THAT(RunSpmd(main, inputs, 4), StatusIs(absl::StatusCode::kInvalidArgument,
                                                 "expected inputs for 4 partitions, got 3"));
  EXPECT_THAT(RunSpmd(main, {}, 0),
              StatusIs(absl::StatusCode::kInvalidArgument, "must be at least 1, got 0"));
}

}  // namespace
}  // namespace tessel::runtime
