// Replaying committed fuzz inputs (see replay.h).
#include "tests/fuzz/replay.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "gtest/gtest.h"

namespace tessel::fuzz {

namespace fs = std::filesystem;

std::vector<fs::path> InputsUnder(const std::vector<std::string>& dirs) {
  const char* srcdir = std::getenv("TEST_SRCDIR");
  const char* workspace = std::getenv("TEST_WORKSPACE");
  const fs::path root = fs::path(srcdir ? srcdir : ".") / (workspace ? workspace : "tessel");
  std::vector<fs::path> inputs;
  for (const std::string& dir : dirs) {
    if (!fs::is_directory(root / dir)) continue;
    for (const auto& entry : fs::directory_iterator(root / dir)) {
      const std::string name = entry.path().filename().string();
      if (name == "README.md" || name == "BUILD" || !entry.is_regular_file()) continue;
      inputs.push_back(entry.path());
    }
  }
  std::sort(inputs.begin(), inputs.end());
  return inputs;
}

std::string ReadInput(const fs::path& path) {
  std::ifstream file(path, std::ios::binary);
  EXPECT_TRUE(file) << "cannot read " << path;
  std::stringstream bytes;
  bytes << file.rdbuf();
  return bytes.str();
}

int ReplayFile(const fs::path& path, int (*entry)(const uint8_t*, size_t)) {
  const std::string data = ReadInput(path);
  return entry(reinterpret_cast<const uint8_t*>(data.data()), data.size());
}

}  // namespace tessel::fuzz
