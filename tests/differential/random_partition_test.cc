// The differential fuzz test: seeded random programs (random_program.h) over random meshes
// and shardings are partitioned (with weight-update sharding, collective combining,
// hierarchical all-reduce and random strategy choices on for some seeds, fuzz_campaign.h)
// and run on every device, and must equal the single-device run. Each case is named by its
// seed; a failure prints the program, so `--gtest_filter=*seed_123` (or
// `--random_first_seed=123 --random_cases=1`) reproduces it. The coverage of the run is
// printed at the end; fuzz_partitioner is the driver for long campaigns.
//
//   random_partition_test                       # 300 seeds: the test suite's share
//   random_partition_test --random_cases=5000   # a longer run
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "tests/differential/fuzz_campaign.h"

namespace tessel {
namespace {

class RandomPartitionTest : public ::testing::Test {
 public:
  explicit RandomPartitionTest(uint64_t seed) : seed_(seed) {}
  void TestBody() override {
    testing::FuzzCase c = testing::RunFuzzCase(seed_, &Coverage());
    EXPECT_TRUE(c.run.status.ok()) << "options: " << testing::FormatCaseOptions(c.options)
                                   << "\n"
                                   << c.run.status.message();
  }

  static testing::FuzzCoverage& Coverage() {
    static testing::FuzzCoverage* coverage = new testing::FuzzCoverage();
    return *coverage;
  }

 private:
  uint64_t seed_;
};

// Reads `--name=value` from argv (after gtest removed its own flags).
bool ReadFlag(int argc, char** argv, const std::string& name, uint64_t* value) {
  const std::string prefix = absl::StrCat("--", name, "=");
  for (int i = 1; i < argc; ++i) {
    if (absl::StartsWith(argv[i], prefix)) {
      if (!absl::SimpleAtoi(argv[i] + prefix.size(), value)) {
        std::cerr << "bad value for --" << name << ": " << argv[i] << "\n";
        std::exit(2);
      }
      return true;
    }
  }
  return false;
}

}  // namespace
}  // namespace tessel

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  uint64_t cases = 300, first = 1;
  tessel::ReadFlag(argc, argv, "random_cases", &cases);
  tessel::ReadFlag(argc, argv, "random_first_seed", &first);
  for (uint64_t seed = first; seed < first + cases; ++seed) {
    ::testing::RegisterTest("RandomPartitionTest", absl::StrCat("seed_", seed).c_str(), nullptr,
                            nullptr, __FILE__, __LINE__,
                            [seed]() -> ::testing::Test* {
                              return new tessel::RandomPartitionTest(seed);
                            });
  }
  const int status = RUN_ALL_TESTS();
  tessel::RandomPartitionTest::Coverage().Print(std::cout);
  return status;
}
