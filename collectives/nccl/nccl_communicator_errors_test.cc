// Tests of how the NCCL backend fails: members that never join, calls that disagree, bad
// arguments and aborts end in an error on every member, never in a hang. The GPU cases skip
// themselves without enough devices; creation on a machine without GPUs runs everywhere.
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "collectives/local/test_util.h"
#include "collectives/nccl/nccl_communicator.h"
#include "collectives/nccl/nccl_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "support/status_macros.h"
#include "support/status_matchers.h"

namespace tessel::collectives {
namespace {

using ::tessel::collectives::nccl::testing::OptionsFor;
using ::tessel::collectives::testing::RunOnPartitions;
using ::tessel::testing::IsOk;
using ::tessel::testing::StatusIs;
using ::testing::Each;
using Location = NcclCommunicator::BufferLocation;

constexpr absl::Duration kLongTimeout = absl::Seconds(60);
constexpr absl::Duration kFast = absl::Seconds(20);

// Host buffers throughout: these tests are about control flow, not memory.
std::unique_ptr<NcclCommunicator> Make(int64_t n, absl::Duration timeout) {
  auto communicator =
      NcclCommunicator::CreateSingleProcess(n, OptionsFor(Location::kHost, timeout));
  EXPECT_THAT(communicator.status(), IsOk());
  return communicator.ok() ? std::move(*communicator) : nullptr;
}

absl::Status SumFloats(Communicator& communicator, int64_t self, std::vector<int64_t> group,
                       int64_t count) {
  std::vector<float> input(count, 1.0f), output(count);
  return communicator.AllReduce(self, group, ReductionKind::kSum,
                                MakeConstBuffer(absl::MakeConstSpan(input)),
                                MakeBuffer(absl::MakeSpan(output)));
}

TEST(NcclCommunicatorErrorsTest, CreationWithoutAnyGpuFailsClearly) {
  if (nccl::CudaDeviceCount() > 0) GTEST_SKIP() << "this machine has a CUDA device";
  EXPECT_THAT(
      NcclCommunicator::CreateSingleProcess(2).status(),
      StatusIs(absl::StatusCode::kFailedPrecondition, "2 partitions need 2 CUDA devices; found 0"));
  EXPECT_THAT(NcclCommunicator::Create(2, {{0, 0}}, std::make_shared<nccl::InProcessBootstrap>(),
                                       NcclCommunicator::Options())
                  .status(),
              StatusIs(absl::StatusCode::kFailedPrecondition, "needs a CUDA device; found none"));
}

TEST(NcclCommunicatorErrorsTest, BadLocalPartitionsAreRejected) {
  TESSEL_SKIP_WITHOUT_DEVICES(1);
  auto bootstrap = std::make_shared<nccl::InProcessBootstrap>();
  NcclCommunicator::Options options;
  EXPECT_THAT(NcclCommunicator::Create(2, {{2, 0}}, bootstrap, options).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, "partition 2 is out of range [0, 2)"));
  EXPECT_THAT(NcclCommunicator::Create(2, {{0, 0}, {1, 0}}, bootstrap, options).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, "two partitions are on device 0"));
  EXPECT_THAT(NcclCommunicator::Create(2, {{0, 999}}, bootstrap, options).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, "partition 0 is on device 999"));
  options.timeout = absl::ZeroDuration();
  EXPECT_THAT(NcclCommunicator::Create(2, {{0, 0}}, bootstrap, options).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, "is not positive"));
}

TEST(NcclCommunicatorErrorsTest, MemberThatNeverJoinsTimesOutNamingIt) {
  TESSEL_SKIP_WITHOUT_DEVICES(4);
  auto communicator = Make(4, absl::Milliseconds(500));
  ASSERT_NE(communicator, nullptr);
  absl::Time start = absl::Now();
  auto statuses = RunOnPartitions(std::vector<int64_t>{0, 1}, [&](int64_t p) {
    return SumFloats(*communicator, p, {0, 1, 2, 3}, 4);
  });
  EXPECT_LT(absl::Now() - start, kFast);
  EXPECT_THAT(statuses, Each(StatusIs(absl::StatusCode::kDeadlineExceeded,
                                      "all_reduce over group [0, 1, 2, 3]: setting up the NCCL "
                                      "communicator of group [0, 1, 2, 3]: partitions 2, 3 did "
                                      "not join")));
}

TEST(NcclCommunicatorErrorsTest, PartitionThatRunsNowhereTimesOutNamingIt) {
  TESSEL_SKIP_WITHOUT_DEVICES(1);
  // Partition 1 is in no process, so partition 0 waits for it while setting up the group.
  auto communicator =
      NcclCommunicator::Create(2, {{0, 0}}, std::make_shared<nccl::InProcessBootstrap>(),
                               OptionsFor(Location::kHost, absl::Milliseconds(500)));
  ASSERT_THAT(communicator.status(), IsOk());
  absl::Time start = absl::Now();
  EXPECT_THAT(SumFloats(**communicator, 0, {0, 1}, 4),
              StatusIs(absl::StatusCode::kDeadlineExceeded,
                       "all_reduce over group [0, 1]: setting up the NCCL communicator of group "
                       "[0, 1]: partition 1 did not join"));
  EXPECT_LT(absl::Now() - start, kFast);
  // The group of partition 0 alone still works on the same communicator.
  EXPECT_THAT(SumFloats(**communicator, 0, {0}, 4), IsOk());
}

