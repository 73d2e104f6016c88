// The machine's cost of one random memory read as the memory read from grows: a chain of
// dependent loads through every cache line of a buffer in random order, so that each load
// waits for the one before. Tables that the partitioner and MLIR hash into (value
// numberings, the location and attribute uniquers, the parser's names) are read this way,
// and at a million instructions they and the heap around them outgrow the caches and the
// TLB's reach; this says what each such read costs at each size on the machine at hand.
//
//   bazel run -c opt //benchmarks:memory_latency
//
// BM_RandomLoad/MiB gives ns per load with 4 KiB pages; BM_RandomLoadHugePages/MiB the
// same on memory advised to transparent huge pages (where the kernel allows it), which
// takes the page walks out and leaves the cache misses. `fault_in_ms` is the time to touch
// the buffer once, page by page, before the chain is built.
#include <sys/mman.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <random>
#include <utility>
#include <vector>

#include "benchmark/benchmark.h"

namespace {

constexpr size_t kLine = 64;
constexpr size_t kHugePage = size_t{2} << 20;

// An anonymous mapping aligned to a huge page, unmapped on destruction.
class Buffer {
 public:
  Buffer(size_t bytes, bool hugePages) : bytes_(bytes) {
    mapped_ = mmap(nullptr, bytes + kHugePage, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mapped_ == MAP_FAILED) {
      mapped_ = nullptr;
      return;
    }
    auto start = (reinterpret_cast<uintptr_t>(mapped_) + kHugePage - 1) & ~(kHugePage - 1);
    data_ = reinterpret_cast<char*>(start);
    if (hugePages) madvise(data_, bytes, MADV_HUGEPAGE);
  }
  ~Buffer() {
    if (mapped_) munmap(mapped_, bytes_ + kHugePage);
  }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  char* data() const { return data_; }

 private:
  size_t bytes_;
  void* mapped_ = nullptr;
  char* data_ = nullptr;
};

void RandomLoads(benchmark::State& state, bool hugePages) {
  const size_t bytes = static_cast<size_t>(state.range(0)) << 20;
  Buffer buffer(bytes, hugePages);
  if (!buffer.data()) {
    state.SkipWithError("could not map the buffer");
    return;
  }
  const auto faultStart = std::chrono::steady_clock::now();
  for (size_t offset = 0; offset < bytes; offset += 4096) buffer.data()[offset] = 1;
  const double faultMs = std::chrono::duration<double, std::milli>(
                             std::chrono::steady_clock::now() - faultStart)
                             .count();
  // One cycle through every line (Sattolo's shuffle), each line holding the next's address.
  const size_t lines = bytes / kLine;
  std::vector<uint32_t> order(lines);
  std::iota(order.begin(), order.end(), 0);
  std::mt19937_64 random(1);
  for (size_t i = lines - 1; i > 0; --i) {
    std::swap(order[i], order[std::uniform_int_distribution<size_t>(0, i - 1)(random)]);
  }
  for (size_t i = 0; i < lines; ++i) {
    *reinterpret_cast<char**>(buffer.data() + order[i] * kLine) =
        buffer.data() + order[(i + 1) % lines] * kLine;
  }
  constexpr int64_t kLoadsPerIteration = 1 << 16;
  char* p = buffer.data() + order[0] * kLine;
  double seconds = 0;
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    for (int64_t i = 0; i < kLoadsPerIteration; ++i) p = *reinterpret_cast<char**>(p);
    benchmark::DoNotOptimize(p);
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  state.counters["ns_per_load"] =
      seconds * 1e9 / static_cast<double>(state.iterations() * kLoadsPerIteration);
  state.counters["fault_in_ms"] = faultMs;
}

void BM_RandomLoad(benchmark::State& state) { RandomLoads(state, /*hugePages=*/false); }
void BM_RandomLoadHugePages(benchmark::State& state) { RandomLoads(state, /*hugePages=*/true); }

BENCHMARK(BM_RandomLoad)->RangeMultiplier(4)->Range(1, 1024)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RandomLoadHugePages)
    ->RangeMultiplier(4)
    ->Range(1, 1024)
    ->Unit(benchmark::kMillisecond);

}  // namespace
