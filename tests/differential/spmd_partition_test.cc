// The oracle for --tessel-partition: each program is annotated (function arguments, and for
// some cases the result), propagated, partitioned, and run on every device of its mesh
// with inputs cut by runtime/sharded_tensors.h; the assembled results must equal the
// single-device run, exactly for integers and within rounding for f32 sums. Replicas must
// agree bit for bit (AssembleTensor checks). Cases are generated: programs (elementwise,
// broadcast, transpose, compare/select/clamp, reduce, dot_general in every strategy, and
// ops that take the fallback) x meshes (2, 3, 4, 6 devices; 2x2, 2x3) x shardings,
// including uneven splits of dims 5 and 7. Plus operands split by sub-axes of one axis that
// do not nest.
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "gtest/gtest.h"
#include "runtime/element_type.h"
#include "runtime/random_inputs.h"
#include "tests/differential/partition_harness.h"

namespace tessel {
namespace {

using runtime::ElementType;
using runtime::Tensor;

struct Program {
  std::string name;
  // The function body; ARG0, ARG1, ... stand for the argument annotations and RES for the
  // result's (empty when the case leaves the result to propagation).
  std::string text;
  std::vector<runtime::Shape> arg_shapes;
  ElementType type;
  int result_rank;
};

// T is replaced by the element type.
std::vector<Program> Programs() {
  return {
      {"elementwise",
       R"(func.func @main(%a: tensor<6x5xT> ARG0, %b: tensor<6x5xT> ARG1) -> (tensor<6x5xT> RES) {
  %0 = hlo.add %a, %b : tensor<6x5xT>
  %1 = hlo.mul %0, %a : tensor<6x5xT>
  %2 = hlo.sub %1, %b : tensor<6x5xT>
  %3 = hlo.max %2, %a : tensor<6x5xT>
  return %3 : tensor<6x5xT>
})",
       {{6, 5}, {6, 5}},
       ElementType::kS32, 2},
      {"broadcast_transpose",
       R"(func.func @main(%a: tensor<5x7xT> ARG0, %v: tensor<7xT> ARG1) -> (tensor<7x5xT> RES) {
  %0 = hlo.broadcast_in_dim %v, dims = [1] : (tensor<7xT>) -> tensor<5x7xT>
  %1 = hlo.add %a, %0 : tensor<5x7xT>
  %2 = hlo.transpose %1, permutation = [1, 0] : (tensor<5x7xT>) -> tensor<7x5xT>
  return %2 : tensor<7x5xT>
})",
       {{5, 7}, {7}},
       ElementType::kS32, 2},
      {"compare_select_clamp",
       R"(func.func @main(%a: tensor<7x6xT> ARG0, %b: tensor<7x6xT> ARG1) -> (tensor<7x6xf32> RES) {
  %p = hlo.compare LT, %a, %b : tensor<7x6xT>
  %0 = hlo.select %p, %a, %b : tensor<7x6xi1>, tensor<7x6xT>
  %1 = hlo.clamp %b, %0, %a : tensor<7x6xT>, tensor<7x6xT>, tensor<7x6xT>
  %2 = hlo.convert %1 : (tensor<7x6xT>) -> tensor<7x6xf32>
  return %2 : tensor<7x6xf32>
})",
       {{7, 6}, {7, 6}},
       ElementType::kS32, 2},
      {"reduce",
       R"(func.func @main(%a: tensor<6x5xT> ARG0, %b: tensor<6x5xT> ARG1) -> (tensor<6xT> RES) {
  %zero = hlo.constant dense<0> : tensor<T>
  %0 = hlo.add %a, %b : tensor<6x5xT>
  %1 = hlo.reduce(%0) init(%zero) dimensions = [1] : (tensor<6x5xT>, tensor<T>) -> tensor<6xT> reducer {
  ^bb0(%x: tensor<T>, %y: tensor<T>):
    %s = hlo.add %x, %y : tensor<T>
    hlo.return %s : tensor<T>
  }
  return %1 : tensor<6xT>
})",
       {{6, 5}, {6, 5}},
       ElementType::kS32, 1},
      {"dot_i32",
       R"(func.func @main(%a: tensor<5x6xT> ARG0, %b: tensor<6x7xT> ARG1) -> (tensor<5x7xT> RES) {
  %0 = hlo.dot_general %a, %b, lhs_contract = [1], rhs_contract = [0] : (tensor<5x6xT>, tensor<6x7xT>) -> tensor<5x7xT>
  return %0 : tensor<5x7xT>
})",
       {{5, 6}, {6, 7}},
       ElementType::kS32, 2},
      {"dot_uneven_contracting_f32",
       R"(func.func @main(%a: tensor<4x7xT> ARG0, %b: tensor<7x5xT> ARG1) -> (tensor<4x5xT> RES) {
  %e = hlo.exp %a : tensor<4x7xT>
  %0 = hlo.dot_general %e, %b, lhs_contract = [1], rhs_contract = [0] : (tensor<4x7xT>, tensor<7x5xT>) -> tensor<4x5xT>
  return %0 : tensor<4x5xT>
})",
       {{4, 7}, {7, 5}},
       ElementType::kF32, 2},
      {"batch_dot",
       R"(func.func @main(%a: tensor<6x5x4xT> ARG0, %b: tensor<6x4x3xT> ARG1) -> (tensor<6x5x3xT> RES) {
  %0 = hlo.dot_general %a, %b, lhs_batch = [0], rhs_batch = [0], lhs_contract = [2], rhs_contract = [1] : (tensor<6x5x4xT>, tensor<6x4x3xT>) -> tensor<6x5x3xT>
  return %0 : tensor<6x5x3xT>
})",
       {{6, 5, 4}, {6, 4, 3}},
       ElementType::kS32, 3},
      {"fallback_ops",
       R"(func.func @main(%a: tensor<5x6xT> ARG0, %b: tensor<5x6xT> ARG1) -> (tensor<10x3xT> RES) {
  %r = hlo.reverse %a, dims = [0, 1] : tensor<5x6xT>
  %c = hlo.concatenate %r, %b, dim = 0 : (tensor<5x6xT>, tensor<5x6xT>) -> tensor<10x6xT>
  %i = hlo.iota dim = 1 : tensor<10x6xT>
  %s = hlo.add %c, %i : tensor<10x6xT>
  %k = hlo.slice %s [0:10, 1:6:2] : (tensor<10x6xT>) -> tensor<10x3xT>
  return %k : tensor<10x3xT>
})",
       {{5, 6}, {5, 6}},
       ElementType::kS32, 2},
      {"reshape_fallback",
       R"(func.func @main(%a: tensor<6x5xT> ARG0, %b: tensor<5x6xT> ARG1) -> (tensor<5x6xT> RES) {
  %r = hlo.reshape %a : (tensor<6x5xT>) -> tensor<5x6xT>
  %0 = hlo.add %r, %b : tensor<5x6xT>
  return %0 : tensor<5x6xT>
})",
       {{6, 5}, {5, 6}},
       ElementType::kS32, 2},
  };
}

