// Tests of how the local backend fails: members that never join, members whose calls
// disagree, bad arguments and aborts all end in an error on every member, never in a hang.
#include <string>
#include <thread>
#include <vector>

#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "collectives/local/local_communicator.h"
#include "collectives/local/test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "support/status_macros.h"
#include "support/status_matchers.h"

namespace tessel::collectives {
namespace {

using ::tessel::collectives::testing::RunOnPartitions;
using ::tessel::testing::IsOk;
using ::tessel::testing::StatusIs;
using ::testing::Each;

LocalCommunicator::Options Timeout(absl::Duration timeout) {
  LocalCommunicator::Options options;
  options.timeout = timeout;
  return options;
}

// The long default timeout: tests that must fail fast show that they do not wait for it.
constexpr absl::Duration kLongTimeout = absl::Seconds(60);
constexpr absl::Duration kFast = absl::Seconds(10);

absl::Status SumFloats(Communicator& communicator, int64_t self, std::vector<int64_t> group,
                       int64_t count) {
  std::vector<float> input(count, 1.0f), output(count);
  return communicator.AllReduce(self, group, ReductionKind::kSum,
                                MakeConstBuffer(absl::MakeConstSpan(input)),
                                MakeBuffer(absl::MakeSpan(output)));
}

TEST(LocalCommunicatorErrorsTest, MemberThatNeverJoinsTimesOutNamingIt) {
  LocalCommunicator communicator(4, Timeout(absl::Milliseconds(200)));
  absl::Time start = absl::Now();
  // Partitions 2 and 3 never call.
  auto statuses = RunOnPartitions(std::vector<int64_t>{0, 1}, [&](int64_t p) {
    return SumFloats(communicator, p, {0, 1, 2, 3}, 4);
  });
  EXPECT_LT(absl::Now() - start, kFast);
  EXPECT_THAT(statuses,
              Each(StatusIs(absl::StatusCode::kDeadlineExceeded,
                            "all_reduce over partitions [0, 1, 2, 3] (call 0 over this group) "
                            "timed out after 200ms: partitions 2, 3 did not join")));
  // A member arriving after the timeout gets the same error at once instead of waiting.
  start = absl::Now();
  EXPECT_THAT(SumFloats(communicator, 2, {0, 1, 2, 3}, 4),
              StatusIs(absl::StatusCode::kDeadlineExceeded, "partitions 2, 3 did not join"));
  EXPECT_LT(absl::Now() - start, absl::Milliseconds(150));
}

TEST(LocalCommunicatorErrorsTest, MismatchedCountsFailOnEveryMember) {
  LocalCommunicator communicator(2, Timeout(kLongTimeout));
  absl::Time start = absl::Now();
  auto statuses = RunOnPartitions(2, [&](int64_t p) {
    return SumFloats(communicator, p, {0, 1}, p == 0 ? 8 : 4);
  });
  EXPECT_LT(absl::Now() - start, kFast);
  // Whichever partition joined second is the one reported as disagreeing.
  EXPECT_THAT(statuses,
              Each(StatusIs(absl::StatusCode::kInvalidArgument, " x f32 but partition ")));
  std::string message(statuses[0].message());
  EXPECT_TRUE(message.find("all_reduce(sum) of 8 x f32") != std::string::npos &&
              message.find("all_reduce(sum) of 4 x f32") != std::string::npos)
      << message;
}

TEST(LocalCommunicatorErrorsTest, MismatchedTypesKindsOrCollectivesFail) {
  LocalCommunicator communicator(2, Timeout(kLongTimeout));
  auto statuses = RunOnPartitions(2, [&](int64_t p) -> absl::Status {
    std::vector<float> floats(2), float_out(2);
    std::vector<int32_t> ints(2), int_out(2);
    // Types differ.
    absl::Status types = p == 0
                             ? communicator.AllReduce(p, {0, 1}, ReductionKind::kSum,
                                                      MakeConstBuffer(absl::MakeConstSpan(floats)),
                                                      MakeBuffer(absl::MakeSpan(float_out)))
                             : communicator.AllReduce(p, {0, 1}, ReductionKind::kSum,
                                                      MakeConstBuffer(absl::MakeConstSpan(ints)),
                                                      MakeBuffer(absl::MakeSpan(int_out)));
    if (types.code() != absl::StatusCode::kInvalidArgument) return absl::InternalError("types");
    // Reductions differ.
    absl::Status kinds = communicator.AllReduce(
        p, {0, 1}, p == 0 ? ReductionKind::kMax : ReductionKind::kMin,
        MakeConstBuffer(absl::MakeConstSpan(floats)), MakeBuffer(absl::MakeSpan(float_out)));
    if (kinds.code() != absl::StatusCode::kInvalidArgument) return absl::InternalError("kinds");
    // Collectives differ: an all-gather meets an all-reduce.
    std::vector<float> gathered(4);
    return p == 0 ? communicator.AllGather(p, {0, 1}, MakeConstBuffer(absl::MakeConstSpan(floats)),
                                           MakeBuffer(absl::MakeSpan(gathered)))
                  : communicator.AllReduce(p, {0, 1}, ReductionKind::kSum,
                                           MakeConstBuffer(absl::MakeConstSpan(floats)),
                                           MakeBuffer(absl::MakeSpan(float_out)));
  });
  EXPECT_THAT(statuses, Each(StatusIs(absl::StatusCode::kInvalidArgument, " but partition ")));
}

TEST(LocalCommunicatorErrorsTest, MembersNamingDifferentGroupsFailInsteadOfHanging) {
  LocalCommunicator communicator(3, Timeout(kLongTimeout));
  absl::Time start = absl::Now();
  // Partition 0 waits for 1 in [0, 1, 2]; partition 1 waits for 0 in [1, 0]: a deadlock.
  auto statuses = RunOnPartitions(2, [&](int64_t p) {
    return SumFloats(communicator, p,
                     p == 0 ? std::vector<int64_t>{0, 1, 2} : std::vector<int64_t>{1, 0}, 2);
  });
  EXPECT_LT(absl::Now() - start, kFast);
  EXPECT_THAT(statuses, Each(StatusIs(absl::StatusCode::kInvalidArgument,
                                      "disagree on their next collective")));
  EXPECT_THAT(std::string(statuses[0].message()),
              ::testing::AllOf(::testing::HasSubstr("[0, 1, 2]"), ::testing::HasSubstr("[1, 0]")));
}

TEST(LocalCommunicatorErrorsTest, OneMembersBadArgumentsFailTheOthersToo) {
  LocalCommunicator communicator(2, Timeout(kLongTimeout));
  absl::Time start = absl::Now();
  auto statuses = RunOnPartitions(2, [&](int64_t p) {
    std::vector<float> input(2), output(p == 1 ? 3 : 4);  // partition 1's output is too small
    return communicator.AllGather(p, {0, 1}, MakeConstBuffer(absl::MakeConstSpan(input)),
                                  MakeBuffer(absl::MakeSpan(output)));
  });
  EXPECT_LT(absl::Now() - start, kFast);
  EXPECT_THAT(statuses, Each(StatusIs(absl::StatusCode::kInvalidArgument,
                                      "all_gather over partitions [0, 1] (call 0 over this "
                                      "group): partition 1: output has 3 elements, expected 4")));
}

TEST(LocalCommunicatorErrorsTest, ArgumentsThatCannotFitAreRejected) {
  LocalCommunicator communicator(2, Timeout(absl::Milliseconds(100)));
  auto statuses = RunOnPartitions(2, [&](int64_t p) -> absl::Status {
    std::vector<float> three(3), one(1), two(2);
    auto in = [](std::vector<float>& v) { return MakeConstBuffer(absl::MakeConstSpan(v)); };
    auto out = [](std::vector<float>& v) { return MakeBuffer(absl::MakeSpan(v)); };
    std::vector<absl::Status> statuses = {
        communicator.ReduceScatter(p, {0, 1}, ReductionKind::kSum, in(three), out(one)),
        communicator.AllToAll(p, {0, 1}, in(three), out(three)),
        communicator.CollectivePermute(p, {0, 1}, {{0, 1}, {1, 1}}, in(two), out(two)),
        communicator.Broadcast(p, {0, 1}, /*root=*/5, out(two)),
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

TEST(LocalCommunicatorErrorsTest, GroupWithoutTheCallerFailsAtOnce) {
  LocalCommunicator communicator(4);
  EXPECT_THAT(SumFloats(communicator, 3, {0, 1}, 2),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "all_reduce: group [0, 1] does not include the caller, partition 3"));
  EXPECT_THAT(SumFloats(communicator, 0, {0, 9}, 2),
              StatusIs(absl::StatusCode::kInvalidArgument, "partition 9 is out of range [0, 4)"));
}

TEST(LocalCommunicatorErrorsTest, AbortWakesWaitingMembersAndFailsLaterCalls) {
  LocalCommunicator communicator(2, Timeout(kLongTimeout));
  absl::Time start = absl::Now();
  absl::Status waiting;
  std::thread member([&] { waiting = SumFloats(communicator, 0, {0, 1}, 2); });
  absl::SleepFor(absl::Milliseconds(50));
  communicator.Abort(absl::InternalError("partition 1: kernel failed"));
  member.join();
  EXPECT_LT(absl::Now() - start, kFast);
  EXPECT_THAT(waiting, StatusIs(absl::StatusCode::kAborted,
                                "all_reduce over partitions [0, 1] (call 0 over this group): "
                                "collectives aborted: partition 1: kernel failed"));
  EXPECT_THAT(communicator.Barrier(1, {0, 1}),
              StatusIs(absl::StatusCode::kAborted, "partition 1: kernel failed"));
}

TEST(LocalCommunicatorErrorsTest, CompletedCollectivesAreUnaffectedByALaterFailure) {
  LocalCommunicator communicator(2, Timeout(absl::Milliseconds(100)));
  auto statuses = RunOnPartitions(2, [&](int64_t p) -> absl::Status {
    TESSEL_RETURN_IF_ERROR(SumFloats(communicator, p, {0, 1}, 2));
    // Only partition 0 makes a second call; it times out, partition 1 is already done.
    if (p == 0) return SumFloats(communicator, p, {0, 1}, 2);
    return absl::OkStatus();
  });
  EXPECT_THAT(statuses[0], StatusIs(absl::StatusCode::kDeadlineExceeded,
                                    "(call 1 over this group) timed out after 100ms: "
                                    "partition 1 did not join"));
  EXPECT_THAT(statuses[1], IsOk());
}

}  // namespace
}  // namespace tessel::collectives
