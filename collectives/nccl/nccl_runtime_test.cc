// The runtime's interpreter running an SPMD program with its collectives on NCCL (host
// buffers, as the runtime holds host tensors), compared with the same program on the local
// backend. Skips itself without two GPUs.
#include <thread>
#include <vector>

#include "collectives/nccl/nccl_communicator.h"
#include "collectives/nccl/nccl_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "mlir/IR/MLIRContext.h"
#include "partitioner/ir/parse_module.h"
#include "runtime/interpreter.h"
#include "runtime/spmd_runner.h"
#include "support/status_matchers.h"

namespace tessel::collectives {
namespace {

using ::tessel::collectives::nccl::testing::OptionsFor;
using ::tessel::testing::IsOk;

// Every collective the partitioner emits, over both axes of a 2x2 mesh and over one.
constexpr absl::string_view kProgram = R"(
  tessel.mesh @mesh = <["x"=2, "y"=2]>
  func.func @main(%a: tensor<4xf32>) -> (tensor<4xf32>, tensor<8xf32>, tensor<2xf32>, tensor<4xf32>, tensor<4xf32>) {
    %c = hlo.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
    %s = hlo.add %a, %c : tensor<4xf32>
    %r = tessel.all_reduce %s over @mesh ["x", "y"] kind = sum : tensor<4xf32>
    %g = tessel.all_gather %s over @mesh ["x"] dim = 0 : (tensor<4xf32>) -> tensor<8xf32>
    %rs = tessel.reduce_scatter %s over @mesh ["y"] dim = 0 kind = max : (tensor<4xf32>) -> tensor<2xf32>
    %t = tessel.all_to_all %s over @mesh ["x", "y"] split_dim = 0 concat_dim = 0 : (tensor<4xf32>) -> tensor<4xf32>
    %p = tessel.collective_permute %s over @mesh ["y"] shift = 1 : tensor<4xf32>
    return %r, %g, %rs, %t, %p : tensor<4xf32>, tensor<8xf32>, tensor<2xf32>, tensor<4xf32>, tensor<4xf32>
  })";

TEST(NcclRuntimeTest, InterpreterResultsMatchTheLocalBackend) {
  constexpr int64_t n = 4;
  TESSEL_SKIP_WITHOUT_DEVICES(n);
  mlir::MLIRContext context;
  auto module = ParseModule(kProgram, "program.mlir", context);
  ASSERT_THAT(module.status(), IsOk());
  auto main = (*module)->lookupSymbol<mlir::func::FuncOp>("main");
  std::vector<std::vector<runtime::Tensor>> inputs;
  for (int64_t p = 0; p < n; ++p) {
    float v = static_cast<float>(p);
    inputs.push_back({runtime::Tensor::FromVector<float>({4}, {v, -v, 2 * v, 10 * v})});
  }
  auto expected = runtime::RunSpmd(main, inputs, n);
  ASSERT_THAT(expected.status(), IsOk());

  auto communicator =
      NcclCommunicator::CreateSingleProcess(n, OptionsFor(NcclCommunicator::BufferLocation::kHost));
  ASSERT_THAT(communicator.status(), IsOk());
  std::vector<absl::StatusOr<std::vector<runtime::Tensor>>> outputs(n);
  std::vector<std::thread> threads;
  for (int64_t p = 0; p < n; ++p) {
    threads.emplace_back([&, p] {
      runtime::Interpreter interpreter(runtime::DefaultKernelRegistry(),
                                       runtime::PartitionContext{p, n, communicator->get()});
      outputs[p] = interpreter.RunFunction(main, inputs[p]);
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (int64_t p = 0; p < n; ++p) {
    SCOPED_TRACE(p);
    ASSERT_THAT(outputs[p].status(), IsOk());
    ASSERT_EQ(outputs[p]->size(), (*expected)[p].size());
    for (size_t i = 0; i < outputs[p]->size(); ++i) {
      EXPECT_EQ((*outputs[p])[i].ToVector<float>(), (*expected)[p][i].ToVector<float>())
          << "result " << i;
    }
  }
}

}  // namespace
}  // namespace tessel::collectives
