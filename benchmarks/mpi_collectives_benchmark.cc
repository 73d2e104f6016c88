// Tessel's MPI backend against the raw MPI calls it wraps, per collective and buffer size,
// under mpirun (docs/benchmarks.md has the figures and the command):
//
//   bazel build -c opt //benchmarks:mpi_collectives_benchmark
//   mpirun -np 2 bazel-bin/benchmarks/mpi_collectives_benchmark
//
// Each row times the same collective on the same buffers two ways: through
// MpiCommunicator (all ranks as one group, f32 data) and through the blocking MPI call on a
// communicator of the same ranks (MPI_Allreduce with MPI_FLOAT/MPI_SUM, MPI_Allgather,
// MPI_Reduce_scatter_block, MPI_Alltoall, MPI_Bcast, MPI_Sendrecv around a ring). The two
// alternate in rounds, so that drift on a shared machine hits both; each round is a
// barrier, then `iterations` calls, and its time is the slowest rank's. The figure is the
// median over rounds of the time per call; the ratio is Tessel's over raw MPI's.
//
// Tessel is measured with its defaults (verify_calls on: one small all-gather of call
// descriptions before every collective) and with verify_calls off. Its f32 sums combine in
// group order: below fold_min_bytes with a user-defined, non-commutative MPI_Op, from there
// on as an all-to-all, a local fold and an all-gather; the raw call uses MPI's built-in
// MPI_SUM. The reductions run a third time with the MPI_Op at every size (no fold).
//
// Flags: --max_bytes=N (default 64 MiB), --rounds=N (default 7), --min_seconds=S per round
// (default 0.02), --fold_min_bytes=N (MpiCommunicator::Options::fold_min_bytes, default
// the communicator's).
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "benchmarks/collective_benchmark_util.h"
#include "collectives/mpi/mpi_communicator.h"

namespace tessel::collectives {
namespace {

using benchmarks::Bytes;
using benchmarks::Median;

struct Flags {
  int64_t max_bytes = 64 << 20;
  int rounds = 7;
  double min_seconds = 0.02;
  int64_t fold_min_bytes = MpiCommunicator::Options().fold_min_bytes;
};

Flags ParseFlags(int argc, char** argv) {
  Flags flags;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&](const char* name) { return benchmarks::FlagValue(arg, name); };
    if (const char* v = value("max_bytes")) flags.max_bytes = std::atoll(v);
    if (const char* v = value("rounds")) flags.rounds = std::atoi(v);
    if (const char* v = value("min_seconds")) flags.min_seconds = std::atof(v);
    if (const char* v = value("fold_min_bytes")) flags.fold_min_bytes = std::atoll(v);
  }
  return flags;
}

