// Tests of the in-process NCCL bootstrap: members of a group get one id, different groups
// and later set-ups get different ids, and a member that never comes is named after the
// timeout. ncclGetUniqueId needs no GPU, so these run on any machine.
#include "collectives/nccl/nccl_bootstrap.h"

#include <atomic>
#include <cstring>
#include <thread>
#include <vector>

#include "collectives/local/test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "support/status_matchers.h"

namespace tessel::collectives::nccl {
namespace {

using ::tessel::collectives::testing::RunOnPartitions;
using ::tessel::testing::IsOk;
using ::tessel::testing::StatusIs;
using ::testing::Each;

bool SameId(const ncclUniqueId& a, const ncclUniqueId& b) {
  return std::memcmp(&a, &b, sizeof(ncclUniqueId)) == 0;
}

TEST(InProcessBootstrapTest, EveryMemberGetsTheSameIdAndGroupsGetDifferentOnes) {
  InProcessBootstrap bootstrap;
  std::vector<ncclUniqueId> ids(4);
  // Two groups set up at once: {0, 1} and {3, 2} (position 0 is partition 3).
  auto statuses = RunOnPartitions(4, [&](int64_t p) -> absl::Status {
    std::vector<int64_t> group = p < 2 ? std::vector<int64_t>{0, 1} : std::vector<int64_t>{3, 2};
    absl::StatusOr<ncclUniqueId> id =
        bootstrap.ExchangeId(p, group, absl::Now() + absl::Seconds(30), nullptr);
    if (!id.ok()) return id.status();
    ids[p] = *id;
    return absl::OkStatus();
  });
  EXPECT_THAT(statuses, Each(IsOk()));
  EXPECT_TRUE(SameId(ids[0], ids[1]));
  EXPECT_TRUE(SameId(ids[2], ids[3]));
  EXPECT_FALSE(SameId(ids[0], ids[2]));
}

TEST(InProcessBootstrapTest, ASecondSetUpOfTheSameGroupGetsAFreshId) {
  InProcessBootstrap bootstrap;
  std::vector<std::vector<ncclUniqueId>> ids(2, std::vector<ncclUniqueId>(2));
  auto statuses = RunOnPartitions(2, [&](int64_t p) -> absl::Status {
    for (int round = 0; round < 2; ++round) {
      absl::StatusOr<ncclUniqueId> id =
          bootstrap.ExchangeId(p, {0, 1}, absl::Now() + absl::Seconds(30), nullptr);
      if (!id.ok()) return id.status();
      ids[round][p] = *id;
    }
    return absl::OkStatus();
  });
  EXPECT_THAT(statuses, Each(IsOk()));
  EXPECT_TRUE(SameId(ids[0][0], ids[0][1]));
  EXPECT_TRUE(SameId(ids[1][0], ids[1][1]));
  EXPECT_FALSE(SameId(ids[0][0], ids[1][0]));
}

TEST(InProcessBootstrapTest, MembersThatNeverComeAreNamedAfterTheTimeout) {
  InProcessBootstrap bootstrap;
  absl::Time start = absl::Now();
  auto statuses = RunOnPartitions(std::vector<int64_t>{0, 2}, [&](int64_t p) {
    return bootstrap.ExchangeId(p, {0, 1, 2, 3}, absl::Now() + absl::Milliseconds(200), nullptr)
        .status();
  });
  EXPECT_LT(absl::Now() - start, absl::Seconds(10));
  EXPECT_THAT(statuses,
              Each(StatusIs(absl::StatusCode::kDeadlineExceeded,
                            "setting up the NCCL communicator of group [0, 1, 2, 3]: partitions "
                            "1, 3 did not join")));
}

TEST(InProcessBootstrapTest, CancellationEndsAWaitLongBeforeTheDeadline) {
  InProcessBootstrap bootstrap;
  std::atomic<bool> cancelled{false};
  absl::Time start = absl::Now();
  std::thread canceller([&] {
    absl::SleepFor(absl::Milliseconds(100));
    cancelled = true;
  });
  absl::Status status =
      bootstrap.ExchangeId(0, {0, 1}, absl::Now() + absl::Seconds(60), &cancelled).status();
  canceller.join();
  EXPECT_THAT(status, StatusIs(absl::StatusCode::kCancelled, "cancelled"));
  EXPECT_LT(absl::Now() - start, absl::Seconds(10));
}

}  // namespace
}  // namespace tessel::collectives::nccl