struct Case {
  std::string name;
  std::string module;
  std::vector<runtime::Shape> arg_shapes;
  ElementType type;
  int devices;
};

std::string TypeName(ElementType type) { return type == ElementType::kS32 ? "i32" : "f32"; }

std::vector<Case> Cases() {
  std::vector<Case> cases;
  for (const Program& program : Programs()) {
    for (const testing::TestMesh& mesh : testing::StandardMeshes()) {
      std::vector<std::vector<std::vector<std::vector<std::string>>>> options;
      for (const auto& shape : program.arg_shapes) {
        options.push_back(testing::DimAssignments(shape.size(), mesh.axes));
      }
      // Every sharding of argument 0, each with a different one of argument 1 (cycled), and
      // every fourth case also pins the result to replicated.
      for (size_t i = 0; i < options[0].size(); ++i) {
        std::string text =
            absl::StrCat("tessel.mesh @mesh = <", mesh.text, ">\n", program.text, "\n");
        std::vector<std::pair<std::string, std::string>> replacements;
        replacements.push_back({"ARG0", testing::ShardingArgAttrText(options[0][i])});
        size_t j = (i * 7 + 3) % options[1].size();
        replacements.push_back({"ARG1", testing::ShardingArgAttrText(options[1][j])});
        replacements.push_back(
            {"RES", i % 4 == 3 ? testing::ShardingArgAttrText(std::vector<std::vector<std::string>>(
                                     program.result_rank))
                               : ""});
        std::string type = TypeName(program.type);
        replacements.push_back({"xT>", absl::StrCat("x", type, ">")});
        replacements.push_back({"<T>", absl::StrCat("<", type, ">")});
        text = absl::StrReplaceAll(text, replacements);
        cases.push_back(Case{absl::StrCat(program.name, "_", mesh.devices, "dev",
                                          mesh.axes.size(), "d_", i),
                             text, program.arg_shapes, program.type, mesh.devices});
      }
    }
  }
  return cases;
}