// Seconds for `iterations` calls of `call` on the slowest rank.
double TimeRound(const std::function<void()>& call, int64_t iterations) {
  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  for (int64_t i = 0; i < iterations; ++i) call();
  double elapsed = MPI_Wtime() - start, slowest = 0;
  MPI_Allreduce(&elapsed, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return slowest;
}

// Calls per round so that one round of the slowest variant takes about `min_seconds`
// (every rank gets the same count).
int64_t Calibrate(const std::vector<std::function<void()>>& variants, double min_seconds) {
  double slowest = 0;
  for (const auto& call : variants) slowest = std::max(slowest, TimeRound(call, 1));
  int64_t iterations = static_cast<int64_t>(min_seconds / std::max(slowest, 1e-7));
  iterations = std::clamp<int64_t>(iterations, 1, 10000);
  MPI_Bcast(&iterations, 1, MPI_INT64_T, 0, MPI_COMM_WORLD);
  return iterations;
}

void Check(const absl::Status& status) {
  if (status.ok()) return;
  std::fprintf(stderr, "benchmark collective failed: %s\n", status.ToString().c_str());
  MPI_Abort(MPI_COMM_WORLD, 1);
}

void Run(const Flags& flags) {
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MpiCommunicator::Options checked;
  MpiCommunicator::Options unchecked;
  unchecked.verify_calls = false;
  checked.fold_min_bytes = unchecked.fold_min_bytes = flags.fold_min_bytes;
  // The reductions once more with the ordered MPI_Op at every size (no fold).
  MpiCommunicator::Options unfolded = checked;
  unfolded.fold_min_bytes = INT64_MAX;
  auto tessel = MpiCommunicator::Create(DeviceAssignment::Identity(size), checked);
  auto fast = MpiCommunicator::Create(DeviceAssignment::Identity(size), unchecked);
  auto op_only = MpiCommunicator::Create(DeviceAssignment::Identity(size), unfolded);
  if (!tessel.ok() || !fast.ok() || !op_only.ok()) {
    std::fprintf(stderr, "cannot create the communicators\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Comm raw;
  MPI_Comm_dup(MPI_COMM_WORLD, &raw);
  std::vector<int64_t> group(size);
  for (int p = 0; p < size; ++p) group[p] = p;
  const int64_t self = rank;
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  std::vector<SourceTarget> ring;
  for (int p = 0; p < size; ++p) ring.push_back({p, (p + 1) % size});

  if (rank == 0) {
    std::printf("%d ranks; time per call in microseconds, median of %d rounds\n", size,
                flags.rounds);
    std::printf(
        "| collective | bytes | raw MPI (us) | Tessel (us) | Tessel / raw | "
        "Tessel, verify_calls off (us) | off / raw | Tessel, MPI_Op only (us) | "
        "MPI_Op only / raw |\n|---|---|---|---|---|---|---|---|---|\n");
  }
  const char* names[] = {"all_reduce", "all_gather", "reduce_scatter",
                         "all_to_all", "broadcast",  "collective_permute"};
  for (const char* name : names) {
    for (int64_t bytes = 1024; bytes <= flags.max_bytes; bytes *= 4) {
      // `bytes` is each rank's input; all_gather's output is size times that.
      const int64_t count = bytes / static_cast<int64_t>(sizeof(float));
      const int block = static_cast<int>(count / size);
      const std::string op = name;
      std::vector<float> input(count, 1.0f + rank);
      std::vector<float> output(op == "all_gather" ? count * size : count);
      const ConstBuffer in{DataType::kF32, input.data(), count};
      Buffer out{DataType::kF32, output.data(), static_cast<int64_t>(output.size())};
      Buffer scattered{DataType::kF32, output.data(), block};
      Buffer io{DataType::kF32, input.data(), count};
      const int n = static_cast<int>(count);

      auto tessel_call = [&](MpiCommunicator& c) -> std::function<void()> {
        if (op == "all_reduce")
          return [&] { Check(c.AllReduce(self, group, ReductionKind::kSum, in, out)); };
        if (op == "all_gather") return [&] { Check(c.AllGather(self, group, in, out)); };
        if (op == "reduce_scatter") {
          return [&] { Check(c.ReduceScatter(self, group, ReductionKind::kSum, in, scattered)); };
        }
        if (op == "all_to_all") return [&] { Check(c.AllToAll(self, group, in, out)); };
        if (op == "broadcast") return [&] { Check(c.Broadcast(self, group, 0, io)); };
        return [&] { Check(c.CollectivePermute(self, group, ring, in, out)); };
      };
      std::function<void()> raw_call;
      if (op == "all_reduce") {
        raw_call = [&] { MPI_Allreduce(input.data(), output.data(), n, MPI_FLOAT, MPI_SUM, raw); };
      } else if (op == "all_gather") {
        raw_call = [&] {
          MPI_Allgather(input.data(), n, MPI_FLOAT, output.data(), n, MPI_FLOAT, raw);
        };
      } else if (op == "reduce_scatter") {
        raw_call = [&] {
          MPI_Reduce_scatter_block(input.data(), output.data(), block, MPI_FLOAT, MPI_SUM, raw);
        };
      } else if (op == "all_to_all") {
        raw_call = [&] {
          MPI_Alltoall(input.data(), block, MPI_FLOAT, output.data(), block, MPI_FLOAT, raw);
        };
      } else if (op == "broadcast") {
        raw_call = [&] { MPI_Bcast(input.data(), n, MPI_FLOAT, 0, raw); };
      } else {
        raw_call = [&] {
          MPI_Sendrecv(input.data(), n, MPI_FLOAT, right, 7, output.data(), n, MPI_FLOAT, left, 7,
                       raw, MPI_STATUS_IGNORE);
        };
      }
      std::vector<std::function<void()>> variants = {raw_call, tessel_call(**tessel),
                                                     tessel_call(**fast)};
      const bool reduces = op == "all_reduce" || op == "reduce_scatter";
      if (reduces) variants.push_back(tessel_call(**op_only));
      for (const auto& call : variants) call();  // warm up: group setup, page faults
      const int64_t iterations = Calibrate(variants, flags.min_seconds);
      std::vector<std::vector<double>> times(variants.size());
      for (int round = 0; round < flags.rounds; ++round) {
        for (size_t v = 0; v < variants.size(); ++v) {
          times[v].push_back(TimeRound(variants[v], iterations) / iterations * 1e6);
        }
      }
      if (rank == 0) {
        const double raw_us = Median(times[0]), tessel_us = Median(times[1]),
                     fast_us = Median(times[2]);
        std::printf("| %s | %s | %.1f | %.1f | %.3f | %.1f | %.3f |", name, Bytes(bytes).c_str(),
                    raw_us, tessel_us, tessel_us / raw_us, fast_us, fast_us / raw_us);
        if (reduces) {
          const double op_us = Median(times[3]);
          std::printf(" %.1f | %.3f |\n", op_us, op_us / raw_us);
        } else {
          std::printf(" - | - |\n");
        }
        std::fflush(stdout);
      }
    }
  }
  MPI_Comm_free(&raw);
}

}  // namespace
}  // namespace tessel::collectives

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  tessel::collectives::Run(tessel::collectives::ParseFlags(argc, argv));
  MPI_Finalize();
  return 0;
}
