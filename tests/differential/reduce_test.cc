// hlo.reduce with split reduced dimensions: local reduces with the reducer's identity, an
// all_reduce of the matching kind, the op's own init applied once. Every reducer the
// handler knows (add, mul, max, min on i32 and f32; and, or on pred), identity and
// non-identity inits, over every standard mesh and every sharding of a [7, 6] input (7 is
// uneven over 2, 3, 4 and 6), reducing dim 0, dim 1 or both.
//
// Multi-input reduces with a reducer region of several ops (argmax: the larger value, the
// smaller index on ties; and a three-input reducer that also sums a weight over the
// positions holding the maximum): local reduces, an all_gather of the partial results and a
// second reduce. Values are drawn from a few small numbers, so the maximum of a row or
// column sits at several positions, often in different shards, and the tie-break decides
// across shard boundaries; indices are a permutation of the positions, so the smallest one
// is not always the first. Indices come in as an argument sharded like the values, or are
// made in the program by iotas as JAX does.
#include <algorithm>
#include <cstdint>
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
    // The handler, not a gather: the input is never made whole. (Partial results reduced
    // over two axes may be reduce-scattered, all-reduced and all-gathered back.)
    options.expect_in_program = {"tessel.all_reduce"};
    options.expect_not_in_program = {"tessel.all_gather %arg"};
  }
  testing::ExpectPartitionedRunMatches(c.module, {runtime::RandomTensor(c.type, {7, 6}, 17)},
                                       options);
}

INSTANTIATE_TEST_SUITE_P(Generated, ReduceTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<ReduceCase>& info) {
                           return info.param.name;
                         });

// The reducer regions of the multi-input cases. ARGMAX takes (value, index) pairs; WEIGHTED
// also carries a weight, summed over the positions that hold the maximum.
constexpr char kArgmaxReducer[] = R"(reducer {
  ^bb0(%av: tensor<f32>, %ai: tensor<i32>, %bv: tensor<f32>, %bi: tensor<i32>):
    %gt = hlo.compare GT, %av, %bv : tensor<f32>
    %eq = hlo.compare EQ, %av, %bv : tensor<f32>
    %lt = hlo.compare LT, %ai, %bi : tensor<i32>
    %tie = hlo.and %eq, %lt : tensor<i1>
    %pick = hlo.or %gt, %tie : tensor<i1>
    %sv = hlo.select %gt, %av, %bv : tensor<i1>, tensor<f32>
    %si = hlo.select %pick, %ai, %bi : tensor<i1>, tensor<i32>
    hlo.return %sv, %si : tensor<f32>, tensor<i32>
  })";
constexpr char kWeightedReducer[] = R"(reducer {
  ^bb0(%av: tensor<f32>, %ai: tensor<i32>, %aw: tensor<i32>, %bv: tensor<f32>, %bi: tensor<i32>, %bw: tensor<i32>):
    %gt = hlo.compare GT, %av, %bv : tensor<f32>
    %eq = hlo.compare EQ, %av, %bv : tensor<f32>
    %lt = hlo.compare LT, %ai, %bi : tensor<i32>
    %tie = hlo.and %eq, %lt : tensor<i1>
    %pick = hlo.or %gt, %tie : tensor<i1>
    %sv = hlo.select %gt, %av, %bv : tensor<i1>, tensor<f32>
    %si = hlo.select %pick, %ai, %bi : tensor<i1>, tensor<i32>
    %sum = hlo.add %aw, %bw : tensor<i32>
    %larger = hlo.select %gt, %aw, %bw : tensor<i1>, tensor<i32>
    %sw = hlo.select %eq, %sum, %larger : tensor<i1>, tensor<i32>
    hlo.return %sv, %si, %sw : tensor<f32>, tensor<i32>, tensor<i32>
  })";

enum class MultiKind { kArgmaxArgs, kArgmaxIota, kWeighted };

struct MultiCase {
  std::string name;
  std::string module;
  MultiKind kind;
  bool split_reduced;
};

// Values in {-1, 0, 0.5, 1}: many ties of the maximum.
runtime::Tensor TiedValues() {
  std::vector<float> values;
  const float pool[] = {-1.0f, 0.0f, 0.5f, 1.0f};
  for (int64_t i = 0; i < 42; ++i) values.push_back(pool[(i * 7 + i / 6) % 4]);
  return runtime::Tensor::FromVector<float>({7, 6}, values);
}

// A permutation of 0..41 (17 is prime to 42), so index order differs from position order.
runtime::Tensor PermutedIndices() {
  std::vector<int32_t> indices;
  for (int32_t i = 0; i < 42; ++i) indices.push_back(i * 17 % 42);
  return runtime::Tensor::FromVector<int32_t>({7, 6}, indices);
}

