// Tessel's NCCL backend against the raw NCCL calls it wraps, per collective and buffer size,
// on the GPUs of one process (docs/benchmarks.md has the figures and the command):
//
//   bazel build -c opt --config=cuda //benchmarks:nccl_collectives_benchmark
//   bazel-bin/benchmarks/nccl_collectives_benchmark [--devices=N]
//
// Partition p runs on GPU p in its own thread, with f32 data in device memory. Each row
// times the same collective on the same buffers two ways: through NcclCommunicator (all
// partitions as one group, device buffers) and through the NCCL call on a communicator of
// the same devices made by ncclCommInitAll (ncclAllReduce/ncclSum, ncclAllGather,
// ncclReduceScatter, grouped ncclSend/ncclRecv for all_to_all and the ring permute,
// ncclBroadcast). Tessel's calls return once the result is in place, so each raw call is
// followed by cudaStreamSynchronize. The variants alternate in rounds so that drift hits
// all of them; a round starts one thread per partition, each making `iterations` calls,
// and its time is the wall time until the last thread ends. The figure is the median over
// rounds of the time per call; the ratio is Tessel's over raw NCCL's.
//
// Tessel is measured twice: with its defaults (verify_calls on: one small all-gather of
// call descriptions before every collective) and with verify_calls off.
//
// Flags: --devices=N (default: every visible GPU), --max_bytes=N (default 64 MiB),
// --rounds=N (default 7), --min_seconds=S per round (default 0.02).
#include <cuda_runtime_api.h>
#include <nccl.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "benchmarks/collective_benchmark_util.h"
#include "collectives/nccl/nccl_communicator.h"

namespace tessel::collectives {
namespace {

using benchmarks::Bytes;
using benchmarks::Median;

struct Flags {
  int devices = -1;
  int64_t max_bytes = 64 << 20;
  int rounds = 7;
  double min_seconds = 0.02;
};

Flags ParseFlags(int argc, char** argv) {
  Flags flags;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&](const char* name) { return benchmarks::FlagValue(arg, name); };
    if (const char* v = value("devices")) flags.devices = std::atoi(v);
    if (const char* v = value("max_bytes")) flags.max_bytes = std::atoll(v);
    if (const char* v = value("rounds")) flags.rounds = std::atoi(v);
    if (const char* v = value("min_seconds")) flags.min_seconds = std::atof(v);
  }
  return flags;
}

[[noreturn]] void Die(const std::string& message) {
  std::fprintf(stderr, "nccl_collectives_benchmark: %s\n", message.c_str());
  std::exit(1);
}

void Check(const absl::Status& status) {
  if (!status.ok()) Die("collective failed: " + status.ToString());
}

void CheckCuda(cudaError_t error, const char* what) {
  if (error != cudaSuccess) Die(std::string(what) + ": " + cudaGetErrorString(error));
}

void CheckNccl(ncclResult_t result, const char* what) {
  if (result != ncclSuccess) Die(std::string(what) + ": " + ncclGetErrorString(result));
}

// A call made by partition `p`.
using Call = std::function<void(int p)>;

