// StopSignal, Watchdog, the per-thread op stop and the physical memory query behind the
// executor's run limits.
#include "runtime/run_limits.h"

#include <unistd.h>

#include <iterator>
#include <limits>
#include <utility>

namespace tessel::runtime {

StopSignal::Registration::Registration(Registration&& other) noexcept
    : signal_(std::exchange(other.signal_, nullptr)), it_(other.it_) {}

StopSignal::Registration& StopSignal::Registration::operator=(Registration&& other) noexcept {
  if (this != &other) {
    Reset();
    signal_ = std::exchange(other.signal_, nullptr);
    it_ = other.it_;
  }
  return *this;
}

StopSignal::Registration::~Registration() { Reset(); }

void StopSignal::Registration::Reset() {
  if (signal_ == nullptr) return;
  absl::MutexLock lock(&signal_->mu_);
  signal_->callbacks_.erase(it_);
  signal_ = nullptr;
}

void StopSignal::Stop(const absl::Status& reason) {
  absl::MutexLock lock(&mu_);
  if (stopped_.load(std::memory_order_relaxed)) return;
  reason_ = reason.ok() ? absl::CancelledError("stopped") : reason;
  stopped_.store(true, std::memory_order_relaxed);
  // Under the lock: a callback that runs concurrently with its registration's destruction
  // could touch a destroyed communicator. A callback must not register or stop this signal.
  for (const Callback& callback : callbacks_) callback(reason_);
}

absl::Status StopSignal::reason() const {
  absl::MutexLock lock(&mu_);
  return reason_;
}

StopSignal::Registration StopSignal::OnStop(Callback callback) {
  absl::Status already;
  {
    absl::MutexLock lock(&mu_);
    if (!stopped_.load(std::memory_order_relaxed)) {
      callbacks_.push_back(std::move(callback));
      return Registration(this, std::prev(callbacks_.end()));
    }
    already = reason_;
  }
  callback(already);
  return Registration();
}

Watchdog::Watchdog(StopSignal& signal, absl::Time deadline, absl::Status reason) {
  if (deadline == absl::InfiniteFuture()) return;
  thread_ = std::thread([this, &signal, deadline, reason = std::move(reason)] {
    if (!done_.WaitForNotificationWithDeadline(deadline)) signal.Stop(reason);
  });
}

Watchdog::~Watchdog() {
  done_.Notify();
  if (thread_.joinable()) thread_.join();
}

namespace {
thread_local const StopSignal* currentOpStop = nullptr;
}  // namespace

OpStopScope::OpStopScope(const StopSignal* signal) : outer_(currentOpStop) {
  currentOpStop = signal;
}

OpStopScope::~OpStopScope() { currentOpStop = outer_; }

const StopSignal* CurrentOpStop() { return currentOpStop; }

int64_t PhysicalMemoryBytes() {
  long pages = sysconf(_SC_PHYS_PAGES);
  long page_size = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page_size <= 0) return 0;
  if (pages > std::numeric_limits<int64_t>::max() / page_size) {
    return std::numeric_limits<int64_t>::max();
  }
  return static_cast<int64_t>(pages) * page_size;
}

}  // namespace tessel::runtime