// gtest prints the case by name rather than as bytes.
void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

class SpmdPartitionTest : public ::testing::TestWithParam<Case> {};

TEST_P(SpmdPartitionTest, PartitionedRunEqualsSingleDevice) {
  const Case& c = GetParam();
  std::vector<Tensor> inputs;
  for (size_t i = 0; i < c.arg_shapes.size(); ++i) {
    inputs.push_back(runtime::RandomTensor(c.type, c.arg_shapes[i], 11 + i));
  }
  testing::ExpectPartitionedRunMatches(c.module, inputs);
}

// Operands split by sub-axes of one axis that no single split of it holds together
// ("x":(1)2 and "x":(3)2 of "x"=6, or (1)3 and (2)2): propagation must not give the result
// both (the verifier rejects that sharding), and the partitioner must not run the op on
// those operand shards as they are (devices form no grid over the pair, so the local
// results are not the tiles of any layout).
TEST(IncompatibleSubAxesTest, OperandsSplitByPartsOfOneAxisThatDoNotNest) {
  const std::vector<std::pair<std::string, std::string>> pairs = {
      {R"("x":(1)2)", R"("x":(3)2)"}, {R"("x":(1)3)", R"("x":(2)3)"}, {R"("x":(3)2)", R"("x":(1)2)"}};
  for (const auto& [a, b] : pairs) {
    SCOPED_TRACE(absl::StrCat(a, " and ", b));
    testing::ExpectPartitionedRunMatches(
        absl::StrReplaceAll(R"(tessel.mesh @mesh = <["x"=6]>
func.func @main(%a: tensor<5x3xi32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {A}]>},
                %b: tensor<5x2xi32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {B}]>},
                %c: tensor<3x4xi32> {tessel.sharding = #tessel.sharding<@mesh, [{A}, {}]>},
                %d: tensor<3x4xi32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {B}]>})
    -> (tensor<3x2xi32>, tensor<3x4xi32>) {
  %0 = hlo.dot_general %a, %b, lhs_contract = [0], rhs_contract = [0] : (tensor<5x3xi32>, tensor<5x2xi32>) -> tensor<3x2xi32>
  %1 = hlo.add %c, %d : tensor<3x4xi32>
  return %0, %1 : tensor<3x2xi32>, tensor<3x4xi32>
})",
                            {{"A", a}, {"B", b}}),
        {runtime::RandomTensor(runtime::ElementType::kS32, {5, 3}, 1),
         runtime::RandomTensor(runtime::ElementType::kS32, {5, 2}, 2),
         runtime::RandomTensor(runtime::ElementType::kS32, {3, 4}, 3),
         runtime::RandomTensor(runtime::ElementType::kS32, {3, 4}, 4)});
  }
}

INSTANTIATE_TEST_SUITE_P(Generated, SpmdPartitionTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           return info.param.name;
                         });

}  // namespace
}  // namespace tessel
