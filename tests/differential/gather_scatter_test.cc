// gather and scatter partitioned over every standard mesh and every sharding of their
// operand and indices: split along index batch dims (a scatter-add then sums its partial
// results), along dims the slice takes whole,
// along indexed dims (clamping and masking), along explicit batching dims, unevenly (7 rows
// over 3, 4 or 6 devices), with start indices inside and outside the operand. Integers, so
// results must match exactly.
#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "gtest/gtest.h"
#include "runtime/random_inputs.h"
#include "tests/differential/partition_harness.h"

namespace tessel {
namespace {

using runtime::ElementType;
using runtime::Tensor;

struct Case {
  std::string name;
  std::string module;
  std::vector<Tensor> inputs;
  // Whether only indexed operand dims are split (a gather then masks and sums), and
  // whether a dim the handler uses is split (it, not the fallback, must do the work).
  bool indexedSplit = false;
  bool handled = false;
  bool isGather = false;
  std::string globalTypes;
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

// Start indices for a dimension of 7: in range, negative, and past the end.
Tensor Indices(std::vector<int64_t> shape, std::vector<int32_t> values) {
  return Tensor::FromVector<int32_t>(shape, values);
}

struct Program {
  std::string name;
  std::string body;  // uses %x (operand or scatter input), %i (indices), maybe %u (updates)
  std::string signature;  // MESH-free argument list with XS / IS placeholders for shardings
  int operandRank;
  int indicesRank;
  std::vector<Tensor> inputs;
  // Operand dims that are indexed with a size-1 slice or window.
  std::vector<int> indexedDims;
  // The dims the handler partitions along when they are split: then the op must not run
  // on its global operand and indices (`globalTypes`, as the fallback's clone would).
  std::vector<int> usableOperandDims;
  std::vector<int> usableIndicesDims;
  std::string globalTypes;
};

std::vector<Program> Programs() {
  const std::string add = R"( update {
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = hlo.add %a, %b : tensor<i32>
    hlo.return %s : tensor<i32>
  })";
  const std::string replace = R"( update {
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    hlo.return %b : tensor<i32>
  })";
  Tensor x = runtime::RandomTensor(ElementType::kS32, {7, 5}, 11);
  Tensor rows = Indices({6, 1}, {3, -2, 6, 9, 0, 4});
  return {
      // Rows picked by index: dim 0 indexed (collapsed), dim 1 taken whole.
      {"gather_rows",
       "%r = hlo.gather %x[%i], slice_sizes = [1, 5], offset_dims = [1], "
       "collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1 "
       ": (tensor<7x5xi32>, tensor<6x1xi32>) -> tensor<6x5xi32>",
       "%x: tensor<7x5xi32> XS, %i: tensor<6x1xi32> IS) -> tensor<6x5xi32>",
       2, 2, {x, rows}, {0}, {0, 1}, {0}, "(tensor<7x5xi32>, tensor<6x1xi32>)"},
      // Windows of 1x2 at two indexed dims: dim 0 (size-1 window) may stay split and is
      // masked, dim 1 (a partial window) is kept whole.
      {"gather_windows",
       "%r = hlo.gather %x[%i], slice_sizes = [1, 2], offset_dims = [1, 2], "
       "start_index_map = [0, 1], index_vector_dim = 1 "
       ": (tensor<7x5xi32>, tensor<4x2xi32>) -> tensor<4x1x2xi32>",
       "%x: tensor<7x5xi32> XS, %i: tensor<4x2xi32> IS) -> tensor<4x1x2xi32>",
       2, 2, {x, Indices({4, 2}, {6, 4, -1, 1, 3, 9, 8, -5})}, {0}, {0}, {0}, "(tensor<7x5xi32>, tensor<4x2xi32>)"},
      // Single elements, both dims indexed and collapsed; implicit index vector per row.
      {"gather_points",
       "%r = hlo.gather %x[%i], slice_sizes = [1, 1], collapsed_slice_dims = [0, 1], "
       "start_index_map = [1, 0], index_vector_dim = 0 "
       ": (tensor<7x5xi32>, tensor<2x5xi32>) -> tensor<5xi32>",
       "%x: tensor<7x5xi32> XS, %i: tensor<2x5xi32> IS) -> tensor<5xi32>",
       2, 2, {x, Indices({2, 5}, {0, 4, 7, -1, 2, 6, 3, 1, 10, -4})}, {0, 1}, {0, 1}, {1}, "(tensor<7x5xi32>, tensor<2x5xi32>)"},
      // Explicit batching: operand dim 0 pairs with indices dim 0.
      {"gather_batched",
       "%r = hlo.gather %x[%i], slice_sizes = [1, 1], "
       "collapsed_slice_dims = [1], operand_batching_dims = [0], "
       "start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2 "
       ": (tensor<7x5xi32>, tensor<7x3xi32>) -> tensor<7x3xi32>",
       "%x: tensor<7x5xi32> XS, %i: tensor<7x3xi32> IS) -> tensor<7x3xi32>",
       2, 2,
       {x, Indices({7, 3}, {0, 4, 5, -1, 2, 3, 1, 1, 9, 4, 0, 2, 3, 3, 3, 7, -8, 1, 2, 4, 0})},
       {1}, {0, 1}, {0, 1}, "(tensor<7x5xi32>, tensor<7x3xi32>)"},
      // Rows added into the input: dim 0 indexed (inserted), dim 1 covered whole.
      {"scatter_add_rows",
       "%r = hlo.scatter(%x) indices(%i) updates(%u), update_window_dims = [1], "
       "inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 "
       ": (tensor<7x5xi32>, tensor<6x1xi32>, tensor<6x5xi32>) -> tensor<7x5xi32>" +
           add,
       "%x: tensor<7x5xi32> XS, %i: tensor<6x1xi32> IS, %u: tensor<6x5xi32>) -> "
       "tensor<7x5xi32>",
       2, 2, {x, rows, runtime::RandomTensor(ElementType::kS32, {6, 5}, 12)}, {0}, {0, 1}, {0}, "(tensor<7x5xi32>, tensor<6x1xi32>"},
      // A segment sum: the updates split like the indices along their batch dim (6 rows,
      // uneven over 4), each device adds its own into zeros or the input, and the partial
      // sums are all-reduced (or reduce-scattered onto a split input).
      {"scatter_add_segments",
       "%r = hlo.scatter(%x) indices(%i) updates(%u), update_window_dims = [1], "
       "inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 "
       ": (tensor<7x5xi32>, tensor<6x1xi32>, tensor<6x5xi32>) -> tensor<7x5xi32>" +
           add,
       "%x: tensor<7x5xi32> XS, %i: tensor<6x1xi32> IS, %u: tensor<6x5xi32> IS) -> "
       "tensor<7x5xi32>",
       2, 2, {x, rows, runtime::RandomTensor(ElementType::kS32, {6, 5}, 15)}, {0}, {0, 1}, {0}, "(tensor<7x5xi32>, tensor<6x1xi32>"},
      // Overwriting 1x2 windows (dim 0 a size-1 window dim, dim 1 partial: kept whole), an
      // index repeated: the later update wins on every layout.
      {"scatter_replace_windows",
       "%r = hlo.scatter(%x) indices(%i) updates(%u), update_window_dims = [1, 2], "
       "scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 1 "
       ": (tensor<7x5xi32>, tensor<5x2xi32>, tensor<5x1x2xi32>) -> tensor<7x5xi32>" +
           replace,
       "%x: tensor<7x5xi32> XS, %i: tensor<5x2xi32> IS, %u: tensor<5x1x2xi32>) -> "
       "tensor<7x5xi32>",
       2, 2,
       {x, Indices({5, 2}, {6, 3, 2, 0, 7, 1, 2, 0, -1, 2}),
        runtime::RandomTensor(ElementType::kS32, {5, 1, 2}, 13)},
       {0}, {0}, {}, "(tensor<7x5xi32>, tensor<5x2xi32>"},
      // Explicit batching: input dim 0 pairs with indices dim 0 and updates dim 0.
      {"scatter_batched",
       "%r = hlo.scatter(%x) indices(%i) updates(%u), inserted_window_dims = [1], "
       "input_batching_dims = [0], scatter_indices_batching_dims = [0], "
       "scatter_dims_to_operand_dims = [1], index_vector_dim = 2 "
       ": (tensor<7x5xi32>, tensor<7x2xi32>, tensor<7x2xi32>) -> tensor<7x5xi32>" +
           add,
       "%x: tensor<7x5xi32> XS, %i: tensor<7x2xi32> IS, %u: tensor<7x2xi32>) -> "
       "tensor<7x5xi32>",
       2, 2,
       {x, Indices({7, 2}, {0, 4, 5, -1, 2, 2, 1, 9, 4, 0, 3, 3, 7, 1}),
        runtime::RandomTensor(ElementType::kS32, {7, 2}, 14)},
       {1}, {0, 1}, {0}, "(tensor<7x5xi32>, tensor<7x2xi32>"},
  };
}

