// Tests of the collective kernels on 2x2 and 2x4 meshes: groups from axis subsets, axis
// order, sub-axes and explicit device ids; every collective_permute rule; dimensions other
// than the first; element types; and running without a communicator.
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "partitioner/ir/parse_module.h"
#include "runtime/interpreter.h"
#include "runtime/spmd_runner.h"
#include "support/status_matchers.h"

namespace tessel::runtime {
namespace {

using ::tessel::testing::IsOk;
using ::tessel::testing::StatusIs;
using ::testing::ElementsAre;
using ::testing::ElementsAreArray;

class CollectiveKernelsTest : public ::testing::Test {
 protected:
  // Runs @main of `mesh` + `body` on `n` partitions, partition p's only argument being
  // make(p), and returns each partition's first result.
  template <typename Fn>
  std::vector<Tensor> Run(absl::string_view mesh, absl::string_view body, int64_t n, Fn make) {
    std::string text = absl::StrCat("tessel.mesh @mesh = ", mesh, "\n", body);
    absl::StatusOr<mlir::OwningOpRef<mlir::ModuleOp>> module =
        ParseModule(text, "test.mlir", context_);
    EXPECT_THAT(module, IsOk());
    if (!module.ok()) return {};
    module_ = *std::move(module);
    std::vector<std::vector<Tensor>> inputs;
    for (int64_t p = 0; p < n; ++p) inputs.push_back({make(p)});
    auto outputs = RunSpmd(module_->lookupSymbol<mlir::func::FuncOp>("main"), inputs, n);
    EXPECT_THAT(outputs, IsOk());
    if (!outputs.ok()) return {};
    std::vector<Tensor> results;
    for (auto& output : *outputs) results.push_back(output[0]);
    return results;
  }

  // Partition p's input: the rank-1 s32 tensor [p].
  static Tensor Id(int64_t p) { return Tensor::FromVector<int32_t>({1}, {int32_t(p)}); }

  // Each partition's result as a vector of int32.
  static std::vector<std::vector<int32_t>> Values(const std::vector<Tensor>& results) {
    std::vector<std::vector<int32_t>> values;
    for (const Tensor& result : results) values.push_back(result.ToVector<int32_t>());
    return values;
  }

  mlir::MLIRContext context_;
  mlir::OwningOpRef<mlir::ModuleOp> module_;
};

// In a mesh ["x"=2, "y"=2] without device ids, device (x, y) is 2x + y.
constexpr absl::string_view kMesh2x2 = R"(<["x"=2, "y"=2]>)";
// In a mesh ["x"=2, "y"=4], device (x, y) is 4x + y.
constexpr absl::string_view kMesh2x4 = R"(<["x"=2, "y"=4]>)";

std::string AllReduce(absl::string_view axes) {
  return absl::StrCat(R"(
    func.func @main(%x: tensor<1xi32>) -> tensor<1xi32> {
      %r = tessel.all_reduce %x over @mesh )",
                      axes, R"( kind = sum : tensor<1xi32>
      return %r : tensor<1xi32>
    })");
}

std::string AllGather(absl::string_view axes, int64_t group_size) {
  return absl::StrCat(R"(
    func.func @main(%x: tensor<1xi32>) -> tensor<)",
                      group_size, R"(xi32> {
      %r = tessel.all_gather %x over @mesh )",
                      axes, R"( dim = 0 : (tensor<1xi32>) -> tensor<)", group_size, R"(xi32>
      return %r : tensor<)",
                      group_size, R"(xi32>
    })");
}

std::string Permute(absl::string_view axes, absl::string_view rule) {
  return absl::StrCat(R"(
    func.func @main(%x: tensor<1xi32>) -> tensor<1xi32> {
      %r = tessel.collective_permute %x over @mesh )",
                      axes, " ", rule, R"( : tensor<1xi32>
      return %r : tensor<1xi32>
    })");
}

