// ParallelFor on an Eigen thread pool made on first use.
#include "runtime/kernels/parallel_for.h"

#include <algorithm>
#include <atomic>
#include <thread>

#include "runtime/run_limits.h"
#include "unsupported/Eigen/CXX11/ThreadPool"

namespace tessel::runtime {
namespace {

// One thread fewer than the cores: the calling thread takes indices too.
Eigen::ThreadPool& KernelPool() {
  static Eigen::ThreadPool* pool = new Eigen::ThreadPool(
      std::max(1, static_cast<int>(std::thread::hardware_concurrency()) - 1));
  return *pool;
}

}  // namespace

int64_t ParallelWorkers() { return KernelPool().NumThreads() + 1; }

void ParallelFor(int64_t count, absl::FunctionRef<void(int64_t)> fn) {
  std::atomic<int64_t> next{0};
  const StopSignal* stop = CurrentOpStop();
  auto work = [&] {
    for (int64_t i = next++; i < count; i = next++) {
      if (stop != nullptr && stop->stopped()) break;
      fn(i);
    }
  };
  const int helpers = static_cast<int>(std::min<int64_t>(count - 1, KernelPool().NumThreads()));
  if (helpers <= 0) {
    work();
    PollOpStop();
    return;
  }
  Eigen::Barrier done(static_cast<unsigned>(helpers));
  for (int i = 0; i < helpers; ++i) {
    KernelPool().Schedule([&] {
      work();
      done.Notify();
    });
  }
  work();
  done.Wait();
  PollOpStop();
}

}  // namespace tessel::runtime