std::vector<MultiCase> MultiCases() {
  std::vector<MultiCase> cases;
  const std::vector<std::vector<int64_t>> dim_sets = {{0}, {1}, {0, 1}};
  for (const testing::TestMesh& mesh : testing::StandardMeshes()) {
    auto shardings = testing::DimAssignments(2, mesh.axes);
    for (size_t s = 0; s < shardings.size(); ++s) {
      for (const auto& dims : dim_sets) {
        std::string kept;
        for (int64_t d : {0, 1}) {
          if (std::find(dims.begin(), dims.end(), d) == dims.end()) {
            absl::StrAppend(&kept, d == 0 ? "7x" : "6x");
          }
        }
        bool split_reduced = false;
        for (int64_t d : dims) split_reduced |= !shardings[s][d].empty() && mesh.devices > 1;
        for (MultiKind kind : {MultiKind::kArgmaxArgs, MultiKind::kArgmaxIota,
                               MultiKind::kWeighted}) {
          std::string args, indices, inputs, inits, types, results, returns;
          const std::string sharding = testing::ShardingArgAttrText(shardings[s]);
          switch (kind) {
            case MultiKind::kArgmaxArgs:
              args = "%v: tensor<7x6xf32> S, %i: tensor<7x6xi32> S";
              break;
            case MultiKind::kArgmaxIota:
              args = "%v: tensor<7x6xf32> S";
              indices = R"(
  %rows = hlo.iota dim = 0 : tensor<7x6xi32>
  %cols = hlo.iota dim = 1 : tensor<7x6xi32>
  %six = hlo.constant dense<6> : tensor<7x6xi32>
  %base = hlo.mul %rows, %six : tensor<7x6xi32>
  %i = hlo.add %base, %cols : tensor<7x6xi32>)";
              break;
            case MultiKind::kWeighted:
              args = "%v: tensor<7x6xf32> S, %i: tensor<7x6xi32> S, %w: tensor<7x6xi32> S";
              break;
          }
          const bool weighted = kind == MultiKind::kWeighted;
          inputs = weighted ? "%v, %i, %w" : "%v, %i";
          inits = weighted ? "%ninf, %zero, %zero" : "%ninf, %zero";
          types = weighted ? "tensor<7x6xf32>, tensor<7x6xi32>, tensor<7x6xi32>, tensor<f32>, "
                             "tensor<i32>, tensor<i32>"
                           : "tensor<7x6xf32>, tensor<7x6xi32>, tensor<f32>, tensor<i32>";
          results = absl::StrCat("tensor<KEPTf32>, tensor<KEPTi32>",
                                 weighted ? ", tensor<KEPTi32>" : "");
          returns = weighted ? "%r#0, %r#1, %r#2" : "%r#0, %r#1";
          std::string module = absl::StrReplaceAll(
              R"(tessel.mesh @mesh = <MESH>
func.func @main(ARGS) -> (RESULTS) {
  %ninf = hlo.constant dense<0xFF800000> : tensor<f32>
  %zero = hlo.constant dense<0> : tensor<i32>INDICES
  %r:N = hlo.reduce(INPUTS) init(INITS) dimensions = [DIMS] : (TYPES) -> (RESULTS) REDUCER
  return RETURNS : RESULTS
})",
              {{"MESH", mesh.text},
               {"ARGS", args},
               {"INDICES", indices},
               {"INPUTS", inputs},
               {"INITS", inits},
               {"TYPES", types},
               {"REDUCER", weighted ? kWeightedReducer : kArgmaxReducer},
               {"RETURNS", returns},
               {"RESULTS", results},
               {"N", weighted ? "3" : "2"},
               {"DIMS", absl::StrJoin(dims, ", ")}});
          module = absl::StrReplaceAll(module, {{"KEPT", kept}, {" S", " " + sharding}});
          const char* kind_name = kind == MultiKind::kArgmaxArgs   ? "argmax"
                                  : kind == MultiKind::kArgmaxIota ? "argmax_iota"
                                                                   : "weighted";
          cases.push_back({absl::StrCat(kind_name, "_dims", absl::StrJoin(dims, ""), "_",
                                        mesh.devices, "dev", mesh.axes.size(), "d_", s),
                           module, kind, split_reduced});
        }
      }
    }
  }
  return cases;
}

void PrintTo(const MultiCase& c, std::ostream* os) { *os << c.name; }

class MultiInputReduceTest : public ::testing::TestWithParam<MultiCase> {};

TEST_P(MultiInputReduceTest, PartialResultsCombineAcrossShards) {
  const MultiCase& c = GetParam();
  testing::HarnessOptions options;
  if (c.split_reduced) {
    // The variadic handler: the partials (a new leading dim of 1) are gathered, the inputs
    // are neither gathered nor moved.
    options.expect_in_program = {"tessel.all_gather", "dim = 0 : (tensor<1x"};
    options.expect_not_in_program = {"tessel.all_gather %arg", "tessel.all_to_all"};
  }
  std::vector<runtime::Tensor> inputs = {TiedValues()};
  if (c.kind != MultiKind::kArgmaxIota) inputs.push_back(PermutedIndices());
  if (c.kind == MultiKind::kWeighted) {
    inputs.push_back(runtime::RandomTensor(runtime::ElementType::kS32, {7, 6}, 23));
  }
  testing::ExpectPartitionedRunMatches(c.module, inputs, options);
}

INSTANTIATE_TEST_SUITE_P(Generated, MultiInputReduceTest, ::testing::ValuesIn(MultiCases()),
                         [](const ::testing::TestParamInfo<MultiCase>& info) {
                           return info.param.name;
                         });

}  // namespace
}  // namespace tessel
