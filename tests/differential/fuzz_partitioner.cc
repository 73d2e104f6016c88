// The long-running differential fuzzer: random programs over random meshes and shardings
// (random_program.h), partitioned with the options each seed picks and checked against the
// single-device run. Prints failures as they come (with the seed that reproduces each), and
// at the end the time per case and what the run exercised (fuzz_coverage.h); exits 1 on any
// failure, when an op of the generator was exercised in fewer than --min_coverage cases, or
// when a strategy candidate that was on offer was chosen in fewer.
//
//   fuzz_partitioner --cases=1000000 --threads=2               # a campaign
//   fuzz_partitioner --first_seed=4242 --cases=1 --reduce_to=tests/differential/regressions
//   fuzz_partitioner --mutations=all --cases=1000              # kill rates
//   fuzz_partitioner --replay=tests/differential/regressions/seed_1030154.mlir
//   fuzz_partitioner --first_seed=1 --cases=20 --write_programs=tests/fuzz/seeds/pipeline
//
// With --reduce_to=DIR each failing seed is reduced (program_reducer.h) and written there as
// a regression case named after its seed. With --mutations, each listed mutation
// (partition_mutations.h) is applied to every case in turn, and the run reports for each how
// many cases applied it, how many of those the check caught, and after how many applied
// cases it was first caught; a mutation is "killed" when every run catches it within --cases.
// --replay runs one regression case (as regression_programs_test does) and prints each
// strategy the partitioner chose and the partitioned program, to debug a failure.
// --write_programs writes each seed's program with its options line as a regression case
// would have it, without running it: seed corpora for the pipeline fuzz target (tests/fuzz).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "llvm/Support/raw_ostream.h"
#include "runtime/tensor.h"
#include "tests/differential/fuzz_campaign.h"
#include "tests/differential/program_reducer.h"
#include "tests/differential/random_program.h"

ABSL_FLAG(uint64_t, first_seed, 1, "The first seed.");
ABSL_FLAG(uint64_t, cases, 1000, "How many seeds to run (per mutation with --mutations).");
ABSL_FLAG(int, threads, 1, "Cases run in parallel on this many threads.");
ABSL_FLAG(int64_t, min_coverage, 0,
          "Fail unless every op the generator makes was exercised, and every strategy "
          "candidate offered was chosen, in this many cases.");
ABSL_FLAG(std::string, reduce_to, "",
          "Reduce each failing case and write it to this directory as a regression case.");
ABSL_FLAG(std::string, mutations, "",
          "Comma-separated mutations (or 'all') to measure the check's kill rate on.");
ABSL_FLAG(int64_t, max_memory_mb, 4096,
          "The tensors of all cases in flight may hold this many MiB together (0: no limit); "
          "a case past it fails its run with the op and the bytes instead of exhausting the "
          "machine.");
ABSL_FLAG(int64_t, progress_every, 0, "Print a progress line every N cases (0: never).");
ABSL_FLAG(std::string, replay, "",
          "Run this regression case file instead, printing the strategies chosen and the "
          "partitioned program.");
ABSL_FLAG(std::string, write_programs, "",
          "Write the programs of the seeds to this directory (seed_N.mlir) instead of running "
          "them.");

