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
#include "tests/differential/spmd_dot_programs.h"

namespace tessel {
namespace {

using runtime::ElementType;
using runtime::Tensor;

struct Case {
  int partitions;
  ElementType type;
};

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
    auto outputs = runtime::RunSpmd((*spmd_module)->lookupSymbol<mlir::func::FuncOp>("main"),
                                    per_partition, n);
    ASSERT_TRUE(outputs.ok()) << outputs.status();
    for (int p = 0; p < n; ++p) {
      const Tensor& got = (*outputs)[p][0];
      const Tensor& want = (*expected)[0];
      if (GetParam().type == ElementType::kS32) {
        // Integer sums are exact whatever the order.
        EXPECT_TRUE(got.BitwiseEquals(want))
            << "partition " << p << ": " << got.ToString() << " vs " << want.ToString();
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
  RunAndCompare(
      testing::InstantiateSpmdDot(testing::kSingleDevice, rows, k, cols, n, k / n, type),
      testing::InstantiateSpmdDot(testing::kContractingSplit, rows, k, cols, n, k / n, type),
      inputs);
}

TEST_P(SpmdDotTest, RowSplitWithAllGatherEqualsSingleDevice) {
  const int rows = 24, k = 5, cols = 7, n = GetParam().partitions;
  std::string type = TypeName(GetParam().type);
  std::vector<Tensor> inputs = {runtime::RandomTensor(GetParam().type, {rows, k}, 3),
                                runtime::RandomTensor(GetParam().type, {k, cols}, 4)};
  RunAndCompare(
      testing::InstantiateSpmdDot(testing::kSingleDevice, rows, k, cols, n, rows / n, type),
      testing::InstantiateSpmdDot(testing::kRowSplit, rows, k, cols, n, rows / n, type), inputs);
}

INSTANTIATE_TEST_SUITE_P(PartitionsAndTypes, SpmdDotTest,
                         ::testing::Values(Case{2, ElementType::kS32}, Case{3, ElementType::kS32},
                                           Case{4, ElementType::kS32}, Case{6, ElementType::kS32},
                                           Case{4, ElementType::kF32}, Case{3, ElementType::kF32}),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           return absl::StrCat(info.param.partitions, "_",
                                               TypeName(info.param.type));
                         });

}  // namespace
}  // namespace tessel
