// Replays every fuzz target's committed seeds and every input that once made it fail, in the
// ordinary test suite: a fixed finding stays fixed, and a change that breaks a target's
// promise on its seeds fails here before anyone fuzzes. A finding aborts the test process
// with the target's message (fuzz_targets.h).
#include <filesystem>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/fuzz/fuzz_targets.h"
#include "tests/fuzz/replay.h"

namespace tessel::fuzz {
namespace {

struct Target {
  const char* name;
  int (*entry)(const uint8_t*, size_t);
  std::vector<std::string> seed_dirs;  // besides seeds/<name> and crashes/<name>
  size_t min_inputs;                   // fewer means the data deps broke
};

void ReplayAll(const Target& target) {
  std::vector<std::string> dirs = target.seed_dirs;
  dirs.push_back(std::string("tests/fuzz/seeds/") + target.name);
  dirs.push_back(std::string("tests/fuzz/crashes/") + target.name);
  const std::vector<std::filesystem::path> inputs = InputsUnder(dirs);
  ASSERT_GE(inputs.size(), target.min_inputs);
  for (const std::filesystem::path& input : inputs) {
    SCOPED_TRACE(input.string());
    EXPECT_EQ(ReplayFile(input, target.entry), 0);
  }
}

TEST(FuzzRegressionTest, ShardingText) {
  ReplayAll({"sharding_text", FuzzShardingText, {}, 20});
}

TEST(FuzzRegressionTest, Npy) { ReplayAll({"npy", FuzzNpy, {"runtime/testdata"}, 10}); }

TEST(FuzzRegressionTest, HardwareSpec) {
  ReplayAll({"hardware_spec", FuzzHardwareSpec, {}, 6});
}

// Past findings replay as the fuzzer ran them; the seeds must also get through to the
// comparison, since a pipeline target that skipped or rejected every program would replay
// them all without finding anything. CheckPipeline aborts on a finding as FuzzPipeline does.
TEST(FuzzRegressionTest, Pipeline) {
  for (const std::filesystem::path& finding : InputsUnder({"tests/fuzz/crashes/pipeline"})) {
    EXPECT_EQ(ReplayFile(finding, FuzzPipeline), 0) << finding;
  }
  const std::vector<std::filesystem::path> seeds =
      InputsUnder({"tests/fuzz/seeds/pipeline", "tests/differential/regressions"});
  ASSERT_GE(seeds.size(), 20u);
  for (const std::filesystem::path& seed : seeds) {
    EXPECT_EQ(CheckPipeline(ReadInput(seed)), PipelineVerdict::kPassed) << seed;
  }
}

}  // namespace
}  // namespace tessel::fuzz
