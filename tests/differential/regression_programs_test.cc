// Runs every reduced fuzz case under tests/differential/regressions/ (written by
// fuzz_partitioner --reduce_to) through the differential check with the options its
// `// options:` line names and fresh small-integer inputs: each was a partitioner bug once.
#include <dirent.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "gtest/gtest.h"
#include "tests/differential/fuzz_campaign.h"

namespace tessel::testing {
namespace {

const char kDirectory[] = "tests/differential/regressions";

std::vector<std::string> CaseFiles() {
  std::vector<std::string> files;
  if (DIR* dir = opendir(kDirectory)) {
    while (dirent* entry = readdir(dir)) {
      if (absl::EndsWith(entry->d_name, ".mlir")) files.push_back(entry->d_name);
    }
    closedir(dir);
  }
  std::sort(files.begin(), files.end());
  return files;
}

class RegressionProgramsTest : public ::testing::TestWithParam<std::string> {};

TEST_P(RegressionProgramsTest, PartitionedRunMatches) {
  std::ifstream in(std::string(kDirectory) + "/" + GetParam());
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string text = buffer.str();
  CaseOptions options;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    if (absl::ConsumePrefix(&line, "// options:")) {
      absl::StatusOr<CaseOptions> parsed = ParseCaseOptions(std::string(line));
      ASSERT_TRUE(parsed.ok()) << parsed.status();
      options = *parsed;
    }
  }
  absl::StatusOr<std::vector<runtime::Tensor>> inputs = SmallIntegerInputs(text);
  ASSERT_TRUE(inputs.ok()) << inputs.status();
  ExpectPartitionedRunMatches(text, *inputs, ToHarnessOptions(options));
}

INSTANTIATE_TEST_SUITE_P(Regressions, RegressionProgramsTest, ::testing::ValuesIn(CaseFiles()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param.substr(0, info.param.size() - 5);
                           for (char& c : name) c = isalnum(c) ? c : '_';
                           return name;
                         });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(RegressionProgramsTest);

}  // namespace
}  // namespace tessel::testing
