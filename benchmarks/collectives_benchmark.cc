// Benchmarks of the local collectives backend: all_reduce and all_gather over 2, 4 and 8
// partitions at a few sizes, reported as nccl-tests' algbw and busbw, next to memcpy of the
// same size measured in the same run.
//
//   bazel run -c opt //benchmarks:collectives_benchmark
//
// Each benchmark runs partition 0 on the benchmark thread, inside the timed loop, and the
// other partitions on helper threads that make exactly as many calls (state.max_iterations,
// known before the loop). A collective completes on partition 0 only when every member is
// done with it, so partition 0's time per iteration is the time per collective.
//
// Counters (all per collective, bytes as nccl-tests counts them):
//   algbw         bytes / time; bytes is the buffer size for all_reduce and the gathered
//                 (output) size for all_gather
//   busbw         algbw * 2(n-1)/n for all_reduce, algbw * (n-1)/n for all_gather
//   memcpy_Bps    bytes per second of one thread copying `bytes` between two buffers,
//                 measured right after the collective in the same benchmark
//   busbw/memcpy  the ratio of the two
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstring>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "collectives/local/local_communicator.h"

namespace tessel::collectives {
namespace {

using Clock = std::chrono::steady_clock;

double Seconds(Clock::duration duration) { return std::chrono::duration<double>(duration).count(); }

// Bytes per second of memcpy of `bytes` bytes, repeated for at least 50 ms.
double MemcpyBytesPerSecond(int64_t bytes) {
  std::vector<char> source(bytes, 1), destination(bytes, 0);
  std::memcpy(destination.data(), source.data(), bytes);  // fault the pages in first
  int64_t repetitions = 0;
  Clock::time_point start = Clock::now();
  Clock::duration elapsed{};
  do {
    for (int i = 0; i < 16; ++i) {
      std::memcpy(destination.data(), source.data(), bytes);
      benchmark::ClobberMemory();
    }
    repetitions += 16;
    elapsed = Clock::now() - start;
  } while (elapsed < std::chrono::milliseconds(50));
  benchmark::DoNotOptimize(destination.data());
  return static_cast<double>(bytes) * repetitions / Seconds(elapsed);
}

std::vector<int64_t> WholeGroup(int64_t n) {
  std::vector<int64_t> group(n);
  for (int64_t p = 0; p < n; ++p) group[p] = p;
  return group;
}

// Runs `call(p)` on partition p: partition 0 in the timed loop, the others on helper threads,
// `state.max_iterations` times each; then reports the counters above.
template <typename Call>
void RunCollective(benchmark::State& state, int64_t n, int64_t bytes, double bus_factor,
                   Call call) {
  std::vector<std::thread> helpers;
  for (int64_t p = 1; p < n; ++p) {
    helpers.emplace_back([&, p] {
      for (benchmark::IterationCount i = 0; i < state.max_iterations; ++i) {
        if (!call(p).ok()) return;
      }
    });
  }
  Clock::time_point start = Clock::now();
  for (auto _ : state) {
    absl::Status status = call(0);
    if (!status.ok()) {
      state.SkipWithError(status.ToString().c_str());
      break;
    }
  }
  const double seconds_per_call = Seconds(Clock::now() - start) / state.iterations();
  for (std::thread& helper : helpers) helper.join();

  const double algbw = bytes / seconds_per_call, busbw = algbw * bus_factor;
  const double memcpy_bw = MemcpyBytesPerSecond(bytes);
  state.counters["algbw"] =
      benchmark::Counter(static_cast<double>(bytes), benchmark::Counter::kIsIterationInvariantRate,
                         benchmark::Counter::kIs1000);
  state.counters["busbw"] =
      benchmark::Counter(bytes * bus_factor, benchmark::Counter::kIsIterationInvariantRate,
                         benchmark::Counter::kIs1000);
  state.counters["memcpy_Bps"] =
      benchmark::Counter(memcpy_bw, benchmark::Counter::kDefaults, benchmark::Counter::kIs1000);
  state.counters["busbw/memcpy"] = busbw / memcpy_bw;
}

// Args: {partitions, bytes}.
void BM_AllReduce(benchmark::State& state) {
  const int64_t n = state.range(0), bytes = state.range(1);
  const int64_t count = bytes / static_cast<int64_t>(sizeof(float));
  LocalCommunicator communicator(n);
  const std::vector<int64_t> group = WholeGroup(n);
  std::vector<std::vector<float>> inputs(n, std::vector<float>(count, 1.0f)),
      outputs(n, std::vector<float>(count, 0.0f));
  RunCollective(state, n, bytes, 2.0 * (n - 1) / n, [&](int64_t p) {
    return communicator.AllReduce(p, group, ReductionKind::kSum,
                                  MakeConstBuffer(absl::MakeConstSpan(inputs[p])),
                                  MakeBuffer(absl::MakeSpan(outputs[p])));
  });
}

// Args: {partitions, gathered bytes}; each partition contributes bytes / partitions.
void BM_AllGather(benchmark::State& state) {
  const int64_t n = state.range(0), bytes = state.range(1);
  const int64_t count = bytes / static_cast<int64_t>(sizeof(float));
  LocalCommunicator communicator(n);
  const std::vector<int64_t> group = WholeGroup(n);
  std::vector<std::vector<float>> inputs(n, std::vector<float>(count / n, 1.0f)),
      outputs(n, std::vector<float>(count / n * n, 0.0f));
  RunCollective(state, n, bytes, 1.0 * (n - 1) / n, [&](int64_t p) {
    return communicator.AllGather(p, group, MakeConstBuffer(absl::MakeConstSpan(inputs[p])),
                                  MakeBuffer(absl::MakeSpan(outputs[p])));
  });
}

void Sizes(benchmark::internal::Benchmark* benchmark) {
  for (int64_t partitions : {2, 4, 8}) {
    for (int64_t bytes :
         {int64_t{4} << 10, int64_t{256} << 10, int64_t{4} << 20, int64_t{16} << 20}) {
      benchmark->Args({partitions, bytes});
    }
  }
  benchmark->ArgNames({"partitions", "bytes"})->UseRealTime()->Unit(benchmark::kMicrosecond);
}

BENCHMARK(BM_AllReduce)->Apply(Sizes);
BENCHMARK(BM_AllGather)->Apply(Sizes);

}  // namespace
}  // namespace tessel::collectives