TEST(NcclCommunicatorErrorsTest, MemberThatStopsAfterSetupTimesOut) {
  TESSEL_SKIP_WITHOUT_DEVICES(2);
  auto communicator = Make(2, absl::Milliseconds(500));
  ASSERT_NE(communicator, nullptr);
  auto statuses = RunOnPartitions(2, [&](int64_t p) -> absl::Status {
    TESSEL_RETURN_IF_ERROR(SumFloats(*communicator, p, {0, 1}, 2));
    // Only partition 0 makes a second call; NCCL waits for partition 1 inside the kernel.
    if (p == 0) return SumFloats(*communicator, p, {0, 1}, 2);
    return absl::OkStatus();
  });
  EXPECT_THAT(statuses[0], StatusIs(absl::StatusCode::kDeadlineExceeded,
                                    "all_reduce over group [0, 1] timed out after 500ms"));
  EXPECT_THAT(statuses[1], IsOk());
  // The communicator is unusable afterwards, on every partition.
  EXPECT_THAT(communicator->Barrier(1, {0, 1}),
              StatusIs(absl::StatusCode::kAborted, "unusable after an earlier failure"));
}

TEST(NcclCommunicatorErrorsTest, MismatchedCountsFailOnEveryMember) {
  TESSEL_SKIP_WITHOUT_DEVICES(2);
  auto communicator = Make(2, kLongTimeout);
  ASSERT_NE(communicator, nullptr);
  absl::Time start = absl::Now();
  auto statuses = RunOnPartitions(2, [&](int64_t p) {
    return SumFloats(*communicator, p, {0, 1}, p == 0 ? 8 : 4);
  });
  EXPECT_LT(absl::Now() - start, kFast);
  EXPECT_THAT(statuses,
              Each(StatusIs(absl::StatusCode::kInvalidArgument, " x f32 but partition ")));
  std::string message(statuses[0].message());
  EXPECT_TRUE(message.find("all_reduce(sum) of 8 x f32") != std::string::npos &&
              message.find("all_reduce(sum) of 4 x f32") != std::string::npos)
      << message;
}

TEST(NcclCommunicatorErrorsTest, MismatchedKindsOrCollectivesFail) {
  TESSEL_SKIP_WITHOUT_DEVICES(2);
  auto communicator = Make(2, kLongTimeout);
  ASSERT_NE(communicator, nullptr);
  auto statuses = RunOnPartitions(2, [&](int64_t p) -> absl::Status {
    std::vector<float> floats(2), float_out(2), gathered(4);
    absl::Status kinds = communicator->AllReduce(
        p, {0, 1}, p == 0 ? ReductionKind::kMax : ReductionKind::kMin,
        MakeConstBuffer(absl::MakeConstSpan(floats)), MakeBuffer(absl::MakeSpan(float_out)));
    if (kinds.code() != absl::StatusCode::kInvalidArgument) return absl::InternalError("kinds");
    return p == 0 ? communicator->AllGather(p, {0, 1}, MakeConstBuffer(absl::MakeConstSpan(floats)),
                                            MakeBuffer(absl::MakeSpan(gathered)))
                  : communicator->AllReduce(p, {0, 1}, ReductionKind::kSum,
                                            MakeConstBuffer(absl::MakeConstSpan(floats)),
                                            MakeBuffer(absl::MakeSpan(float_out)));
  });
  EXPECT_THAT(statuses, Each(StatusIs(absl::StatusCode::kInvalidArgument, " but partition ")));
}

TEST(NcclCommunicatorErrorsTest, OneMembersBadArgumentsFailTheOthersToo) {
  TESSEL_SKIP_WITHOUT_DEVICES(2);
  auto communicator = Make(2, kLongTimeout);
  ASSERT_NE(communicator, nullptr);
  auto statuses = RunOnPartitions(2, [&](int64_t p) {
    std::vector<float> input(2), output(p == 1 ? 3 : 4);  // partition 1's output is too small
    return communicator->AllGather(p, {0, 1}, MakeConstBuffer(absl::MakeConstSpan(input)),
                                   MakeBuffer(absl::MakeSpan(output)));
  });
  EXPECT_THAT(statuses[0],
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "all_gather over group [0, 1]: partition 1 made an invalid call"));
  EXPECT_THAT(statuses[1], StatusIs(absl::StatusCode::kInvalidArgument,
                                    "all_gather over group [0, 1]: output has 3 elements, "
                                    "expected 4"));
}