std::vector<Case> Cases() {
  std::vector<Case> cases;
  for (const Program& program : Programs()) {
    for (const testing::TestMesh& mesh : testing::StandardMeshes()) {
      auto operandShardings = testing::DimAssignments(program.operandRank, mesh.axes);
      auto indicesShardings = testing::DimAssignments(program.indicesRank, mesh.axes);
      for (size_t o = 0; o < operandShardings.size(); ++o) {
        for (size_t i = 0; i < indicesShardings.size(); ++i) {
          const auto& xs = operandShardings[o];
          const auto& is = indicesShardings[i];
          std::string module = absl::StrReplaceAll(
              R"(tessel.mesh @mesh = <MESH>
func.func @main(SIGNATURE {
  BODY
  return %r : RESULT
})",
              {{"MESH", mesh.text},
               {"SIGNATURE", program.signature},
               {"BODY", program.body},
               {"RESULT", program.signature.substr(program.signature.rfind("-> ") + 3)}});
          module = absl::StrReplaceAll(module, {{"XS", testing::ShardingArgAttrText(xs)},
                                                {"IS", testing::ShardingArgAttrText(is)}});
          Case c;
          c.name = absl::StrCat(program.name, "_", mesh.devices, "dev", mesh.axes.size(), "d_",
                                o, "_", i);
          c.module = module;
          c.inputs = program.inputs;
          // Only indexed dims split, indices whole: nothing else can claim those axes.
          bool onlyIndexed = true;
          for (int dim = 0; dim < program.operandRank; ++dim) {
            bool indexed = std::find(program.indexedDims.begin(), program.indexedDims.end(),
                                     dim) != program.indexedDims.end();
            c.indexedSplit |= indexed && !xs[dim].empty();
            onlyIndexed &= indexed || xs[dim].empty();
          }
          for (const auto& axes : is) onlyIndexed &= axes.empty();
          c.indexedSplit &= onlyIndexed;
          for (int dim : program.usableOperandDims) c.handled |= !xs[dim].empty();
          for (int dim : program.usableIndicesDims) c.handled |= !is[dim].empty();
          c.isGather = program.name.rfind("gather", 0) == 0;
          c.globalTypes = program.globalTypes;
          cases.push_back(c);
        }
      }
    }
  }
  return cases;
}

class GatherScatterTest : public ::testing::TestWithParam<Case> {};

TEST_P(GatherScatterTest, MatchesSingleDevice) {
  const Case& c = GetParam();
  testing::HarnessOptions options;
  // The handler does the work: no op on the global operand and indices as the fallback's
  // clone would run it; a split indexed dim is masked.
  if (c.handled) options.expect_not_in_program.push_back(c.globalTypes);
  if (c.isGather && c.indexedSplit) options.expect_in_program.push_back("hlo.select");
  testing::ExpectPartitionedRunMatches(c.module, c.inputs, options);
}

INSTANTIATE_TEST_SUITE_P(Generated, GatherScatterTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           return info.param.name;
                         });

}  // namespace
}  // namespace tessel
