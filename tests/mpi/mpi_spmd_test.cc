// An SPMD program run across MPI ranks equals the single-device program: one Interpreter
// per rank whose collectives go through the MpiCommunicator. The contracting dimension of a
// dot is split over the ranks (partition_id + dynamic_slice + dot + all_reduce), and a second
// program splits the rows and all-gathers them. Every rank's result is gathered to rank 0,
// which compares it with its own single-device run. Runs under mpirun with 2, 3 and 4 ranks.
#include <mpi.h>

#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "collectives/mpi/mpi_communicator.h"
#include "gtest/gtest.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "partitioner/ir/parse_module.h"
#include "runtime/interpreter.h"
#include "runtime/kernel_registry.h"
#include "runtime/random_inputs.h"
#include "tests/differential/spmd_dot_programs.h"

namespace tessel {
namespace {

using runtime::ElementType;
using runtime::Tensor;

class MpiSpmdTest : public ::testing::TestWithParam<ElementType> {
 protected:
  void SetUp() override {
    MPI_Comm_size(MPI_COMM_WORLD, &n_);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    auto created =
        collectives::MpiCommunicator::Create(collectives::DeviceAssignment::Identity(n_));
    ASSERT_TRUE(created.ok()) << created.status();
    communicator_ = *std::move(created);
  }

  // Runs `spmd` on this rank as its partition, gathers every partition's result on every
  // rank, and on rank 0 compares each with `single` run on one device.
  void RunAndCompare(const std::string& single, const std::string& spmd,
                     const std::vector<Tensor>& inputs) {
    mlir::MLIRContext context;
    auto spmd_module = ParseModule(spmd, "spmd.mlir", context);
    ASSERT_TRUE(spmd_module.ok()) << spmd_module.status();
    const int64_t self = communicator_->partition_id();
    runtime::Interpreter interpreter(runtime::DefaultKernelRegistry(),
                                     runtime::PartitionContext{self, n_, communicator_.get()});
    auto outputs =
        interpreter.RunFunction((*spmd_module)->lookupSymbol<mlir::func::FuncOp>("main"), inputs);
    ASSERT_TRUE(outputs.ok()) << "partition " << self << ": " << outputs.status();
    const Tensor& mine = (*outputs)[0];

    std::vector<uint8_t> gathered(n_ * mine.byte_size());
    auto bytes = mine.bytes();
    ASSERT_TRUE(communicator_
                    ->AllGather(self, Everyone(),
                                collectives::ConstBuffer{collectives::DataType::kU8, bytes.data(),
                                                         static_cast<int64_t>(bytes.size())},
                                collectives::MakeBuffer(absl::MakeSpan(gathered)))
                    .ok());
    if (rank_ != 0) return;

    auto reference_module = ParseModule(single, "single.mlir", context);
    ASSERT_TRUE(reference_module.ok()) << reference_module.status();
    runtime::Interpreter reference;
    auto expected = reference.RunFunction(
        (*reference_module)->lookupSymbol<mlir::func::FuncOp>("main"), inputs);
    ASSERT_TRUE(expected.ok()) << expected.status();
    const Tensor& want = (*expected)[0];
    ASSERT_EQ(want.byte_size(), mine.byte_size());
    for (int p = 0; p < n_; ++p) {
      const uint8_t* got = gathered.data() + p * want.byte_size();
      if (GetParam() == ElementType::kS32) {
        // Integer sums are exact whatever the order.
        EXPECT_EQ(std::memcmp(got, want.bytes().data(), want.byte_size()), 0) << "partition " << p;
      } else {
        // Partial sums add up in another order: allow rounding differences.
        auto w = want.data<float>();
        for (size_t i = 0; i < w.size(); ++i) {
          float g;
          std::memcpy(&g, got + i * sizeof(float), sizeof(float));
          EXPECT_NEAR(g, w[i], 1e-5f * (1.0f + std::abs(w[i]))) << "partition " << p;
        }
      }
    }
  }

  std::vector<int64_t> Everyone() const {
    std::vector<int64_t> ids(n_);
    for (int i = 0; i < n_; ++i) ids[i] = i;
    return ids;
  }

  int n_ = 0;
  int rank_ = 0;
  std::unique_ptr<collectives::MpiCommunicator> communicator_;
};

std::string TypeName(ElementType type) { return type == ElementType::kS32 ? "i32" : "f32"; }

TEST_P(MpiSpmdTest, ContractingSplitWithAllReduceEqualsSingleDevice) {
  // 24 divides by 2, 3, 4 and 8.
  const int rows = 8, k = 24, cols = 6;
  const std::string type = TypeName(GetParam());
  // Every rank draws the same inputs from the same seeds.
  std::vector<Tensor> inputs = {runtime::RandomTensor(GetParam(), {rows, k}, 1),
                                runtime::RandomTensor(GetParam(), {k, cols}, 2)};
  RunAndCompare(
      testing::InstantiateSpmdDot(testing::kSingleDevice, rows, k, cols, n_, k / n_, type),
      testing::InstantiateSpmdDot(testing::kContractingSplit, rows, k, cols, n_, k / n_, type),
      inputs);
}

TEST_P(MpiSpmdTest, RowSplitWithAllGatherEqualsSingleDevice) {
  const int rows = 24, k = 5, cols = 7;
  const std::string type = TypeName(GetParam());
  std::vector<Tensor> inputs = {runtime::RandomTensor(GetParam(), {rows, k}, 3),
                                runtime::RandomTensor(GetParam(), {k, cols}, 4)};
  RunAndCompare(
      testing::InstantiateSpmdDot(testing::kSingleDevice, rows, k, cols, n_, rows / n_, type),
      testing::InstantiateSpmdDot(testing::kRowSplit, rows, k, cols, n_, rows / n_, type), inputs);
}

INSTANTIATE_TEST_SUITE_P(Types, MpiSpmdTest,
                         ::testing::Values(ElementType::kS32, ElementType::kF32),
                         [](const ::testing::TestParamInfo<ElementType>& info) {
                           return TypeName(info.param);
                         });

}  // namespace
}  // namespace tessel