namespace tessel::testing {
namespace {

using Clock = std::chrono::steady_clock;

// Runs `count` seeds from `first` on `threads` threads; `each` is called for every case
// under a lock, in no particular order. Stops early once `each` returns false.
void ForEachCase(uint64_t first, uint64_t count, int threads, FuzzCoverage* coverage,
                 std::optional<Mutation> mutation, const std::function<bool(FuzzCase&)>& each) {
  std::atomic<uint64_t> next{first};
  std::atomic<bool> stop{false};
  std::mutex mu;
  auto work = [&] {
    FuzzCoverage local;
    while (!stop) {
      const uint64_t seed = next++;
      if (seed >= first + count) break;
      FuzzCase c = RunFuzzCase(seed, coverage ? &local : nullptr, mutation);
      std::lock_guard<std::mutex> lock(mu);
      if (!each(c)) stop = true;
    }
    std::lock_guard<std::mutex> lock(mu);
    if (coverage) coverage->Merge(local);
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
  for (std::thread& t : pool) t.join();
}

int RunCampaign() {
  const uint64_t first = absl::GetFlag(FLAGS_first_seed), cases = absl::GetFlag(FLAGS_cases);
  const int64_t every = absl::GetFlag(FLAGS_progress_every);
  const std::string reduce_to = absl::GetFlag(FLAGS_reduce_to);
  if (!reduce_to.empty()) {
    std::error_code error;
    std::filesystem::create_directories(reduce_to, error);
    if (error) {
      std::cerr << "cannot make " << reduce_to << ": " << error.message() << "\n";
      return 2;
    }
  }
  FuzzCoverage coverage;
  std::vector<FuzzCase> failures;
  int64_t done = 0;
  const Clock::time_point start = Clock::now();
  ForEachCase(first, cases, absl::GetFlag(FLAGS_threads), &coverage, std::nullopt,
              [&](FuzzCase& c) {
                ++done;
                if (every > 0 && done % every == 0) {
                  std::cerr << done << " cases, " << failures.size() << " failures, "
                            << std::chrono::duration<double>(Clock::now() - start).count()
                            << " s\n";
                }
                if (!c.run.status.ok()) {
                  std::cout << "FAILED seed " << c.seed << " ("
                            << FormatCaseOptions(c.options) << ") at " << c.run.failed_stage
                            << ":\n"
                            << c.run.status.message() << "\n";
                  failures.push_back(std::move(c));
                }
                return true;
              });
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  for (const FuzzCase& c : failures) {
    if (reduce_to.empty()) continue;
    absl::StatusOr<ReducedCase> reduced = ReduceFailure(c.module, c.options);
    if (!reduced.ok()) {
      std::cout << "seed " << c.seed << ": not reduced: " << reduced.status() << "\n";
      continue;
    }
    const std::string path = absl::StrCat(reduce_to, "/seed_", c.seed, ".mlir");
    absl::Status written = WriteRegressionCase(
        *reduced, path, absl::StrCat("Reduced from differential fuzz seed ", c.seed, "."));
    std::cout << "seed " << c.seed << ": reduced from " << reduced->ops_before << " to "
              << reduced->ops_after << " ops and from " << reduced->elements_before
              << " to " << reduced->elements_after << " input elements in "
              << reduced->attempts << " checks; "
              << (written.ok() ? absl::StrCat("written to ", path) : written.ToString())
              << "\n";
  }
  coverage.Print(std::cout);
  std::cout << done << " cases, " << failures.size() << " failed, " << seconds << " s ("
            << (done ? seconds * 1000 / done : 0) << " ms per case)\n";
  int status = failures.empty() ? 0 : 1;
  if (const int64_t minimum = absl::GetFlag(FLAGS_min_coverage); minimum > 0) {
    std::vector<std::string> below = coverage.Below("op", GeneratedOps(), minimum);
    if (!below.empty()) {
      std::cout << "ops exercised in fewer than " << minimum
                << " cases: " << absl::StrJoin(below, ", ") << "\n";
      status = 1;
    }
    below = coverage.StrategiesBelow(minimum);
    if (!below.empty()) {
      std::cout << "strategy candidates chosen in fewer than " << minimum
                << " cases: " << absl::StrJoin(below, ", ") << "\n";
      status = 1;
    }
  }
  return status;
}

int RunReplay(const std::string& path) {
  absl::StatusOr<RegressionCase> read = ReadRegressionCase(path);
  if (!read.ok()) {
    std::cerr << read.status().message() << "\n";
    return 2;
  }
  absl::StatusOr<std::vector<runtime::Tensor>> inputs = SmallIntegerInputs(read->module, read->options.input_seed);
  if (absl::IsResourceExhausted(inputs.status())) {
    std::cout << "FAILED at inputs:\n" << inputs.status().message() << "\n";
    return 1;
  }
  if (!inputs.ok()) {
    std::cerr << path << ": " << inputs.status().message() << "\n";
    return 2;
  }
  HarnessOptions options = ToHarnessOptions(read->options);
  options.on_strategy_chosen = [](mlir::Operation* op, size_t chosen, size_t applicable) {
    std::string location;
    llvm::raw_string_ostream stream(location);
    op->getLoc().print(stream);
    std::cout << "strategy " << chosen << " of " << applicable << " for "
              << op->getName().getStringRef().str() << " at " << stream.str() << "\n";
  };
  PartitionedRun run = CheckPartitionedRun(read->module, *inputs, options);
  std::cout << "-- partitioned:\n" << run.partitioned << "\n";
  if (run.status.ok()) {
    std::cout << "passed (" << FormatCaseOptions(read->options) << ")\n";
    return 0;
  }
  std::cout << "FAILED at " << run.failed_stage << ":\n" << run.status.message() << "\n";
  return 1;
}

int WritePrograms(const std::string& dir) {
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error) {
    std::cerr << "cannot make " << dir << ": " << error.message() << "\n";
    return 2;
  }
  const uint64_t first = absl::GetFlag(FLAGS_first_seed), cases = absl::GetFlag(FLAGS_cases);
  for (uint64_t seed = first; seed < first + cases; ++seed) {
    const std::string path = absl::StrCat(dir, "/seed_", seed, ".mlir");
    std::ofstream file(path);
    file << "// Differential fuzz seed " << seed << ".\n// options: "
         << FormatCaseOptions(OptionsForSeed(seed)) << "\n"
         << GenerateRandomProgram(seed).module;
    file.close();
    if (!file) {
      std::cerr << "cannot write " << path << "\n";
      return 1;
    }
  }
  std::cout << "wrote " << cases << " programs to " << dir << "\n";
  return 0;
}

int RunMutations() {
  std::vector<Mutation> mutations;
  const std::string list = absl::GetFlag(FLAGS_mutations);
  if (list == "all") {
    mutations = AllMutations();
  } else {
    for (absl::string_view name : absl::StrSplit(list, ',', absl::SkipEmpty())) {
      std::optional<Mutation> m = ParseMutation(std::string(name));
      if (!m) {
        std::cerr << "unknown mutation '" << name << "'; known: drop-collective, "
                  << "shift-offset, skip-mask, wrong-axes, wrong-dim\n";
        return 2;
      }
      mutations.push_back(*m);
    }
  }
  const uint64_t first = absl::GetFlag(FLAGS_first_seed), cases = absl::GetFlag(FLAGS_cases);
  int status = 0;
  std::cout << "mutation          cases  applied  caught  first caught at applied case  "
               "applied per catch\n";
  for (Mutation mutation : mutations) {
    int64_t run = 0, applied = 0, caught = 0, first_catch = 0;
    // Cases finish out of order on several threads: count in seed order afterwards.
    std::vector<std::pair<uint64_t, int>> outcomes;  // 0 not applied, 1 missed, 2 caught
    ForEachCase(first, cases, absl::GetFlag(FLAGS_threads), nullptr, mutation,
                [&](FuzzCase& c) {
                  ++run;
                  int outcome = !c.run.mutated ? 0 : c.run.status.ok() ? 1 : 2;
                  outcomes.push_back({c.seed, outcome});
                  return true;
                });
    std::sort(outcomes.begin(), outcomes.end());
    for (const auto& [seed, outcome] : outcomes) {
      if (outcome == 0) continue;
      ++applied;
      if (outcome == 2 && ++caught == 1) first_catch = applied;
    }
    if (caught == 0) status = 1;
    std::cout << absl::StrCat(MutationName(mutation), std::string(18 - MutationName(mutation).size(), ' '))
              << run << "  " << applied << "  " << caught << "  "
              << (caught ? absl::StrCat(first_catch) : std::string("never")) << "  "
              << (caught ? absl::StrCat(static_cast<double>(applied) / caught) : std::string("-"))
              << "\n";
  }
  return status;
}

}  // namespace
}  // namespace tessel::testing

int main(int argc, char** argv) {
  absl::ParseCommandLine(argc, argv);
  tessel::runtime::SetMemoryLimit(absl::GetFlag(FLAGS_max_memory_mb) << 20);
  if (const std::string replay = absl::GetFlag(FLAGS_replay); !replay.empty()) {
    return tessel::testing::RunReplay(replay);
  }
  if (const std::string dir = absl::GetFlag(FLAGS_write_programs); !dir.empty()) {
    return tessel::testing::WritePrograms(dir);
  }
  if (!absl::GetFlag(FLAGS_mutations).empty()) return tessel::testing::RunMutations();
  return tessel::testing::RunCampaign();
}
