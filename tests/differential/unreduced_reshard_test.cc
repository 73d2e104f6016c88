// Resharding partial sums: a value unreduced over "x" (each device holds a partial sum)
// constrained to be split over "x" becomes a reduce_scatter, zero-padded first when the rows
// do not divide by 4; one unreduced over "x" and "y" split over part of them becomes a
// reduce_scatter over that part and an all_reduce of the pieces over the rest. Checked on 8 local partitions against the sum computed on the host:
// device (x, y) must hold rows [cx, cx + c) (c = ceil(rows / 4); those below `rows`) of the
// sum over x' of the partial values of devices (x', y).
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_replace.h"

#include "gtest/gtest.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "partitioner/ir/parse_module.h"
#include "partitioner/ir/tessel/tessel_ops.h"
#include "partitioner/propagation/propagate.h"
#include "partitioner/spmd/partition.h"
#include "runtime/random_inputs.h"
#include "runtime/spmd_runner.h"

namespace tessel {
namespace {

using runtime::Tensor;

constexpr char kProgram[] = R"(
tessel.mesh @mesh = <["x"=4, "y"=2]>
func.func @main(%a: tensor<ROWSx6xi32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}], unreduced={"x"}>})
    -> tensor<ROWSx6xi32> {
  %0 = tessel.sharding_constraint %a <@mesh, [{"x"}, {}]> : tensor<ROWSx6xi32>
  return %0 : tensor<ROWSx6xi32>
}
)";

// `text` parsed, propagated and partitioned.
absl::StatusOr<mlir::OwningOpRef<mlir::ModuleOp>> Partitioned(const std::string& text,
                                                              mlir::MLIRContext& context) {
  auto module = ParseModule(text, "unreduced.mlir", context);
  if (!module.ok()) return module.status();
  if (mlir::failed(propagation::propagateShardings(**module, propagation::PropagationOptions(),
                                                   nullptr)) ||
      mlir::failed(spmd::partitionModule(**module))) {
    return absl::InternalError("propagation or partitioning failed");
  }
  return module;
}

class UnreducedReshardTest : public ::testing::TestWithParam<int> {};

TEST_P(UnreducedReshardTest, PartialSumsSplitByAReduceScatterEqualTheHostSum) {
  const int rows = GetParam();
  const int piece = (rows + 3) / 4;
  mlir::MLIRContext context;
  auto module = Partitioned(absl::StrReplaceAll(kProgram, {{"ROWS", std::to_string(rows)}}),
                            context);
  ASSERT_TRUE(module.ok()) << module.status();
  auto function = (*module)->lookupSymbol<mlir::func::FuncOp>("main");
  bool has_reduce_scatter = false, has_all_reduce = false;
  function.walk([&](ir::ReduceScatterOp) { has_reduce_scatter = true; });
  function.walk([&](ir::AllReduceOp) { has_all_reduce = true; });
  EXPECT_TRUE(has_reduce_scatter);
  EXPECT_FALSE(has_all_reduce);

  // Device d = 2x + y holds its own partial value.
  std::vector<std::vector<Tensor>> inputs;
  for (int d = 0; d < 8; ++d) {
    inputs.push_back({runtime::RandomTensor(runtime::ElementType::kS32, {rows, 6}, 100 + d)});
  }
  auto outputs = runtime::RunSpmd(function, inputs, 8);
  ASSERT_TRUE(outputs.ok()) << outputs.status();
  for (int x = 0; x < 4; ++x) {
    for (int y = 0; y < 2; ++y) {
      const Tensor& got = (*outputs)[2 * x + y][0];
      ASSERT_EQ(got.shape(), (runtime::Shape{piece, 6}));
      for (int row = 0; row < piece && piece * x + row < rows; ++row) {
        for (int col = 0; col < 6; ++col) {
          int32_t sum = 0;
          for (int other = 0; other < 4; ++other) {
            sum += inputs[2 * other + y][0].data<int32_t>()[(piece * x + row) * 6 + col];
          }
          EXPECT_EQ(got.data<int32_t>()[row * 6 + col], sum)
              << "device (" << x << ", " << y << ") row " << row << " col " << col;
        }
      }
    }
  }
}