TEST_F(CollectiveKernelsTest, AllReduceOverEachAxisSubsetOfA2x2Mesh) {
  // Over "x": columns {0, 2} and {1, 3}. Over "y": rows {0, 1} and {2, 3}. Over both: all.
  EXPECT_THAT(Values(Run(kMesh2x2, AllReduce(R"(["x"])"), 4, Id)),
              ElementsAre(ElementsAre(2), ElementsAre(4), ElementsAre(2), ElementsAre(4)));
  EXPECT_THAT(Values(Run(kMesh2x2, AllReduce(R"(["y"])"), 4, Id)),
              ElementsAre(ElementsAre(1), ElementsAre(1), ElementsAre(5), ElementsAre(5)));
  EXPECT_THAT(Values(Run(kMesh2x2, AllReduce(R"(["x", "y"])"), 4, Id)),
              ElementsAre(ElementsAre(6), ElementsAre(6), ElementsAre(6), ElementsAre(6)));
}

TEST_F(CollectiveKernelsTest, AllGatherOrdersTheGroupByTheListedAxes) {
  // ["x", "y"]: position 2x + y, the mesh order. ["y", "x"]: position 2y + x, so device
  // (1, 0) = 2 comes before device (0, 1) = 1.
  for (const auto& result : Values(Run(kMesh2x2, AllGather(R"(["x", "y"])", 4), 4, Id))) {
    EXPECT_THAT(result, ElementsAre(0, 1, 2, 3));
  }
  for (const auto& result : Values(Run(kMesh2x2, AllGather(R"(["y", "x"])", 4), 4, Id))) {
    EXPECT_THAT(result, ElementsAre(0, 2, 1, 3));
  }
}

TEST_F(CollectiveKernelsTest, SubAxesOfA2x4Mesh) {
  // y = 2*y1 + y2 with "y":(1)2 = y1 and "y":(2)2 = y2; device 4x + 2y1 + y2.
  // Over y2: pairs of neighbours {0, 1}, {2, 3}, ...
  EXPECT_THAT(
      Values(Run(kMesh2x4, AllGather(R"(["y":(2)2])", 2), 8, Id)),
      ElementsAre(ElementsAre(0, 1), ElementsAre(0, 1), ElementsAre(2, 3), ElementsAre(2, 3),
                  ElementsAre(4, 5), ElementsAre(4, 5), ElementsAre(6, 7), ElementsAre(6, 7)));
  // Over y1: devices two apart, {0, 2}, {1, 3}, {4, 6}, {5, 7}.
  EXPECT_THAT(
      Values(Run(kMesh2x4, AllGather(R"(["y":(1)2])", 2), 8, Id)),
      ElementsAre(ElementsAre(0, 2), ElementsAre(1, 3), ElementsAre(0, 2), ElementsAre(1, 3),
                  ElementsAre(4, 6), ElementsAre(5, 7), ElementsAre(4, 6), ElementsAre(5, 7)));
  // Over x and y1: position 2x + y1, so for y2 = 0 the group is [0, 2, 4, 6].
  std::vector<std::vector<int32_t>> values =
      Values(Run(kMesh2x4, AllGather(R"(["x", "y":(1)2])", 4), 8, Id));
  ASSERT_EQ(values.size(), 8u);
  for (int p = 0; p < 8; ++p) {
    int y2 = p % 2;
    EXPECT_THAT(values[p], ElementsAre(y2, 2 + y2, 4 + y2, 6 + y2)) << "partition " << p;
  }
}

