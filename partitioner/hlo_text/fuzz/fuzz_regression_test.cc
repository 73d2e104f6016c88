// Replays the fuzz target's seed corpus and every crash input kept in crashes/ through the
// same entry function, in the ordinary (gcc) test suite: an input that once crashed the
// importer or exporter must now be handled.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "partitioner/hlo_text/fuzz/fuzz_entry.h"

namespace tessel::hlo_text {
namespace {

namespace fs = std::filesystem;

// Every regular file under the runfiles directories `dirs` (relative to the workspace).
std::vector<fs::path> InputsUnder(const std::vector<std::string>& dirs) {
  const char* srcdir = std::getenv("TEST_SRCDIR");
  const char* workspace = std::getenv("TEST_WORKSPACE");
  fs::path root = fs::path(srcdir ? srcdir : ".") / (workspace ? workspace : "tessel");
  std::vector<fs::path> inputs;
  for (const std::string& dir : dirs) {
    if (!fs::exists(root / dir)) continue;
    for (const auto& entry : fs::directory_iterator(root / dir)) {
      const std::string name = entry.path().filename().string();
      if (name == "README.md" || name == "BUILD") continue;
      inputs.push_back(entry.path());
    }
  }
  return inputs;
}

void Replay(const fs::path& path) {
  std::ifstream file(path, std::ios::binary);
  ASSERT_TRUE(file) << path;
  std::stringstream bytes;
  bytes << file.rdbuf();
  const std::string data = bytes.str();
  EXPECT_EQ(FuzzHloText(reinterpret_cast<const uint8_t*>(data.data()), data.size()), 0) << path;
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
