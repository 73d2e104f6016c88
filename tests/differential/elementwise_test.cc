// Every elementwise op of the hlo dialect, one by one, partitioned over every standard mesh
// (1 to 8 devices, 2-D included) with its operands split in different ways (7 rows are
// uneven over 2, 3, 4, 6 and 8), against the single-device run. Floats see their NaNs and
// infinities too (log of a negative, division by zero), which must match as well.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "gtest/gtest.h"
#include "runtime/random_inputs.h"
#include "tests/differential/partition_harness.h"

namespace tessel {
namespace {

struct ElementwiseCase {
  std::string name;
  std::string module;
  runtime::ElementType type;
  int operands;
};

struct Op {
  std::string name;
  std::string type;         // operand element type
  int operands;
  std::string result_type;  // "" when it is the operand type
  std::string attrs = "";   // attribute dictionary, " {...}"
};

std::vector<Op> Ops() {
  std::vector<Op> ops;
  for (const char* name : {"abs", "neg", "exp", "log", "log1p", "expm1", "tanh", "logistic",
                           "sqrt", "rsqrt", "sin", "cos", "floor", "ceil", "round", "sign",
                           "round_nearest_even", "erf", "cbrt", "tan"}) {
    ops.push_back({name, "f32", 1, ""});
  }
  ops.push_back({"reduce_precision", "f32", 1, "", " {exponent_bits = 5 : i32, mantissa_bits = 10 : i32}"});
  ops.push_back({"popcnt", "i32", 1, ""});
  ops.push_back({"count_leading_zeros", "i32", 1, ""});
  ops.push_back({"is_finite", "f32", 1, "i1"});
  ops.push_back({"not", "i32", 1, ""});
  ops.push_back({"abs", "i32", 1, ""});
  for (const char* name : {"add", "sub", "mul", "div", "rem", "max", "min", "pow", "atan2"}) {
    ops.push_back({name, "f32", 2, ""});
  }
  for (const char* name : {"add", "sub", "mul", "div", "rem", "max", "min", "and", "or", "xor",
                           "shift_left", "shift_right_arithmetic", "shift_right_logical"}) {
    ops.push_back({name, "i32", 2, ""});
  }
  return ops;
}

std::vector<ElementwiseCase> Cases() {
  std::vector<ElementwiseCase> cases;
  for (const Op& op : Ops()) {
    for (const testing::TestMesh& mesh : testing::StandardMeshes()) {
      auto shardings = testing::DimAssignments(2, mesh.axes);
      // Every third sharding of the first operand, the second one split another way.
      for (size_t i = 0; i < shardings.size(); i += 3) {
        const size_t j = (i * 5 + 1) % shardings.size();
        const std::string t = absl::StrCat("tensor<7x6x", op.type, ">");
        const std::string r = absl::StrCat(
            "tensor<7x6x", op.result_type.empty() ? op.type : op.result_type, ">");
        std::string params = absl::StrCat("%a: ", t, " ", testing::ShardingArgAttrText(shardings[i]));
        std::string body = absl::StrCat("%0 = hlo.", op.name, " %a", op.attrs, " : ", t);
        if (op.operands == 2) {
          absl::StrAppend(&params, ", %b: ", t, " ", testing::ShardingArgAttrText(shardings[j]));
          body = absl::StrCat("%0 = hlo.", op.name, " %a, %b : ", t);
        }
        cases.push_back(
            {absl::StrCat(op.name, "_", op.type, "_", mesh.devices, "dev", mesh.axes.size(), "d_",
                          i),
             absl::StrCat("tessel.mesh @mesh = <", mesh.text, ">\nfunc.func @main(", params,
                          ") -> ", r, " {\n  ", body, "\n  return %0 : ", r, "\n}\n"),
             op.type == "f32" ? runtime::ElementType::kF32 : runtime::ElementType::kS32,
             op.operands});
      }
    }
  }
  return cases;
}

void PrintTo(const ElementwiseCase& c, std::ostream* os) { *os << c.name; }

class ElementwiseTest : public ::testing::TestWithParam<ElementwiseCase> {};

TEST_P(ElementwiseTest, MatchesSingleDevice) {
  const ElementwiseCase& c = GetParam();
  std::vector<runtime::Tensor> inputs;
  for (int i = 0; i < c.operands; ++i) {
    inputs.push_back(runtime::RandomTensor(c.type, {7, 6}, 40 + i));
  }
  testing::HarnessOptions options;
  // Elementwise ops have a partitioned form for every layout: never the fallback.
  options.replication_is_error = true;
  testing::ExpectPartitionedRunMatches(c.module, inputs, options);
}

INSTANTIATE_TEST_SUITE_P(Generated, ElementwiseTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<ElementwiseCase>& info) {
                           return info.param.name;
                         });

}  // namespace
}  // namespace tessel