// Even (8 rows), uneven with a short last piece (5, 6), and a device with padding only (3).
INSTANTIATE_TEST_SUITE_P(Rows, UnreducedReshardTest, ::testing::Values(8, 6, 5, 3));

// Partial sums over both axes constrained to a split over only some of them: a
// reduce_scatter over those (whole axes, or the major part of "x") and an all_reduce over
// the rest, never an all_reduce of the whole tensor. Device (x, y) must hold piece
// `index(x, y)` of the sum over all eight devices.
struct PartialScatterCase {
  std::string target;         // the constraint's dim 0 sharding
  int pieces;                 // how many pieces dim 0 is cut into
  int (*index)(int x, int y);  // which piece device (x, y) holds
};

constexpr char kBothAxesProgram[] = R"(
tessel.mesh @mesh = <["x"=4, "y"=2]>
func.func @main(%a: tensor<16x6xi32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}], unreduced={"x", "y"}>})
    -> tensor<16x6xi32> {
  %0 = tessel.sharding_constraint %a <@mesh, [TARGET, {}]> : tensor<16x6xi32>
  return %0 : tensor<16x6xi32>
}
)";

class PartialScatterTest : public ::testing::TestWithParam<PartialScatterCase> {};

TEST_P(PartialScatterTest, ScattersOverPartOfTheAxesAndAllReducesTheRest) {
  const PartialScatterCase& param = GetParam();
  const int rows = 16, piece = rows / param.pieces;
  mlir::MLIRContext context;
  auto module =
      Partitioned(absl::StrReplaceAll(kBothAxesProgram, {{"TARGET", param.target}}), context);
  ASSERT_TRUE(module.ok()) << module.status();
  auto function = (*module)->lookupSymbol<mlir::func::FuncOp>("main");
  int reduce_scatters = 0;
  function.walk([&](ir::ReduceScatterOp) { ++reduce_scatters; });
  // Any all_reduce must act on the scattered piece, not on the whole tensor.
  function.walk([&](ir::AllReduceOp op) {
    EXPECT_EQ(llvm::cast<mlir::RankedTensorType>(op.getType()).getDimSize(0), piece);
  });
  EXPECT_EQ(reduce_scatters, 1);

  std::vector<std::vector<Tensor>> inputs;
  for (int d = 0; d < 8; ++d) {
    inputs.push_back({runtime::RandomTensor(runtime::ElementType::kS32, {rows, 6}, 200 + d)});
  }
  auto outputs = runtime::RunSpmd(function, inputs, 8);
  ASSERT_TRUE(outputs.ok()) << outputs.status();
  for (int x = 0; x < 4; ++x) {
    for (int y = 0; y < 2; ++y) {
      const Tensor& got = (*outputs)[2 * x + y][0];
      ASSERT_EQ(got.shape(), (runtime::Shape{piece, 6}));
      const int first = param.index(x, y) * piece;
      for (int row = 0; row < piece; ++row) {
        for (int col = 0; col < 6; ++col) {
          int32_t sum = 0;
          for (int d = 0; d < 8; ++d) sum += inputs[d][0].data<int32_t>()[(first + row) * 6 + col];
          EXPECT_EQ(got.data<int32_t>()[row * 6 + col], sum)
              << param.target << ": device (" << x << ", " << y << ") row " << row;
        }
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    Targets, PartialScatterTest,
    ::testing::Values(PartialScatterCase{R"({"x"})", 4, [](int x, int) { return x; }},
                      PartialScatterCase{R"({"y"})", 2, [](int, int y) { return y; }},
                      PartialScatterCase{R"({"x":(1)2})", 2, [](int x, int) { return x / 2; }},
                      PartialScatterCase{R"({"y", "x":(1)2})", 4,
                                         [](int x, int y) { return 2 * y + x / 2; }},
                      PartialScatterCase{R"({"x", "y"})", 8,
                                         [](int x, int y) { return 2 * x + y; }}));

}  // namespace
}  // namespace tessel
