// One interpreter thread per partition around a shared communicator: a LocalCommunicator
// for RunSpmd, the caller's for RunPartitions (see spmd_runner.h).
#include "runtime/spmd_runner.h"

#include <condition_variable>
#include <mutex>
#include <new>
#include <system_error>
#include <thread>
#include <utility>

#include "absl/cleanup/cleanup.h"
#include "absl/strings/str_cat.h"
#include "collectives/local/local_communicator.h"
#include "runtime/interpreter.h"

namespace tessel::runtime {

absl::StatusOr<std::vector<std::vector<Tensor>>> RunSpmd(
    mlir::func::FuncOp function, absl::Span<const std::vector<Tensor>> per_partition_inputs,
    int64_t num_partitions, const SpmdOptions& options) {
  if (num_partitions < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("the number of partitions must be at least 1, got ", num_partitions));
  }
  if (static_cast<int64_t>(per_partition_inputs.size()) != num_partitions) {
    return absl::InvalidArgumentError(absl::StrCat(
        "expected inputs for ", num_partitions, " partitions, got ", per_partition_inputs.size()));
  }
  collectives::LocalCommunicator::Options communicator_options;
  communicator_options.timeout = options.collective_timeout;
  collectives::LocalCommunicator communicator(num_partitions, communicator_options);
  std::vector<int64_t> partitions(num_partitions);
  for (int64_t p = 0; p < num_partitions; ++p) partitions[p] = p;
  return RunPartitions(function, partitions, per_partition_inputs, communicator, options);
}