TEST_F(CollectiveKernelsTest, DeviceIdsPermuteWhichPartitionSitsWhere) {
  // Position i holds device 3 - i, so partition p sits at position 3 - p. Over "y", the
  // positions {0, 1} are devices [3, 2] and the positions {2, 3} are devices [1, 0].
  EXPECT_THAT(
      Values(Run(R"(<["x"=2, "y"=2], device_ids=[3, 2, 1, 0]>)", AllGather(R"(["y"])", 2), 4, Id)),
      ElementsAre(ElementsAre(1, 0), ElementsAre(1, 0), ElementsAre(3, 2), ElementsAre(3, 2)));
  // Over "x" with ids [0, 2, 1, 3]: positions {0, 2} are devices [0, 1], {1, 3} are [2, 3].
  EXPECT_THAT(
      Values(Run(R"(<["x"=2, "y"=2], device_ids=[0, 2, 1, 3]>)", AllGather(R"(["x"])", 2), 4, Id)),
      ElementsAre(ElementsAre(0, 1), ElementsAre(0, 1), ElementsAre(2, 3), ElementsAre(2, 3)));
}

TEST_F(CollectiveKernelsTest, CollectivePermuteShiftCyclicAndPairs) {
  constexpr absl::string_view kLine = R"(<["x"=4]>)";
  // shift = 1: position i sends to i + 1; position 0 receives nothing and gets zeros.
  EXPECT_THAT(Values(Run(kLine, Permute(R"(["x"])", "shift = 1"), 4, Id)),
              ElementsAre(ElementsAre(0), ElementsAre(0), ElementsAre(1), ElementsAre(2)));
  // shift = -1 cyclic: position i receives from i + 1, wrapping around.
  EXPECT_THAT(Values(Run(kLine, Permute(R"(["x"])", "shift = -1 cyclic"), 4, Id)),
              ElementsAre(ElementsAre(1), ElementsAre(2), ElementsAre(3), ElementsAre(0)));
  // pairs: 0 and 2 swap; 1 and 3 receive nothing.
  auto swapped = Run(kLine, Permute(R"(["x"])", "pairs = [[0, 2], [2, 0]]"), 4,
                     [](int64_t p) { return Tensor::FromVector<int32_t>({1}, {int32_t(10 + p)}); });
  EXPECT_THAT(Values(swapped),
              ElementsAre(ElementsAre(12), ElementsAre(0), ElementsAre(10), ElementsAre(0)));
}

TEST_F(CollectiveKernelsTest, CollectivePermuteWithinRowsOfA2x4Mesh) {
  // Over "y" with shift 2 cyclic: device 4x + y receives from 4x + (y + 2) mod 4.
  EXPECT_THAT(Values(Run(kMesh2x4, Permute(R"(["y"])", "shift = 2 cyclic"), 8, Id)),
              ElementsAre(ElementsAre(2), ElementsAre(3), ElementsAre(0), ElementsAre(1),
                          ElementsAre(6), ElementsAre(7), ElementsAre(4), ElementsAre(5)));
  // Over "x" with pairs [[1, 0]]: the second row sends to the first; the second row gets 0.
  EXPECT_THAT(Values(Run(kMesh2x4, Permute(R"(["x"])", "pairs = [[1, 0]]"), 8, Id)),
              ElementsAre(ElementsAre(4), ElementsAre(5), ElementsAre(6), ElementsAre(7),
                          ElementsAre(0), ElementsAre(0), ElementsAre(0), ElementsAre(0)));
}

TEST_F(CollectiveKernelsTest, AllGatherAlongAnInnerDimension) {
  // Partition p holds column p of [[0, 1, 2, 3], [10, 11, 12, 13]] over the "y" rows of 2x4.
  constexpr absl::string_view kProgram = R"(
    func.func @main(%x: tensor<2x1xi32>) -> tensor<2x4xi32> {
      %r = tessel.all_gather %x over @mesh ["y"] dim = 1 : (tensor<2x1xi32>) -> tensor<2x4xi32>
      return %r : tensor<2x4xi32>
    })";
  auto results = Run(kMesh2x4, kProgram, 8, [](int64_t p) {
    int32_t y = static_cast<int32_t>(p % 4), x = static_cast<int32_t>(p / 4);
    return Tensor::FromVector<int32_t>({2, 1}, {100 * x + y, 100 * x + 10 + y});
  });
  for (int p = 0; p < 8; ++p) {
    int32_t base = 100 * (p / 4);
    EXPECT_THAT(Values(results)[p], ElementsAreArray({base + 0, base + 1, base + 2, base + 3,
                                                      base + 10, base + 11, base + 12, base + 13}));
  }
}

