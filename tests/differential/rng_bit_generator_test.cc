// hlo.rng_bit_generator partitioned over every standard mesh against the single-device run:
// both dimensions of the bits split in every way, evenly and not (7 x 5), for Threefry and
// Philox and 8, 32 and 64-bit elements. Every shard makes its own box of the bits: the test
// asserts the op stays one windowed op and that no collective moves the bits.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "tests/differential/partition_harness.h"

namespace tessel {
namespace {

struct RngCase {
  std::string name;
  std::string module;
  bool split;
};

std::vector<RngCase> Cases() {
  std::vector<RngCase> cases;
  const std::vector<std::pair<std::string, std::string>> variants = {
      {"three_fry", "ui32"}, {"philox", "ui8"}, {"philox", "ui64"}, {"three_fry", "ui16"}};
  for (const auto& [algorithm, element] : variants) {
    for (const testing::TestMesh& mesh : testing::StandardMeshes()) {
      auto shardings = testing::DimAssignments(2, mesh.axes);
      for (size_t i = 0; i < shardings.size(); ++i) {
        const std::string bits = absl::StrCat("tensor<7x5x", element, ">");
        bool split = false;
        for (const auto& axes : shardings[i]) split = split || !axes.empty();
        cases.push_back(
            {absl::StrCat(algorithm, "_", element, "_", mesh.devices, "dev", mesh.axes.size(),
                          "d_", i),
             absl::StrCat("tessel.mesh @mesh = <", mesh.text, ">\n",
                          "func.func @main(%s: tensor<2xui64>) -> (tensor<2xui64>, ", bits,
                          " ", testing::ShardingArgAttrText(shardings[i]), ") {\n",
                          "  %n, %b = hlo.rng_bit_generator %s, algorithm = ", algorithm, " : ",
                          "tensor<2xui64> -> ", bits, "\n  return %n, %b : tensor<2xui64>, ",
                          bits, "\n}\n"),
             split});
      }
    }
  }
  return cases;
}

void PrintTo(const RngCase& c, std::ostream* os) { *os << c.name; }

class RngBitGeneratorTest : public ::testing::TestWithParam<RngCase> {};

TEST_P(RngBitGeneratorTest, MatchesSingleDevice) {
  const RngCase& c = GetParam();
  testing::HarnessOptions options;
  options.expect_count_in_program = {{"hlo.rng_bit_generator", 1}};
  if (c.split) options.expect_not_in_program = {"tessel.all_", "tessel.collective_permute"};
  // A key and a counter near the top of its low word's range.
  runtime::Tensor state =
      runtime::Tensor::FromVector<uint64_t>({2}, {0x0123456789abcdefu, 0xfffffffffffffff0u});
  testing::ExpectPartitionedRunMatches(c.module, {state}, options);
}

INSTANTIATE_TEST_SUITE_P(Generated, RngBitGeneratorTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<RngCase>& info) {
                           return info.param.name;
                         });

}  // namespace
}  // namespace tessel
