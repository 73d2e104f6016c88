// Runs every reduced fuzz case under tests/differential/regressions/ (written by
// fuzz_partitioner --reduce_to) through the differential check with the options its
// `// options:` line names and fresh small-integer inputs: each was a partitioner bug once.
#include <dirent.h>

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include "absl/strings/match.h"
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
  absl::StatusOr<RegressionCase> read =
      ReadRegressionCase(std::string(kDirectory) + "/" + GetParam());
  ASSERT_TRUE(read.ok()) << read.status();
  absl::StatusOr<std::vector<runtime::Tensor>> inputs = SmallIntegerInputs(read->module, read->options.input_seed);
  ASSERT_TRUE(inputs.ok()) << inputs.status();
  ExpectPartitionedRunMatches(read->module, *inputs, ToHarnessOptions(read->options));
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
