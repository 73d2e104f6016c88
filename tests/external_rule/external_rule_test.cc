// A compiler's own op, toy.matmul, gets a sharding rule through an external model and is
// propagated through, partitioned and run: the partitioned program on 3 and on 6 devices
// (uneven splits included) must give what the program gives on one device. The executor
// runs the foreign op through a kernel the test registers.
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "partitioner/ir/tessel/tessel_ops.h"
#include "partitioner/passes/spmd_pipeline.h"
#include "partitioner/registration.h"
#include "runtime/interpreter.h"
#include "runtime/kernel_registry.h"
#include "runtime/random_inputs.h"
#include "runtime/sharded_tensors.h"
#include "runtime/spmd_runner.h"
#include "runtime/tensor.h"
#include "tests/external_rule/toy_dialect.h"
#include "tests/external_rule/toy_sharding_rule.h"

namespace {

using tessel::runtime::Tensor;

// The executor's kernels plus one for toy.matmul, so that programs with the op run too.
tessel::runtime::KernelRegistry KernelsWithToy() {
  tessel::runtime::KernelRegistry registry = tessel::runtime::DefaultKernelRegistry();
  registry.Register<toy::MatmulOp>(
      [](toy::MatmulOp op,
         tessel::runtime::KernelArgs args) -> absl::StatusOr<std::vector<Tensor>> {
        const Tensor& lhs = *args.operands[0];
        const Tensor& rhs = *args.operands[1];
        const int64_t m = lhs.shape()[0], k = lhs.shape()[1], n = rhs.shape()[1];
        Tensor result = Tensor::Zeros(lhs.type(), {m, n});
        auto a = lhs.data<float>();
        auto b = rhs.data<float>();
        auto c = result.data<float>();
        for (int64_t i = 0; i < m; ++i) {
          for (int64_t j = 0; j < n; ++j) {
            float sum = 0;
            for (int64_t l = 0; l < k; ++l) sum += a[i * k + l] * b[l * n + j];
            c[i * n + j] = sum;
          }
        }
        return std::vector<Tensor>{result};
      });
  return registry;
}

class ExternalRuleTest : public ::testing::Test {
 protected:
  ExternalRuleTest() {
    mlir::DialectRegistry registry;
    tessel::registerAllDialects(registry);
    registry.insert<toy::ToyDialect>();
    toy::registerToyShardingRules(registry);
    context_.appendDialectRegistry(registry);
    context_.loadAllAvailableDialects();
  }

  mlir::OwningOpRef<mlir::ModuleOp> Parse(const std::string& text) {
    return mlir::parseSourceString<mlir::ModuleOp>(text, &context_);
  }

  // Runs tessel-spmd-pipeline on `module`; returns its text afterwards ("" on failure).
  std::string Partition(mlir::ModuleOp module) {
    mlir::PassManager pm(&context_);
    tessel::passes::buildSpmdPipeline(pm, tessel::passes::SpmdPipelineOptions());
    if (mlir::failed(pm.run(module))) return "";
    std::string text;
    llvm::raw_string_ostream os(text);
    module.print(os);
    return text;
  }

  // Runs `text` on one device and, partitioned, on every device of its mesh @mesh, on the
  // same random inputs, and expects the same results. Returns the partitioned text.
  std::string ExpectPartitionedRunMatches(const std::string& text) {
    mlir::OwningOpRef<mlir::ModuleOp> module = Parse(text);
    if (!module) {
      ADD_FAILURE() << "does not parse";
      return "";
    }
    auto main = module->lookupSymbol<mlir::func::FuncOp>("main");
    std::vector<Tensor> inputs;
    for (auto [i, type] : llvm::enumerate(main.getArgumentTypes())) {
      auto shape = llvm::cast<mlir::RankedTensorType>(type).getShape();
      inputs.push_back(tessel::runtime::RandomTensor(tessel::runtime::ElementType::kF32,
                                                     {shape.begin(), shape.end()}, 10 + i));
    }
    tessel::runtime::Interpreter single(kernels_, tessel::runtime::PartitionContext());
    absl::StatusOr<std::vector<Tensor>> expected = single.RunFunction(main, inputs);
    if (!expected.ok()) {
      ADD_FAILURE() << "single-device run: " << expected.status();
      return "";
    }

    const std::string partitioned = Partition(*module);
    if (partitioned.empty()) {
      ADD_FAILURE() << "the pipeline failed";
      return "";
    }
    auto mesh = module->lookupSymbol<tessel::ir::MeshOp>("mesh").getMesh();
    const int64_t devices = mesh.getTotalSize();
    const llvm::StringRef kSharding = tessel::ir::TesselDialect::kShardingAttrName;
    std::vector<std::vector<Tensor>> perDevice(devices);
    for (int64_t p = 0; p < devices; ++p) {
      for (size_t i = 0; i < inputs.size(); ++i) {
        auto sharding = main.getArgAttrOfType<tessel::ir::ShardingAttr>(i, kSharding);
        absl::StatusOr<Tensor> local = tessel::runtime::ShardTensor(inputs[i], sharding, mesh, p);
        if (!local.ok()) {
          ADD_FAILURE() << local.status();
          return partitioned;
        }
        perDevice[p].push_back(*local);
      }
    }
    tessel::runtime::SpmdOptions options;
    options.registry = &kernels_;
    auto outputs = tessel::runtime::RunSpmd(main, perDevice, devices, options);
    if (!outputs.ok()) {
      ADD_FAILURE() << "partitioned run: " << outputs.status() << "\n" << partitioned;
      return partitioned;
    }
    for (size_t r = 0; r < expected->size(); ++r) {
      std::vector<Tensor> locals;
      for (int64_t p = 0; p < devices; ++p) locals.push_back((*outputs)[p][r]);
      auto sharding = main.getResultAttrOfType<tessel::ir::ShardingAttr>(r, kSharding);
      const Tensor& want = (*expected)[r];
      absl::StatusOr<Tensor> got =
          tessel::runtime::AssembleTensor(locals, sharding, mesh, want.shape());
      if (!got.ok()) {
        ADD_FAILURE() << got.status();
        continue;
      }
      auto g = got->data<float>();
      auto w = want.data<float>();
      for (size_t e = 0; e < w.size(); ++e) {
        // Partial sums may be added in another order than the single-device loop's.
        EXPECT_NEAR(g[e], w[e], 1e-4 * (1 + std::abs(w[e]))) << "result " << r << " element " << e;
      }
    }
    return partitioned;
  }

