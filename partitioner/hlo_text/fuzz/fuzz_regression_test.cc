// Replays the fuzz target's seed corpus and every crash input kept in crashes/ through the
// same entry function, in the ordinary (gcc) test suite: an input that once crashed the
// importer or exporter must now be handled.
#include <filesystem>
#include <vector>

#include "gtest/gtest.h"
#include "partitioner/hlo_text/fuzz/fuzz_entry.h"
#include "tests/fuzz/replay.h"

namespace tessel::hlo_text {
namespace {

namespace fs = std::filesystem;
using ::tessel::fuzz::InputsUnder;

void Replay(const fs::path& path) {
  EXPECT_EQ(::tessel::fuzz::ReplayFile(path, FuzzHloText), 0) << path;
}

TEST(HloTextFuzzRegressionTest, SeedCorpusIsHandled) {
  std::vector<fs::path> seeds = InputsUnder(
      {"tests/lit/hlo_text", "tests/corpus", "partitioner/hlo_text/fuzz/seeds"});
  // The seeds are the lit inputs, the JAX corpus and the hand-written edge cases; finding
  // few means the data deps broke.
  ASSERT_GE(seeds.size(), 40u);
  for (const fs::path& seed : seeds) {
    if (seed.extension() == ".hlo") Replay(seed);
  }
}

TEST(HloTextFuzzRegressionTest, EveryCrashInputFoundSoFarIsHandled) {
  for (const fs::path& input : InputsUnder({"partitioner/hlo_text/fuzz/crashes"})) {
    SCOPED_TRACE(input.string());
    Replay(input);
  }
}

}  // namespace
}  // namespace tessel::hlo_text