absl::StatusOr<std::vector<std::vector<Tensor>>> RunPartitions(
    mlir::func::FuncOp function, absl::Span<const int64_t> partitions,
    absl::Span<const std::vector<Tensor>> per_partition_inputs,
    collectives::Communicator& communicator, const SpmdOptions& options) {
  const int64_t num_partitions = communicator.num_partitions();
  if (per_partition_inputs.size() != partitions.size()) {
    return absl::InvalidArgumentError(absl::StrCat("expected inputs for ", partitions.size(),
                                                   " partitions, got ",
                                                   per_partition_inputs.size()));
  }
  for (int64_t p : partitions) {
    if (p < 0 || p >= num_partitions) {
      return absl::InvalidArgumentError(absl::StrCat("partition ", p, " is out of range [0, ",
                                                     num_partitions, ")"));
    }
  }
  if (!function) return absl::InvalidArgumentError("no function to run");
  // The interpreters read the IR and look up types and attributes concurrently, which MLIR
  // allows only while the context keeps its multithreading locks.
  if (partitions.size() > 1 && !function->getContext()->isMultithreadingEnabled()) {
    return absl::InvalidArgumentError(
        "the function's MLIR context has multithreading disabled; partitions cannot run "
        "concurrently");
  }
  const KernelRegistry& registry =
      options.registry != nullptr ? *options.registry : DefaultKernelRegistry();

  std::vector<std::vector<Tensor>> outputs(partitions.size());
  std::mutex failure_mu;
  absl::Status first_failure;  // guarded by failure_mu
  // The first failure that is not a collective's abort. When the caller stops the run (a
  // timeout), the partitions waiting in collectives are woken at once and report aborts,
  // while the one that kept them waiting (a loop) reports a moment later: its error, which
  // names the loop, says more.
  absl::Status first_cause;  // guarded by failure_mu
  // This run's own stop: a failing partition stops the others through it without stopping
  // the caller's signal, which stops it in turn. Either way the communicator is aborted, so
  // that no partition waits in a collective for one that has stopped.
  StopSignal stop;
  StopSignal::Registration abort_on_stop =
      stop.OnStop([&](const absl::Status& reason) { communicator.Abort(reason); });
  StopSignal::Registration follow_caller;
  if (options.limits.stop != nullptr) {
    follow_caller =
        options.limits.stop->OnStop([&](const absl::Status& reason) { stop.Stop(reason); });
  }
  RunLimits limits = options.limits;
  limits.stop = &stop;
  // What a partition reports when even its error message cannot be allocated; made here,
  // while there is memory, and copied without allocating.
  static const absl::Status* const kOutOfMemory =
      new absl::Status(absl::ResourceExhaustedError("a partition ran out of memory"));
  // The partitions still running, and whether one failed to abort the communicator: a
  // partition whose allocator has no memory left cannot make the abort's messages, so this
  // thread, which waits for them, aborts it instead.
  std::mutex running_mu;
  std::condition_variable running_changed;
  size_t running = 0;             // guarded by running_mu
  bool abort_handed_off = false;  // guarded by running_mu
  auto record_failure = [&](const absl::Status& failure) {
    {
      // Recorded before stopping the others, so a root cause always precedes the failures
      // it causes.
      std::lock_guard<std::mutex> lock(failure_mu);
      if (first_failure.ok()) first_failure = failure;
      if (first_cause.ok() && failure.code() != absl::StatusCode::kAborted) {
        first_cause = failure;
      }
    }
    try {
      stop.Stop(failure);
    } catch (const std::bad_alloc&) {
      std::lock_guard<std::mutex> lock(running_mu);
      abort_handed_off = true;
      running_changed.notify_all();
    }
  };
  auto finished = [&] {
    std::lock_guard<std::mutex> lock(running_mu);
    --running;
    running_changed.notify_all();
  };
  std::vector<std::thread> threads;
  threads.reserve(partitions.size());
  absl::Status start_failure;
  for (size_t i = 0; i < partitions.size() && start_failure.ok(); ++i) {
    // The system may refuse a thread (a memory or process limit). The partitions already
    // started are then stopped, so that none waits in a collective for one that never came,
    // and joined: a std::thread destroyed unjoined would terminate the process.
    try {
      {
        std::lock_guard<std::mutex> lock(running_mu);
        ++running;
      }
      threads.emplace_back([&, i] {
        absl::Cleanup done = finished;
        const int64_t p = partitions[i];
        // The interpreter turns a kernel's failed allocation into the op's error; one outside
        // it (the interpreter's own state, on a thread whose first block the allocator
        // cannot map) must not escape the thread, which would end the process.
        absl::Status failure;
        try {
          Interpreter interpreter(registry, PartitionContext{p, num_partitions, &communicator},
                                  limits);
          absl::StatusOr<std::vector<Tensor>> results =
              interpreter.RunFunction(function, per_partition_inputs[i]);
          if (limits.counters) {
            limits.counters->partitions_done.fetch_add(1, std::memory_order_relaxed);
          }
          if (results.ok()) {
            outputs[i] = *std::move(results);
            return;
          }
          failure = absl::Status(results.status().code(),
                                 absl::StrCat("partition ", p, ": ", results.status().message()));
        } catch (const std::bad_alloc&) {
          try {
            failure =
                absl::ResourceExhaustedError(absl::StrCat("partition ", p, ": out of memory"));
          } catch (const std::bad_alloc&) {
            failure = *kOutOfMemory;
          }
        }
        record_failure(failure);
      });
    } catch (const std::bad_alloc&) {
      finished();
      start_failure = absl::ResourceExhaustedError(absl::StrCat(
          "cannot start partition ", partitions[i], " of ", partitions.size(), ": out of memory"));
      stop.Stop(start_failure);
    } catch (const std::system_error& error) {
      finished();
      start_failure = absl::ResourceExhaustedError(
          absl::StrCat("cannot start partition ", partitions[i], " of ", partitions.size(),
                       " (a thread each): ", error.what()));
      stop.Stop(start_failure);
    }
  }
  {
    std::unique_lock<std::mutex> lock(running_mu);
    running_changed.wait(lock, [&] { return running == 0 || abort_handed_off; });
    if (abort_handed_off) {
      lock.unlock();
      communicator.Abort(*kOutOfMemory);
    }
  }
  for (std::thread& thread : threads) thread.join();
  if (!start_failure.ok()) return start_failure;
  if (!first_cause.ok()) return first_cause;
  if (!first_failure.ok()) return first_failure;
  return outputs;
}

}  // namespace tessel::runtime
