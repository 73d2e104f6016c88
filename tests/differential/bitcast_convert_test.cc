// hlo.bitcast_convert partitioned over every standard mesh against the single-device run:
// one width (f32 -> ui32), a wide element split into parts (f32 -> ui8 along a new minor
// dimension) and parts joined (bf16 pairs -> f32), with the operand and the result sharded
// in every way the meshes allow, the minor parts dimension included (it must be gathered or
// cut, never computed from a fraction of an element).
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "runtime/random_inputs.h"
#include "tests/differential/partition_harness.h"

namespace tessel {
namespace {

struct BitcastCase {
  std::string name;
  std::string module;
  runtime::ElementType operand_type;
  runtime::Shape operand_shape;
};

struct Conversion {
  std::string name;
  std::string operand;  // MLIR tensor type
  std::string result;
  int operand_rank;
  int result_rank;
  runtime::ElementType operand_type;
  runtime::Shape operand_shape;
};

std::vector<BitcastCase> Cases() {
  const std::vector<Conversion> conversions = {
      {"same", "tensor<7x6xf32>", "tensor<7x6xui32>", 2, 2, runtime::ElementType::kF32, {7, 6}},
      {"split", "tensor<7x6xf32>", "tensor<7x6x4xui8>", 2, 3, runtime::ElementType::kF32, {7, 6}},
      {"join", "tensor<7x6x2xbf16>", "tensor<7x6xf32>", 3, 2, runtime::ElementType::kBF16,
       {7, 6, 2}},
  };
  std::vector<BitcastCase> cases;
  for (const Conversion& c : conversions) {
    for (const testing::TestMesh& mesh : testing::StandardMeshes()) {
      auto operandShardings = testing::DimAssignments(c.operand_rank, mesh.axes);
      auto resultShardings = testing::DimAssignments(c.result_rank, mesh.axes);
      // Every operand sharding, each with a result sharding picked another way.
      for (size_t i = 0; i < operandShardings.size(); ++i) {
        const size_t j = (i * 7 + 3) % resultShardings.size();
        cases.push_back(
            {absl::StrCat(c.name, "_", mesh.devices, "dev", mesh.axes.size(), "d_", i),
             absl::StrCat("tessel.mesh @mesh = <", mesh.text, ">\nfunc.func @main(%a: ",
                          c.operand, " ", testing::ShardingArgAttrText(operandShardings[i]),
                          ") -> (", c.result, " ",
                          testing::ShardingArgAttrText(resultShardings[j]),
                          ") {\n  %0 = hlo.bitcast_convert %a : (", c.operand, ") -> ",
                          c.result, "\n  return %0 : ", c.result, "\n}\n"),
             c.operand_type, c.operand_shape});
      }
    }
  }
  return cases;
}

void PrintTo(const BitcastCase& c, std::ostream* os) { *os << c.name; }

class BitcastConvertTest : public ::testing::TestWithParam<BitcastCase> {};

TEST_P(BitcastConvertTest, MatchesSingleDevice) {
  const BitcastCase& c = GetParam();
  testing::ExpectPartitionedRunMatches(
      c.module, {runtime::RandomTensor(c.operand_type, c.operand_shape, 17)});
}

INSTANTIATE_TEST_SUITE_P(Generated, BitcastConvertTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<BitcastCase>& info) {
                           return info.param.name;
                         });

}  // namespace
}  // namespace tessel