TEST_F(CollectiveKernelsTest, ReduceScatterAlongAnInnerDimension) {
  // Every partition holds (p + 1) * [[1, 2, 3, 4], [5, 6, 7, 8]]; max over "y" of a row of
  // 2x4 is the last member's, 4x + 4 times the matrix; position y keeps column y.
  constexpr absl::string_view kProgram = R"(
    func.func @main(%x: tensor<2x4xi32>) -> tensor<2x1xi32> {
      %r = tessel.reduce_scatter %x over @mesh ["y"] dim = 1 kind = max : (tensor<2x4xi32>) -> tensor<2x1xi32>
      return %r : tensor<2x1xi32>
    })";
  auto results = Run(kMesh2x4, kProgram, 8, [](int64_t p) {
    std::vector<int32_t> values = {1, 2, 3, 4, 5, 6, 7, 8};
    for (int32_t& v : values) v *= static_cast<int32_t>(p + 1);
    return Tensor::FromVector<int32_t>({2, 4}, values);
  });
  for (int p = 0; p < 8; ++p) {
    int32_t scale = 4 * (p / 4) + 4, column = p % 4;
    EXPECT_THAT(Values(results)[p], ElementsAre(scale * (1 + column), scale * (5 + column)));
  }
}

TEST_F(CollectiveKernelsTest, AllToAllOverOneAxisOfA2x4Mesh) {
  // Over "x" (pairs {y, 4 + y}): each member splits its 2x3 operand into two 1x3 rows, sends
  // row j to position j, and concatenates what it receives along dim 1 into 1x6.
  constexpr absl::string_view kProgram = R"(
    func.func @main(%x: tensor<2x3xi32>) -> tensor<1x6xi32> {
      %r = tessel.all_to_all %x over @mesh ["x"] split_dim = 0 concat_dim = 1 : (tensor<2x3xi32>) -> tensor<1x6xi32>
      return %r : tensor<1x6xi32>
    })";
  auto results = Run(kMesh2x4, kProgram, 8, [](int64_t p) {
    std::vector<int32_t> values(6);
    for (int i = 0; i < 6; ++i) values[i] = static_cast<int32_t>(100 * p + i);
    return Tensor::FromVector<int32_t>({2, 3}, values);
  });
  for (int p = 0; p < 8; ++p) {
    int32_t x = p / 4, first = p % 4, second = 4 + p % 4;  // the group, in order
    // Row x of the first member, then row x of the second.
    EXPECT_THAT(
        Values(results)[p],
        ElementsAre(100 * first + 3 * x, 100 * first + 3 * x + 1, 100 * first + 3 * x + 2,
                    100 * second + 3 * x, 100 * second + 3 * x + 1, 100 * second + 3 * x + 2));
  }
}

TEST_F(CollectiveKernelsTest, AllToAllSplittingAndConcatenatingOneDimension) {
  // On a 2x2 mesh over "y": piece j of [a0, a1, a2, a3] is [a(2j), a(2j+1)].
  constexpr absl::string_view kProgram = R"(
    func.func @main(%x: tensor<4xi32>) -> tensor<4xi32> {
      %r = tessel.all_to_all %x over @mesh ["y"] split_dim = 0 concat_dim = 0 : (tensor<4xi32>) -> tensor<4xi32>
      return %r : tensor<4xi32>
    })";
  auto results = Run(kMesh2x2, kProgram, 4, [](int64_t p) {
    int32_t b = static_cast<int32_t>(10 * p);
    return Tensor::FromVector<int32_t>({4}, {b, b + 1, b + 2, b + 3});
  });
  // Device 0 gets piece 0 of devices 0 and 1; device 1 gets their piece 1; likewise 2, 3.
  EXPECT_THAT(Values(results),
              ElementsAre(ElementsAre(0, 1, 10, 11), ElementsAre(2, 3, 12, 13),
                          ElementsAre(20, 21, 30, 31), ElementsAre(22, 23, 32, 33)));
}

