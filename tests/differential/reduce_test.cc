// hlo.reduce with split reduced dimensions: local reduces with the reducer's identity, an
// all_reduce of the matching kind, the op's own init applied once. Every reducer the
// handler knows (add, mul, max, min on i32 and f32; and, or on pred), identity and
// non-identity inits, over every standard mesh and every sharding of a [7, 6] input (7 is
// uneven over 2, 3, 4 and 6), reducing dim 0, dim 1 or both.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "gtest/gtest.h"
#include "runtime/random_inputs.h"
#include "tests/differential/partition_harness.h"

namespace tessel {
namespace {

struct Reducer {
  std::string name;     // hlo op
  std::string type;     // element type
  std::string init;     // the op's init value
};

struct ReduceCase {
  std::string name;
  std::string module;
  runtime::ElementType type;
  bool split_reduced;
};

std::vector<Reducer> Reducers() {
  return {{"add", "i32", "0"},     {"add", "i32", "5"},     {"add", "f32", "0.0"},
          {"mul", "i32", "1"},     {"max", "i32", "-2147483648"}, {"max", "f32", "0xFF800000"},
          {"max", "i32", "3"},     {"min", "f32", "0x7F800000"},  {"min", "i32", "-2"},
          {"and", "i1", "true"},   {"or", "i1", "false"},   {"or", "i1", "true"}};
}

std::vector<ReduceCase> Cases() {
  std::vector<ReduceCase> cases;
  const std::vector<std::vector<int64_t>> dim_sets = {{0}, {1}, {0, 1}};
  for (const testing::TestMesh& mesh : testing::StandardMeshes()) {
    auto shardings = testing::DimAssignments(2, mesh.axes);
    for (size_t s = 0; s < shardings.size(); ++s) {
      for (size_t r = 0; r < Reducers().size(); ++r) {
        const Reducer reducer = Reducers()[r];
        // Every sharding for the sums; a third of them, cycled, for the other reducers.
        if (r != 0 && (s + r) % 3 != 0) continue;
        for (const auto& dims : dim_sets) {
          std::vector<int64_t> kept_shape;
          for (int64_t d : {0, 1}) {
            if (std::find(dims.begin(), dims.end(), d) == dims.end()) {
              kept_shape.push_back(d == 0 ? 7 : 6);
            }
          }
          std::string result_type =
              kept_shape.empty() ? absl::StrCat("tensor<", reducer.type, ">")
                                 : absl::StrCat("tensor<", absl::StrJoin(kept_shape, "x"), "x",
                                                reducer.type, ">");
          std::string module = absl::StrReplaceAll(
              R"(tessel.mesh @mesh = <MESH>
func.func @main(%a: tensor<7x6xT> SHARDING) -> RT {
  %init = hlo.constant dense<INIT> : tensor<T>
  %0 = hlo.reduce(%a) init(%init) dimensions = [DIMS] : (tensor<7x6xT>, tensor<T>) -> RT reducer {
  ^bb0(%x: tensor<T>, %y: tensor<T>):
    %s = hlo.OP %x, %y : tensor<T>
    hlo.return %s : tensor<T>
  }
  return %0 : RT
})",
              {{"MESH", mesh.text},
               {"SHARDING", testing::ShardingArgAttrText(shardings[s])},
               {"RT", result_type},
               {"INIT", reducer.init},
               {"DIMS", absl::StrJoin(dims, ", ")},
               {"OP", reducer.name},
               {"T", reducer.type}});
          // Split over more than one device (an axis of size 1 splits nothing).
          bool split_reduced = false;
          for (int64_t d : dims) split_reduced |= !shardings[s][d].empty() && mesh.devices > 1;
          cases.push_back(
              {absl::StrCat(reducer.name, "_", reducer.type, "_init", r, "_dims",
                            absl::StrJoin(dims, ""), "_", mesh.devices, "dev",
                            mesh.axes.size(), "d_", s),
               module,
               reducer.type == "i32"   ? runtime::ElementType::kS32
               : reducer.type == "f32" ? runtime::ElementType::kF32
                                       : runtime::ElementType::kPred,
               split_reduced});
        }
      }
    }
  }
  return cases;
}

void PrintTo(const ReduceCase& c, std::ostream* os) { *os << c.name; }

class ReduceTest : public ::testing::TestWithParam<ReduceCase> {};

TEST_P(ReduceTest, SplitReductionsCombineAcrossShards) {
  const ReduceCase& c = GetParam();
  testing::HarnessOptions options;
  if (c.split_reduced) {
    // The handler, not a gather: the input is never made whole.
    options.expect_in_program = {"tessel.all_reduce"};
    options.expect_not_in_program = {"tessel.all_gather"};
  }
  testing::ExpectPartitionedRunMatches(c.module, {runtime::RandomTensor(c.type, {7, 6}, 17)},
                                       options);
}

INSTANTIATE_TEST_SUITE_P(Generated, ReduceTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<ReduceCase>& info) {
                           return info.param.name;
                         });

}  // namespace
}  // namespace tessel