  mlir::MLIRContext context_;
  tessel::runtime::KernelRegistry kernels_ = KernelsWithToy();
};

TEST_F(ExternalRuleTest, RuleComesFromTheExternalModel) {
  // Without the model the op would be opaque to propagation; with it, the rows' split goes
  // from the argument through toy.matmul to the hlo.tanh after it.
  const std::string partitioned = ExpectPartitionedRunMatches(R"mlir(
    tessel.mesh @mesh = <["x"=3]>
    func.func @main(%a: tensor<7x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>},
                    %b: tensor<6x4xf32>) -> tensor<7x4xf32> {
      %c = "toy.matmul"(%a, %b) : (tensor<7x6xf32>, tensor<6x4xf32>) -> tensor<7x4xf32>
      %t = hlo.tanh %c : tensor<7x4xf32>
      return %t : tensor<7x4xf32>
    })mlir");
  // 7 rows on 3 devices: 3 per device, the last padded.
  EXPECT_NE(partitioned.find("\"toy.matmul\"(%arg0, %arg1) : (tensor<3x6xf32>, tensor<6x4xf32>) -> "
                             "tensor<3x4xf32>"),
            std::string::npos)
      << partitioned;
  EXPECT_NE(partitioned.find("-> (tensor<3x4xf32> {tessel.sharding = "
                             "#tessel.sharding<@mesh, [{\"x\"}, {}]>})"),
            std::string::npos)
      << partitioned;
  EXPECT_EQ(partitioned.find("tessel.all_"), std::string::npos) << partitioned;
}

TEST_F(ExternalRuleTest, SplitReductionFactorIsGatheredAndPassThroughStaysSplit) {
  // Rows over "x" (2, on 5 rows: uneven), the contracted dimension over "y" (3). A rule's
  // reduction factor does not say how partial results combine (only dot_general's are
  // known to add up), so the partitioner gathers k over "y" and keeps the rows split: each
  // device computes its rows whole, with no all_reduce.
  const std::string partitioned = ExpectPartitionedRunMatches(R"mlir(
    tessel.mesh @mesh = <["x"=2, "y"=3]>
    func.func @main(%a: tensor<5x96xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {"y"}]>},
                    %b: tensor<96x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"y"}, {}]>})
        -> tensor<5x4xf32> {
      %c = "toy.matmul"(%a, %b) : (tensor<5x96xf32>, tensor<96x4xf32>) -> tensor<5x4xf32>
      return %c : tensor<5x4xf32>
    })mlir");
  EXPECT_NE(partitioned.find("tessel.all_gather %arg0 over @mesh [\"y\"] dim = 1"),
            std::string::npos)
      << partitioned;
  EXPECT_NE(partitioned.find("\"toy.matmul\"(%0, %1) : (tensor<3x96xf32>, tensor<96x4xf32>) -> "
                             "tensor<3x4xf32>"),
            std::string::npos)
      << partitioned;
  EXPECT_EQ(partitioned.find("tessel.all_reduce"), std::string::npos) << partitioned;
}

TEST_F(ExternalRuleTest, OpWithoutTheModelIsOpaque) {
  // The same registry without registerToyShardingRules: propagation stops at the op, so
  // its result stays replicated however the operand is split.
  mlir::MLIRContext context;
  mlir::DialectRegistry registry;
  tessel::registerAllDialects(registry);
  registry.insert<toy::ToyDialect>();
  context.appendDialectRegistry(registry);
  constexpr char kProgram[] = R"mlir(
    tessel.mesh @mesh = <["x"=3]>
    func.func @main(%a: tensor<6x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>},
                    %b: tensor<6x4xf32>) -> tensor<6x4xf32> {
      %c = "toy.matmul"(%a, %b) : (tensor<6x6xf32>, tensor<6x4xf32>) -> tensor<6x4xf32>
      return %c : tensor<6x4xf32>
    })mlir";
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(kProgram, &context);
  ASSERT_TRUE(module);
  mlir::PassManager pm(&context);
  tessel::passes::buildSpmdPipeline(pm, tessel::passes::SpmdPipelineOptions());
  ASSERT_TRUE(mlir::succeeded(pm.run(*module)));
  std::string text;
  llvm::raw_string_ostream os(text);
  module->print(os);
  EXPECT_NE(text.find("-> (tensor<6x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}]>})"),
            std::string::npos)
      << text;
}

}  // namespace
