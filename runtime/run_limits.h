// Limits on a run of the executor: a way to stop it from outside the threads that run it (a
// timeout, or a partition that failed), a cap on the iterations of a while loop, and the
// machine's physical memory, the default memory limit of `tessel run` (see
// SetMemoryLimit in tensor.h).
//
//   StopSignal stop;
//   Watchdog watchdog(stop, absl::Now() + absl::Seconds(10),
//                     absl::DeadlineExceededError("the run's timeout of 10s has passed"));
//   Interpreter interpreter(DefaultKernelRegistry(), PartitionContext{},
//                           RunLimits{&stop, /*max_while_iterations=*/1000000});
//   // Fails with the watchdog's reason, naming the op or loop it stopped in, after 10 s.
//   interpreter.RunFunction(function, inputs);
//
// The interpreter polls the signal between ops and at every while iteration, and the kernels
// that can run long (products, convolution, sort, gather, scatter, the windowed reductions)
// poll it between blocks of their work (PollOpStop): a stopped run ends inside such an op
// too, after at most one block, and names it.
#ifndef TESSEL_RUNTIME_RUN_LIMITS_H_
#define TESSEL_RUNTIME_RUN_LIMITS_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <list>
#include <thread>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "absl/time/time.h"

namespace tessel::runtime {

// A one-way flag with a reason, shared by the threads of a run: once stopped, it stays
// stopped. Callbacks registered with OnStop run when it stops, so that waits the flag cannot
// reach (a partition blocked in a collective) are woken: a communicator's Abort, or the
// Stop of a child signal. Thread-safe.
class StopSignal {
 public:
  using Callback = std::function<void(const absl::Status& reason)>;

  // Keeps a callback registered while it lives; its destructor waits for a callback that
  // is running, so what the callback touches may be destroyed right after it.
  class Registration {
   public:
    Registration() = default;
    Registration(Registration&& other) noexcept;
    Registration& operator=(Registration&& other) noexcept;
    Registration(const Registration&) = delete;
    Registration& operator=(const Registration&) = delete;
    ~Registration();

   private:
    friend class StopSignal;
    Registration(StopSignal* signal, std::list<Callback>::iterator it)
        : signal_(signal), it_(it) {}
    void Reset();

    StopSignal* signal_ = nullptr;
    std::list<Callback>::iterator it_;
  };

  StopSignal() = default;
  StopSignal(const StopSignal&) = delete;
  StopSignal& operator=(const StopSignal&) = delete;

  // Stops with `reason` (not OK) and runs every registered callback with it. Only the first
  // call has an effect; later ones keep the first reason.
  void Stop(const absl::Status& reason);

  // One relaxed load: cheap enough to poll before every op.
  bool stopped() const { return stopped_.load(std::memory_order_relaxed); }

  // The reason of the first Stop; OK while not stopped.
  absl::Status reason() const;

  // Registers `callback` until the registration is destroyed. If the signal has stopped
  // already, the callback runs at once (on this thread) and nothing stays registered.
  [[nodiscard]] Registration OnStop(Callback callback);

 private:
  std::atomic<bool> stopped_{false};
  // Held while callbacks run, so that a Registration cannot go away under its callback.
  mutable absl::Mutex mu_;
  absl::Status reason_ ABSL_GUARDED_BY(mu_);
  std::list<Callback> callbacks_ ABSL_GUARDED_BY(mu_);
};

// Stops `signal` with `reason` at `deadline`, from a thread of its own, unless it is
// destroyed first. An infinite deadline starts no thread.
class Watchdog {
 public:
  Watchdog(StopSignal& signal, absl::Time deadline, absl::Status reason);
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;
  ~Watchdog();

 private:
  absl::Notification done_;
  std::thread thread_;
};

// What an Interpreter (and every partition of an SPMD run) checks as it runs.
// How far a run has got, for people watching a long one (`tessel`'s progress line): ops run
// (every partition's, nested ones included) and partitions finished. Relaxed counts, read
// from another thread while the run goes on.
struct RunCounters {
  std::atomic<int64_t> ops{0};
  std::atomic<int64_t> partitions_done{0};
};

struct RunLimits {
  // Polled before every op and at every while iteration: once stopped, the run fails with
  // the signal's reason, after the op or loop it was in. Null: the run is never stopped.
  StopSignal* stop = nullptr;
  // A while loop fails when it would start iteration max_while_iterations + 1, naming
  // itself and the limit. 0: no limit.
  int64_t max_while_iterations = 0;
  // Counted into when not null; the run does not depend on it.
  RunCounters* counters = nullptr;
};

// The stop signal of the op this thread runs: the interpreter sets it around every kernel
// (nesting restores the outer one), and long kernels poll it through PollOpStop. Threads a
// kernel hands work to have none of their own; the kernel polls on its own thread.
class OpStopScope {
 public:
  explicit OpStopScope(const StopSignal* signal);
  OpStopScope(const OpStopScope&) = delete;
  OpStopScope& operator=(const OpStopScope&) = delete;
  ~OpStopScope();

 private:
  const StopSignal* outer_;
};

// The signal of the enclosing OpStopScope on this thread, or null.
const StopSignal* CurrentOpStop();

// Thrown by PollOpStop out of a kernel whose run has stopped; the interpreter catches it
// and fails the op with the signal's reason. (A kernel unwinds through its RAII cleanups,
// as it does for std::bad_alloc.)
struct OpStopped {};

// Throws OpStopped when the current op's signal has stopped; one thread-local read and one
// relaxed load otherwise, cheap enough for every block of a kernel's work.
inline void PollOpStop() {
  const StopSignal* signal = CurrentOpStop();
  if (signal != nullptr && signal->stopped()) throw OpStopped{};
}

// Calls PollOpStop every `period` calls of Tick: for loops whose single steps are too small
// to poll each.
class StopPoller {
 public:
  explicit StopPoller(int64_t period = 4096) : period_(period) {}
  void Tick() {
    if (++count_ >= period_) {
      count_ = 0;
      PollOpStop();
    }
  }

 private:
  int64_t period_;
  int64_t count_ = 0;
};

// The machine's physical memory in bytes (sysconf), or 0 where the system does not say.
int64_t PhysicalMemoryBytes();

}  // namespace tessel::runtime

#endif  // TESSEL_RUNTIME_RUN_LIMITS_H_