TEST(NcclCommunicatorErrorsTest, ArgumentsThatCannotFitAreRejected) {
  TESSEL_SKIP_WITHOUT_DEVICES(2);
  auto communicator = Make(2, kLongTimeout);
  ASSERT_NE(communicator, nullptr);
  auto statuses = RunOnPartitions(2, [&](int64_t p) -> absl::Status {
    std::vector<float> three(3), one(1), two(2);
    auto in = [](std::vector<float>& v) { return MakeConstBuffer(absl::MakeConstSpan(v)); };
    auto out = [](std::vector<float>& v) { return MakeBuffer(absl::MakeSpan(v)); };
    std::vector<absl::Status> statuses = {
        communicator->ReduceScatter(p, {0, 1}, ReductionKind::kSum, in(three), out(one)),
        communicator->AllToAll(p, {0, 1}, in(three), out(three)),
        communicator->CollectivePermute(p, {0, 1}, {{0, 1}, {1, 1}}, in(two), out(two)),
        communicator->Broadcast(p, {0, 1}, /*root=*/5, out(two)),
    };
    for (const absl::Status& status : statuses) {
      if (status.code() != absl::StatusCode::kInvalidArgument) return status;
    }
    return statuses.front();
  });
  EXPECT_THAT(statuses, Each(StatusIs(absl::StatusCode::kInvalidArgument,
                                      "input has 3 elements, which is not divisible by the "
                                      "group size 2")));
}

TEST(NcclCommunicatorErrorsTest, GroupWithoutTheCallerFailsAtOnce) {
  TESSEL_SKIP_WITHOUT_DEVICES(1);
  auto communicator = NcclCommunicator::Create(
      4, {{3, 0}}, std::make_shared<nccl::InProcessBootstrap>(), NcclCommunicator::Options());
  ASSERT_THAT(communicator.status(), IsOk());
  EXPECT_THAT(SumFloats(**communicator, 3, {0, 1}, 2),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "all_reduce: group [0, 1] does not include the caller, partition 3"));
  EXPECT_THAT(SumFloats(**communicator, 3, {3, 9}, 2),
              StatusIs(absl::StatusCode::kInvalidArgument, "partition 9 is out of range [0, 4)"));
  EXPECT_THAT(
      SumFloats(**communicator, 0, {0, 3}, 2),
      StatusIs(absl::StatusCode::kInvalidArgument, "partition 0 does not run in this process"));
}

TEST(NcclCommunicatorErrorsTest, AbortWakesWaitingMembersAndFailsLaterCalls) {
  TESSEL_SKIP_WITHOUT_DEVICES(2);
  auto communicator = Make(2, kLongTimeout);
  ASSERT_NE(communicator, nullptr);
  // Build the group's communicators first, so the waiting call below waits inside NCCL.
  EXPECT_THAT(RunOnPartitions(2,
                              [&](int64_t p) {
                                return communicator->Barrier(p, {0, 1});
                              }),
              Each(IsOk()));
  absl::Time start = absl::Now();
  absl::Status waiting;
  std::thread member([&] { waiting = SumFloats(*communicator, 0, {0, 1}, 2); });
  absl::SleepFor(absl::Milliseconds(200));
  communicator->Abort(absl::InternalError("partition 1: kernel failed"));
  member.join();
  EXPECT_LT(absl::Now() - start, kFast);
  EXPECT_THAT(waiting, StatusIs(absl::StatusCode::kAborted,
                                "all_reduce over group [0, 1]: collectives aborted: partition 1: "
                                "kernel failed"));
  EXPECT_THAT(communicator->Barrier(1, {0, 1}),
              StatusIs(absl::StatusCode::kAborted, "partition 1: kernel failed"));
}

TEST(NcclCommunicatorErrorsTest, AbortEndsAGroupSetUpInProgress) {
  TESSEL_SKIP_WITHOUT_DEVICES(1);
  // Partition 1 runs in no process, so partition 0 waits in the bootstrap.
  auto created =
      NcclCommunicator::Create(2, {{0, 0}}, std::make_shared<nccl::InProcessBootstrap>(),
                               OptionsFor(Location::kHost, kLongTimeout));
  ASSERT_THAT(created.status(), IsOk());
  NcclCommunicator* communicator = created->get();
  absl::Time start = absl::Now();
  absl::Status waiting;
  std::thread member([&] { waiting = SumFloats(*communicator, 0, {0, 1}, 2); });
  absl::SleepFor(absl::Milliseconds(200));
  communicator->Abort(absl::InternalError("partition 1: out of memory"));
  member.join();
  EXPECT_LT(absl::Now() - start, kFast);
  EXPECT_THAT(waiting, StatusIs(absl::StatusCode::kAborted,
                                "all_reduce over group [0, 1]: collectives aborted: partition 1: "
                                "out of memory"));
}

}  // namespace
}  // namespace tessel::collectives
