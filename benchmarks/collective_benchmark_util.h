// What the collective benchmarks (MPI and NCCL against their raw calls) share: reading
// `--name=value` flags, printing sizes, and the median of a round's times.
#ifndef TESSEL_BENCHMARKS_COLLECTIVE_BENCHMARK_UTIL_H_
#define TESSEL_BENCHMARKS_COLLECTIVE_BENCHMARK_UTIL_H_

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace tessel::benchmarks {

// The value of `arg` if it is `--name=value`; null otherwise.
inline const char* FlagValue(const std::string& arg, const std::string& name) {
  const std::string prefix = "--" + name + "=";
  return arg.rfind(prefix, 0) == 0 ? arg.c_str() + prefix.size() : nullptr;
}

// "256 KiB", "4 MiB".
inline std::string Bytes(int64_t bytes) {
  if (bytes >= (1 << 20)) return std::to_string(bytes >> 20) + " MiB";
  return std::to_string(bytes >> 10) + " KiB";
}

inline double Median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

}  // namespace tessel::benchmarks

#endif  // TESSEL_BENCHMARKS_COLLECTIVE_BENCHMARK_UTIL_H_
