// A hand-written SPMD program equals the single-device program it partitions: the
// contracting dimension of a dot is split over N partitions, each partition cuts its shard
// of both operands at an offset read from a table indexed by partition_id, multiplies its
// shards, and an all_reduce sums the partial products. A second program splits the rows
// instead and gathers them. Run on N local partitions (uneven counts included) and compared
// with the plain interpreter on the whole program.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "gtest/gtest.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "partitioner/ir/parse_module.h"
#include "runtime/interpreter.h"
#include "runtime/random_inputs.h"
#include "runtime/spmd_runner.h"

namespace tessel {
namespace {

using runtime::ElementType;
using runtime::Tensor;

// lhs [8, 12] x rhs [12, 6] -> [8, 6]; 12 and 8 divide by 2, 3, 4 and 6... 8 does not divide
// by 3 or 6, so the row split uses rows = 24 below.
constexpr char kSingleDevice[] = R"(
func.func @main(%a: tensor<RxKxT>, %b: tensor<KxCxT>) -> tensor<RxCxT> {
  %0 = hlo.dot_general %a, %b, lhs_contract = [1], rhs_contract = [0]
      : (tensor<RxKxT>, tensor<KxCxT>) -> tensor<RxCxT>
  return %0 : tensor<RxCxT>
}
)";

// Contracting dimension split: partition p takes columns [p*S, (p+1)*S) of %a and the same
// rows of %b, with S = K / N.
constexpr char kContractingSplit[] = R"(
tessel.mesh @mesh = <["x"=N]>
func.func @main(%a: tensor<RxKxT>, %b: tensor<KxCxT>) -> tensor<RxCxT> {
  %id = tessel.partition_id : tensor<ui32>
  %id32 = hlo.convert %id : (tensor<ui32>) -> tensor<i32>
  %table = hlo.constant dense<[OFFSETS]> : tensor<Nxi32>
  %entry = hlo.dynamic_slice %table, %id32, sizes = [1] : (tensor<Nxi32>, tensor<i32>) -> tensor<1xi32>
  %offset = hlo.reshape %entry : (tensor<1xi32>) -> tensor<i32>
  %zero = hlo.constant dense<0> : tensor<i32>
  %la = hlo.dynamic_slice %a, %zero, %offset, sizes = [R, S] : (tensor<RxKxT>, tensor<i32>, tensor<i32>) -> tensor<RxSxT>
  %lb = hlo.dynamic_slice %b, %offset, %zero, sizes = [S, C] : (tensor<KxCxT>, tensor<i32>, tensor<i32>) -> tensor<SxCxT>
  %partial = hlo.dot_general %la, %lb, lhs_contract = [1], rhs_contract = [0]
      : (tensor<RxSxT>, tensor<SxCxT>) -> tensor<RxCxT>
  %sum = tessel.all_reduce %partial over @mesh ["x"] kind = sum : tensor<RxCxT>
  return %sum : tensor<RxCxT>
}
)";

// Row split: partition p computes rows [p*S, (p+1)*S) and an all_gather assembles them.
constexpr char kRowSplit[] = R"(
tessel.mesh @mesh = <["x"=N]>
func.func @main(%a: tensor<RxKxT>, %b: tensor<KxCxT>) -> tensor<RxCxT> {
  %id = tessel.partition_id : tensor<ui32>
  %id32 = hlo.convert %id : (tensor<ui32>) -> tensor<i32>
  %table = hlo.constant dense<[OFFSETS]> : tensor<Nxi32>
  %entry = hlo.dynamic_slice %table, %id32, sizes = [1] : (tensor<Nxi32>, tensor<i32>) -> tensor<1xi32>
  %offset = hlo.reshape %entry : (tensor<1xi32>) -> tensor<i32>
  %zero = hlo.constant dense<0> : tensor<i32>
  %la = hlo.dynamic_slice %a, %offset, %zero, sizes = [S, K] : (tensor<RxKxT>, tensor<i32>, tensor<i32>) -> tensor<SxKxT>
  %local = hlo.dot_general %la, %b, lhs_contract = [1], rhs_contract = [0]
      : (tensor<SxKxT>, tensor<KxCxT>) -> tensor<SxCxT>
  %all = tessel.all_gather %local over @mesh ["x"] dim = 0 : (tensor<SxCxT>) -> tensor<RxCxT>
  return %all : tensor<RxCxT>
}
)";

struct Case {
  int partitions;
  ElementType type;
};

