// Helpers for tests of the local backend: run a function on one thread per partition.
#ifndef TESSEL_COLLECTIVES_LOCAL_TEST_UTIL_H_
#define TESSEL_COLLECTIVES_LOCAL_TEST_UTIL_H_

#include <cstdint>
#include <functional>
#include <numeric>
#include <thread>
#include <vector>

#include "absl/status/status.h"

namespace tessel::collectives::testing {

// Runs `fn(p)` for every p in `partitions`, each on its own thread, and returns the
// statuses in the same order.
inline std::vector<absl::Status> RunOnPartitions(std::vector<int64_t> partitions,
                                                 const std::function<absl::Status(int64_t)>& fn) {
  std::vector<absl::Status> statuses(partitions.size());
  std::vector<std::thread> threads;
  for (size_t i = 0; i < partitions.size(); ++i) {
    threads.emplace_back([&, i] { statuses[i] = fn(partitions[i]); });
  }
  for (std::thread& thread : threads) thread.join();
  return statuses;
}

// Runs `fn(p)` for every p in [0, n).
inline std::vector<absl::Status> RunOnPartitions(int64_t n,
                                                 const std::function<absl::Status(int64_t)>& fn) {
  std::vector<int64_t> partitions(n);
  std::iota(partitions.begin(), partitions.end(), 0);
  return RunOnPartitions(partitions, fn);
}

// [0, 1, ..., n - 1].
inline std::vector<int64_t> Iota(int64_t n) {
  std::vector<int64_t> ids(n);
  std::iota(ids.begin(), ids.end(), 0);
  return ids;
}

}  // namespace tessel::collectives::testing

#endif  // TESSEL_COLLECTIVES_LOCAL_TEST_UTIL_H_
