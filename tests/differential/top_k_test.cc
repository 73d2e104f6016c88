// hlo.top_k partitioned over every standard mesh against the single-device run: rows and the
// ranked (minor) dimension split in every way, evenly and not (29 = 4*7 + 1), k from 1 to
// the whole row, largest and smallest, f32 and i32 with many equal values (ties must keep
// the lower index first). Where the minor dimension is split and k is small the candidates
// path runs (local top-k, all_gather, sort): the test asserts it does, and that it sends no
// all_gather of the operand.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "runtime/random_inputs.h"
#include "tests/differential/partition_harness.h"

namespace tessel {
namespace {

struct TopKCase {
  std::string name;
  std::string module;
  runtime::ElementType type;
  bool candidates;  // the candidates path must run
};

std::vector<TopKCase> Cases() {
  std::vector<TopKCase> cases;
  struct Variant {
    std::string type;
    int64_t k;
    bool smallest;
  };
  const std::vector<Variant> variants = {
      {"f32", 1, false}, {"f32", 3, false}, {"i32", 2, false},
      {"i32", 4, true},  {"f32", 29, false}, {"f32", 2, true}};
  for (const Variant& v : variants) {
    for (const testing::TestMesh& mesh : testing::StandardMeshes()) {
      auto shardings = testing::DimAssignments(2, mesh.axes);
      for (size_t i = 0; i < shardings.size(); ++i) {
        const std::string in = absl::StrCat("tensor<5x29x", v.type, ">");
        const std::string values = absl::StrCat("tensor<5x", v.k, "x", v.type, ">");
        const std::string indices = absl::StrCat("tensor<5x", v.k, "xi32>");
        int64_t split = 1;
        for (const std::string& axis : shardings[i][1]) {
          for (size_t a = 0; a < mesh.axes.size(); ++a) {
            if (mesh.axes[a] == axis) split *= mesh.sizes[a];
          }
        }
        const int64_t shard = (29 + split - 1) / split;
        const int64_t bytes = 4;
        const bool candidates = split > 1 && std::min(v.k, shard) * (bytes + 4) < shard * bytes;
        cases.push_back(
            {absl::StrCat(v.type, "_k", v.k, v.smallest ? "_smallest_" : "_", mesh.devices, "dev",
                          mesh.axes.size(), "d_", i),
             absl::StrCat("tessel.mesh @mesh = <", mesh.text, ">\nfunc.func @main(%a: ", in, " ",
                          testing::ShardingArgAttrText(shardings[i]), ") -> (", values, ", ",
                          indices, ") {\n  %v, %i = hlo.top_k %a, k = ", v.k,
                          v.smallest ? " smallest" : "", " : ", in, "\n  return %v, %i : ",
                          values, ", ", indices, "\n}\n"),
             v.type == "f32" ? runtime::ElementType::kF32 : runtime::ElementType::kS32,
             candidates});
      }
    }
  }
  return cases;
}

void PrintTo(const TopKCase& c, std::ostream* os) { *os << c.name; }

class TopKTest : public ::testing::TestWithParam<TopKCase> {};

TEST_P(TopKTest, MatchesSingleDevice) {
  const TopKCase& c = GetParam();
  runtime::Tensor input = runtime::RandomTensor(c.type, {5, 29}, 23);
  if (c.type == runtime::ElementType::kS32) {
    // Few distinct values, so that most rows have ties across shards.
    for (int32_t& x : input.data<int32_t>()) x %= 4;
  }
  testing::HarnessOptions options;
  if (c.candidates) {
    options.expect_count_in_program = {{"hlo.sort", 1}};
    options.expect_not_in_program = {"tessel.all_gather %arg0"};
  }
  testing::ExpectPartitionedRunMatches(c.module, {input}, options);
}

INSTANTIATE_TEST_SUITE_P(Generated, TopKTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<TopKCase>& info) {
                           return info.param.name;
                         });

}  // namespace
}  // namespace tessel