TEST_F(CollectiveKernelsTest, AllReduceOfPredBf16AndU8) {
  constexpr absl::string_view kPredProgram = R"(
    func.func @main(%x: tensor<2xi1>) -> tensor<2xi1> {
      %r = tessel.all_reduce %x over @mesh ["x", "y"] kind = sum : tensor<2xi1>
      return %r : tensor<2xi1>
    })";
  auto preds = Run(kMesh2x2, kPredProgram, 4, [](int64_t p) {
    return Tensor::FromVector<bool>({2}, {p == 3, false});
  });
  for (const Tensor& result : preds) EXPECT_THAT(result.ToVector<bool>(), ElementsAre(true, false));

  constexpr absl::string_view kBf16Program = R"(
    func.func @main(%x: tensor<1xbf16>) -> tensor<1xbf16> {
      %r = tessel.all_reduce %x over @mesh ["x", "y"] kind = min : tensor<1xbf16>
      return %r : tensor<1xbf16>
    })";
  auto halves = Run(kMesh2x2, kBf16Program, 4,
                    [](int64_t p) { return Tensor::FromVector<bf16>({1}, {bf16(1.5f - p)}); });
  for (const Tensor& result : halves) {
    EXPECT_EQ(static_cast<float>(result.ToVector<bf16>()[0]), -1.5f);
  }

  constexpr absl::string_view kU8Program = R"(
    func.func @main(%x: tensor<1xui8>) -> tensor<1xui8> {
      %r = tessel.all_reduce %x over @mesh ["x", "y"] kind = prod : tensor<1xui8>
      return %r : tensor<1xui8>
    })";
  auto bytes =
      Run(kMesh2x2, kU8Program, 4, [](int64_t) { return Tensor::FromVector<uint8_t>({1}, {5}); });
  // 5^4 = 625 wraps to 625 - 512 = 113 in 8 bits.
  for (const Tensor& result : bytes) EXPECT_THAT(result.ToVector<uint8_t>(), ElementsAre(113));
}

TEST_F(CollectiveKernelsTest, CollectivesNeedACommunicator) {
  absl::StatusOr<mlir::OwningOpRef<mlir::ModuleOp>> module =
      ParseModule(absl::StrCat("tessel.mesh @mesh = <[\"x\"=1]>\n", AllReduce(R"(["x"])")),
                  "test.mlir", context_);
  ASSERT_THAT(module, IsOk());
  Interpreter interpreter;  // single-device: no communicator
  EXPECT_THAT(interpreter.RunFunction((*module)->lookupSymbol<mlir::func::FuncOp>("main"),
                                      {Tensor::FromVector<int32_t>({1}, {7})}),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       "collectives need a communicator: run the program on partitions"));
}

TEST_F(CollectiveKernelsTest, PartitionIdOnASingleDeviceIsZero) {
  absl::StatusOr<mlir::OwningOpRef<mlir::ModuleOp>> module = ParseModule(R"(
    func.func @main() -> tensor<ui32> {
      %id = tessel.partition_id : tensor<ui32>
      return %id : tensor<ui32>
    })",
                                                                         "test.mlir", context_);
  ASSERT_THAT(module, IsOk());
  Interpreter interpreter;
  auto results = interpreter.RunFunction((*module)->lookupSymbol<mlir::func::FuncOp>("main"), {});
  ASSERT_THAT(results, IsOk());
  EXPECT_THAT((*results)[0].ToVector<uint32_t>(), ElementsAre(0u));
}

}  // namespace
}  // namespace tessel::runtime
