// Builds against Google Benchmark so that its BUILD file in third_party/ stays correct.
#include <vector>

#include "benchmark/benchmark.h"

namespace {

void BM_VectorFill(benchmark::State& state) {
  for (auto _ : state) {
    std::vector<int> v(state.range(0), 1);
    benchmark::DoNotOptimize(v.data());
  }
}
BENCHMARK(BM_VectorFill)->Range(8, 512);

}  // namespace