std::string Instantiate(const char* text, int rows, int k, int cols, int partitions,
                        int shard, const std::string& type) {
  std::vector<int> offsets;
  for (int p = 0; p < partitions; ++p) offsets.push_back(p * shard);
  return absl::StrReplaceAll(text, {{"OFFSETS", absl::StrJoin(offsets, ", ")},
                                    {"RxKxT", absl::StrCat(rows, "x", k, "x", type)},
                                    {"KxCxT", absl::StrCat(k, "x", cols, "x", type)},
                                    {"RxCxT", absl::StrCat(rows, "x", cols, "x", type)},
                                    {"RxSxT", absl::StrCat(rows, "x", shard, "x", type)},
                                    {"SxCxT", absl::StrCat(shard, "x", cols, "x", type)},
                                    {"SxKxT", absl::StrCat(shard, "x", k, "x", type)},
                                    {"Nxi32", absl::StrCat(partitions, "xi32")},
                                    {"\"x\"=N", absl::StrCat("\"x\"=", partitions)},
                                    {"[R, S]", absl::StrCat("[", rows, ", ", shard, "]")},
                                    {"[S, C]", absl::StrCat("[", shard, ", ", cols, "]")},
                                    {"[S, K]", absl::StrCat("[", shard, ", ", k, "]")}});
}

class SpmdDotTest : public ::testing::TestWithParam<Case> {
 protected:
  // Runs `single` on one device and `spmd` on N partitions with the same (replicated)
  // inputs, and checks every partition's result against the single-device one.
  void RunAndCompare(const std::string& single, const std::string& spmd,
                     const std::vector<Tensor>& inputs) {
    mlir::MLIRContext context;
    auto reference_module = ParseModule(single, "single.mlir", context);
    ASSERT_TRUE(reference_module.ok()) << reference_module.status();
    runtime::Interpreter interpreter;
    auto expected = interpreter.RunFunction(
        (*reference_module)->lookupSymbol<mlir::func::FuncOp>("main"), inputs);
    ASSERT_TRUE(expected.ok()) << expected.status();

    auto spmd_module = ParseModule(spmd, "spmd.mlir", context);
    ASSERT_TRUE(spmd_module.ok()) << spmd_module.status();
    int n = GetParam().partitions;
    std::vector<std::vector<Tensor>> per_partition(n, inputs);
    auto outputs = runtime::RunSpmd(
        (*spmd_module)->lookupSymbol<mlir::func::FuncOp>("main"), per_partition, n);
    ASSERT_TRUE(outputs.ok()) << outputs.status();
    for (int p = 0; p < n; ++p) {
      const Tensor& got = (*outputs)[p][0];
      const Tensor& want = (*expected)[0];
      if (GetParam().type == ElementType::kS32) {
        // Integer sums are exact whatever the order.
        EXPECT_TRUE(got.BitwiseEquals(want)) << "partition " << p << ": " << got.ToString()
                                             << " vs " << want.ToString();
      } else {
        // Partial sums add up in another order: allow rounding differences.
        ASSERT_EQ(got.shape(), want.shape());
        auto g = got.data<float>(), w = want.data<float>();
        for (size_t i = 0; i < g.size(); ++i) {
          EXPECT_NEAR(g[i], w[i], 1e-5f * (1.0f + std::abs(w[i]))) << "partition " << p;
        }
      }
    }
  }
};

std::string TypeName(ElementType type) { return type == ElementType::kS32 ? "i32" : "f32"; }

TEST_P(SpmdDotTest, ContractingSplitWithAllReduceEqualsSingleDevice) {
  const int rows = 8, k = 12, cols = 6, n = GetParam().partitions;
  std::string type = TypeName(GetParam().type);
  std::vector<Tensor> inputs = {runtime::RandomTensor(GetParam().type, {rows, k}, 1),
                                runtime::RandomTensor(GetParam().type, {k, cols}, 2)};
  RunAndCompare(Instantiate(kSingleDevice, rows, k, cols, n, k / n, type),
                Instantiate(kContractingSplit, rows, k, cols, n, k / n, type), inputs);
}

TEST_P(SpmdDotTest, RowSplitWithAllGatherEqualsSingleDevice) {
  const int rows = 24, k = 5, cols = 7, n = GetParam().partitions;
  std::string type = TypeName(GetParam().type);
  std::vector<Tensor> inputs = {runtime::RandomTensor(GetParam().type, {rows, k}, 3),
                                runtime::RandomTensor(GetParam().type, {k, cols}, 4)};
  RunAndCompare(Instantiate(kSingleDevice, rows, k, cols, n, rows / n, type),
                Instantiate(kRowSplit, rows, k, cols, n, rows / n, type), inputs);
}

INSTANTIATE_TEST_SUITE_P(
    PartitionsAndTypes, SpmdDotTest,
    ::testing::Values(Case{2, ElementType::kS32}, Case{3, ElementType::kS32},
                      Case{4, ElementType::kS32}, Case{6, ElementType::kS32},
                      Case{4, ElementType::kF32}, Case{3, ElementType::kF32}),
    [](const ::testing::TestParamInfo<Case>& info) {
      return absl::StrCat(info.param.partitions, "_", TypeName(info.param.type));
    });

}  // namespace
}  // namespace tessel