// Seconds for `iterations` calls on every partition at once.
double TimeRound(const Call& call, int devices, int64_t iterations) {
  const auto start = std::chrono::steady_clock::now();
  std::vector<std::thread> threads;
  for (int p = 0; p < devices; ++p) {
    threads.emplace_back([&, p] {
      CheckCuda(cudaSetDevice(p), "cudaSetDevice");
      for (int64_t i = 0; i < iterations; ++i) call(p);
    });
  }
  for (std::thread& thread : threads) thread.join();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// One partition's device buffers for one buffer size.
struct Buffers {
  float* input = nullptr;
  float* output = nullptr;
};

void Run(const Flags& flags) {
  int visible = 0;
  CheckCuda(cudaGetDeviceCount(&visible), "cudaGetDeviceCount");
  const int n = flags.devices > 0 ? flags.devices : visible;
  if (n < 1 || n > visible) {
    Die("asked for " + std::to_string(n) + " devices; " + std::to_string(visible) + " visible");
  }
  int nccl_version = 0;
  ncclGetVersion(&nccl_version);
  int runtime_version = 0, driver_version = 0;
  cudaRuntimeGetVersion(&runtime_version);
  cudaDriverGetVersion(&driver_version);
  cudaDeviceProp properties;
  CheckCuda(cudaGetDeviceProperties(&properties, 0), "cudaGetDeviceProperties");

  NcclCommunicator::Options checked;
  NcclCommunicator::Options unchecked;
  unchecked.verify_calls = false;
  auto tessel = NcclCommunicator::CreateSingleProcess(n, checked);
  auto fast = NcclCommunicator::CreateSingleProcess(n, unchecked);
  if (!tessel.ok()) Check(tessel.status());
  if (!fast.ok()) Check(fast.status());

  std::vector<ncclComm_t> raw(n);
  std::vector<int> device_list(n);
  for (int p = 0; p < n; ++p) device_list[p] = p;
  CheckNccl(ncclCommInitAll(raw.data(), n, device_list.data()), "ncclCommInitAll");
  std::vector<cudaStream_t> streams(n);
  for (int p = 0; p < n; ++p) {
    CheckCuda(cudaSetDevice(p), "cudaSetDevice");
    CheckCuda(cudaStreamCreate(&streams[p]), "cudaStreamCreate");
  }
  std::vector<int64_t> group(n);
  for (int p = 0; p < n; ++p) group[p] = p;
  std::vector<SourceTarget> ring;
  for (int p = 0; p < n; ++p) ring.push_back({p, (p + 1) % n});

  std::printf("%d x %s; NCCL %d, CUDA runtime %d, driver %d\n", n, properties.name, nccl_version,
              runtime_version, driver_version);
  std::printf("time per call in microseconds, median of %d rounds\n", flags.rounds);
  std::printf(
      "| collective | bytes | raw NCCL (us) | Tessel (us) | Tessel / raw | "
      "Tessel, verify_calls off (us) | off / raw |\n|---|---|---|---|---|---|---|\n");
  const char* names[] = {"all_reduce", "all_gather", "reduce_scatter",
                         "all_to_all", "broadcast",  "collective_permute"};
  for (const char* name : names) {
    const std::string op = name;
    for (int64_t bytes = 1024; bytes <= flags.max_bytes; bytes *= 4) {
      // `bytes` is each partition's input; all_gather's output is n times that.
      const int64_t count = bytes / static_cast<int64_t>(sizeof(float));
      const int64_t block = count / n;
      const int64_t output_count = op == "all_gather" ? count * n : count;
      std::vector<Buffers> buffers(n);
      for (int p = 0; p < n; ++p) {
        CheckCuda(cudaSetDevice(p), "cudaSetDevice");
        CheckCuda(cudaMalloc(&buffers[p].input, count * sizeof(float)), "cudaMalloc");
        CheckCuda(cudaMalloc(&buffers[p].output, output_count * sizeof(float)), "cudaMalloc");
        CheckCuda(cudaMemset(buffers[p].input, 0, count * sizeof(float)), "cudaMemset");
        CheckCuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
      }
      auto tessel_call = [&](NcclCommunicator& c) -> Call {
        return [&, op](int p) {
          const ConstBuffer in{DataType::kF32, buffers[p].input, count};
          Buffer out{DataType::kF32, buffers[p].output, output_count};
          if (op == "all_reduce") {
            Check(c.AllReduce(p, group, ReductionKind::kSum, in, out));
          } else if (op == "all_gather") {
            Check(c.AllGather(p, group, in, out));
          } else if (op == "reduce_scatter") {
            Check(c.ReduceScatter(p, group, ReductionKind::kSum, in,
                                  Buffer{DataType::kF32, buffers[p].output, block}));
          } else if (op == "all_to_all") {
            Check(c.AllToAll(p, group, in, out));
          } else if (op == "broadcast") {
            Check(c.Broadcast(p, group, 0, Buffer{DataType::kF32, buffers[p].input, count}));
          } else {
            Check(c.CollectivePermute(p, group, ring, in, out));
          }
        };
      };
      Call raw_call = [&, op](int p) {
        float* in = buffers[p].input;
        float* out = buffers[p].output;
        cudaStream_t stream = streams[p];
        if (op == "all_reduce") {
          CheckNccl(ncclAllReduce(in, out, count, ncclFloat, ncclSum, raw[p], stream),
                    "ncclAllReduce");
        } else if (op == "all_gather") {
          CheckNccl(ncclAllGather(in, out, count, ncclFloat, raw[p], stream), "ncclAllGather");
        } else if (op == "reduce_scatter") {
          CheckNccl(ncclReduceScatter(in, out, block, ncclFloat, ncclSum, raw[p], stream),
                    "ncclReduceScatter");
        } else if (op == "all_to_all") {
          CheckNccl(ncclGroupStart(), "ncclGroupStart");
          for (int q = 0; q < n; ++q) {
            CheckNccl(ncclSend(in + q * block, block, ncclFloat, q, raw[p], stream), "ncclSend");
            CheckNccl(ncclRecv(out + q * block, block, ncclFloat, q, raw[p], stream), "ncclRecv");
          }
          CheckNccl(ncclGroupEnd(), "ncclGroupEnd");
        } else if (op == "broadcast") {
          CheckNccl(ncclBroadcast(in, in, count, ncclFloat, 0, raw[p], stream), "ncclBroadcast");
        } else {
          CheckNccl(ncclGroupStart(), "ncclGroupStart");
          CheckNccl(ncclSend(in, count, ncclFloat, (p + 1) % n, raw[p], stream), "ncclSend");
          CheckNccl(ncclRecv(out, count, ncclFloat, (p + n - 1) % n, raw[p], stream), "ncclRecv");
          CheckNccl(ncclGroupEnd(), "ncclGroupEnd");
        }
        CheckCuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
      };
      const std::vector<Call> variants = {raw_call, tessel_call(**tessel), tessel_call(**fast)};
      // Warm up (communicator setup, scratch) and calibrate on the slowest variant.
      double slowest = 0;
      for (const Call& call : variants) {
        TimeRound(call, n, 1);
        slowest = std::max(slowest, TimeRound(call, n, 1));
      }
      const int64_t iterations = std::clamp<int64_t>(
          static_cast<int64_t>(flags.min_seconds / std::max(slowest, 1e-7)), 1, 100000);
      std::vector<std::vector<double>> times(variants.size());
      for (int round = 0; round < flags.rounds; ++round) {
        for (size_t v = 0; v < variants.size(); ++v) {
          times[v].push_back(TimeRound(variants[v], n, iterations) / iterations * 1e6);
        }
      }
      const double raw_us = Median(times[0]), tessel_us = Median(times[1]),
                   fast_us = Median(times[2]);
      std::printf("| %s | %s | %.1f | %.1f | %.3f | %.1f | %.3f |\n", name, Bytes(bytes).c_str(),
                  raw_us, tessel_us, tessel_us / raw_us, fast_us, fast_us / raw_us);
      std::fflush(stdout);
      for (int p = 0; p < n; ++p) {
        CheckCuda(cudaSetDevice(p), "cudaSetDevice");
        cudaFree(buffers[p].input);
        cudaFree(buffers[p].output);
      }
    }
  }
  for (int p = 0; p < n; ++p) ncclCommDestroy(raw[p]);
}

}  // namespace
}  // namespace tessel::collectives

int main(int argc, char** argv) {
  tessel::collectives::Run(tessel::collectives::ParseFlags(argc, argv));
  return 0;
}
