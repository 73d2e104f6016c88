// Tests of StopSignal and Watchdog: the first reason wins, callbacks run once and not after
// their registration is gone, and a watchdog stops its signal only once its deadline passes.
#include "runtime/run_limits.h"

#include <atomic>
#include <string>
#include <vector>

#include "absl/time/clock.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace tessel::runtime {
namespace {

TEST(StopSignalTest, KeepsTheFirstReason) {
  StopSignal stop;
  EXPECT_FALSE(stop.stopped());
  EXPECT_TRUE(stop.reason().ok());
  stop.Stop(absl::DeadlineExceededError("first"));
  stop.Stop(absl::InternalError("second"));
  EXPECT_TRUE(stop.stopped());
  EXPECT_EQ(stop.reason(), absl::DeadlineExceededError("first"));
}

TEST(StopSignalTest, CallbacksRunOnceWithTheReason) {
  StopSignal stop;
  std::vector<std::string> seen;
  StopSignal::Registration a =
      stop.OnStop([&](const absl::Status& reason) { seen.push_back("a: " + reason.ToString()); });
  StopSignal::Registration b =
      stop.OnStop([&](const absl::Status& reason) { seen.push_back("b"); });
  stop.Stop(absl::AbortedError("why"));
  stop.Stop(absl::AbortedError("again"));
  EXPECT_THAT(seen, ::testing::ElementsAre("a: ABORTED: why", "b"));
}

TEST(StopSignalTest, ARegistrationThatIsGoneIsNotCalled) {
  StopSignal stop;
  int calls = 0;
  {
    StopSignal::Registration registration =
        stop.OnStop([&](const absl::Status&) { ++calls; });
    StopSignal::Registration moved = std::move(registration);
  }
  stop.Stop(absl::AbortedError("why"));
  EXPECT_EQ(calls, 0);
}

TEST(StopSignalTest, OnStopAfterStopRunsAtOnce) {
  StopSignal stop;
  stop.Stop(absl::CancelledError("done"));
  absl::Status seen;
  StopSignal::Registration registration =
      stop.OnStop([&](const absl::Status& reason) { seen = reason; });
  EXPECT_EQ(seen, absl::CancelledError("done"));
}

TEST(StopSignalTest, ChainedSignalsStopTogether) {
  StopSignal outer, inner;
  StopSignal::Registration link =
      outer.OnStop([&](const absl::Status& reason) { inner.Stop(reason); });
  outer.Stop(absl::DeadlineExceededError("late"));
  EXPECT_TRUE(inner.stopped());
  EXPECT_EQ(inner.reason(), absl::DeadlineExceededError("late"));
}

TEST(WatchdogTest, StopsTheSignalAtItsDeadline) {
  StopSignal stop;
  Watchdog watchdog(stop, absl::Now() + absl::Milliseconds(10),
                    absl::DeadlineExceededError("too slow"));
  // Only a generous bound: the machine may be busy.
  absl::Time give_up = absl::Now() + absl::Seconds(60);
  while (!stop.stopped() && absl::Now() < give_up) absl::SleepFor(absl::Milliseconds(5));
  ASSERT_TRUE(stop.stopped());
  EXPECT_EQ(stop.reason(), absl::DeadlineExceededError("too slow"));
}

TEST(WatchdogTest, DestroyedBeforeItsDeadlineItDoesNothing) {
  StopSignal stop;
  { Watchdog watchdog(stop, absl::Now() + absl::Hours(1), absl::DeadlineExceededError("no")); }
  { Watchdog never(stop, absl::InfiniteFuture(), absl::DeadlineExceededError("no")); }
  EXPECT_FALSE(stop.stopped());
}

TEST(PhysicalMemoryTest, IsKnownOnLinux) { EXPECT_GT(PhysicalMemoryBytes(), int64_t{1} << 20); }

}  // namespace
}  // namespace tessel::runtime
