// A stopped run ends inside a long op, not after it: each kernel that can run long (f32 and
// integer products, convolution, sort, gather, scatter, reduce, reduce_window,
// select_and_scatter) polls the run's stop signal between blocks of its work. Each case
// stops the signal as its op starts (a wrapper around the op's kernel, so the timing is
// deterministic) and expects the op itself to fail with the signal's reason: a kernel that
// did not poll would finish the op, and with nothing after it the run would succeed.
// (select_and_scatter's regions run on the interpreter, which also polls before each of
// their ops.)
#include <ostream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "partitioner/ir/parse_module.h"
#include "runtime/interpreter.h"
#include "runtime/kernel_registry.h"
#include "runtime/random_inputs.h"
#include "runtime/run_limits.h"

namespace tessel::runtime {
namespace {

using ::testing::HasSubstr;

struct LongOp {
  std::string name;     // the op whose kernel must poll
  std::string program;  // @main, whose last op is `name`
};

void PrintTo(const LongOp& op, std::ostream* os) { *os << op.name; }

std::string Region(const std::string& type, const std::string& body) {
  return absl::StrCat("^bb0(%p: tensor<", type, ">, %q: tensor<", type, ">):\n", body,
                      "\nhlo.return %r : tensor<", type, ">\n}");
}

std::vector<LongOp> LongOps() {
  const std::string addF32 = "%r = hlo.add %p, %q : tensor<f32>";
  return {
      {"hlo.dot_general",
       R"(func.func @main(%a: tensor<256x256xf32>, %b: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %d = hlo.dot_general %a, %b, lhs_contract = [1], rhs_contract = [0] : (tensor<256x256xf32>, tensor<256x256xf32>) -> tensor<256x256xf32>
  return %d : tensor<256x256xf32>
})"},
      {"hlo.dot_general",
       R"(func.func @main(%a: tensor<64x64xi32>, %b: tensor<64x64xi32>) -> tensor<64x64xi32> {
  %d = hlo.dot_general %a, %b, lhs_contract = [1], rhs_contract = [0] : (tensor<64x64xi32>, tensor<64x64xi32>) -> tensor<64x64xi32>
  return %d : tensor<64x64xi32>
})"},
      {"hlo.convolution",
       R"(func.func @main(%x: tensor<2x32x32x8xf32>, %k: tensor<3x3x8x8xf32>) -> tensor<2x30x30x8xf32> {
  %c = hlo.convolution %x, %k, dims = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f] : (tensor<2x32x32x8xf32>, tensor<3x3x8x8xf32>) -> tensor<2x30x30x8xf32>
  return %c : tensor<2x30x30x8xf32>
})"},
      {"hlo.convolution",
       R"(func.func @main(%x: tensor<2x32x32x8xi32>, %k: tensor<3x3x8x8xi32>) -> tensor<2x30x30x8xi32> {
  %c = hlo.convolution %x, %k, dims = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f] : (tensor<2x32x32x8xi32>, tensor<3x3x8x8xi32>) -> tensor<2x30x30x8xi32>
  return %c : tensor<2x30x30x8xi32>
})"},
      {"hlo.sort",
       absl::StrCat(R"(func.func @main(%x: tensor<8x1024xf32>) -> tensor<8x1024xf32> {
  %s = hlo.sort(%x) dimension = 1 is_stable : tensor<8x1024xf32> comparator {
^bb0(%a: tensor<f32>, %b: tensor<f32>):
  %lt = hlo.compare LT, %a, %b : tensor<f32>
  hlo.return %lt : tensor<i1>
}
  return %s : tensor<8x1024xf32>
})")},
      {"hlo.gather",
       R"(func.func @main(%t: tensor<64x64xf32>, %ids: tensor<8192xi32>) -> tensor<8192x64xf32> {
  %g = hlo.gather %t[%ids], slice_sizes = [1, 64], offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1 : (tensor<64x64xf32>, tensor<8192xi32>) -> tensor<8192x64xf32>
  return %g : tensor<8192x64xf32>
})"},
      {"hlo.scatter",
       absl::StrCat(R"(func.func @main(%x: tensor<64xf32>, %idx: tensor<8192x1xi32>, %u: tensor<8192xf32>) -> tensor<64xf32> {
  %r0 = hlo.scatter(%x) indices(%idx) updates(%u), inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 : (tensor<64xf32>, tensor<8192x1xi32>, tensor<8192xf32>) -> tensor<64xf32> update {
)",
                    Region("f32", addF32), R"(
  return %r0 : tensor<64xf32>
})")},
      {"hlo.reduce",
       absl::StrCat(R"(func.func @main(%x: tensor<128x1024xf32>) -> tensor<128xf32> {
  %z = hlo.constant dense<0.0> : tensor<f32>
  %r0 = hlo.reduce(%x) init(%z) dimensions = [1] : (tensor<128x1024xf32>, tensor<f32>) -> tensor<128xf32> reducer {
)",
                    Region("f32", addF32), R"(
  return %r0 : tensor<128xf32>
})")},
      {"hlo.reduce_window",
       absl::StrCat(R"(func.func @main(%x: tensor<256x256xf32>) -> tensor<254x254xf32> {
  %z = hlo.constant dense<0.0> : tensor<f32>
  %r0 = hlo.reduce_window(%x) init(%z) window_dimensions = [3, 3] : (tensor<256x256xf32>, tensor<f32>) -> tensor<254x254xf32> reducer {
)",
                    Region("f32", addF32), R"(
  return %r0 : tensor<254x254xf32>
})")},
      {"hlo.select_and_scatter",
       absl::StrCat(R"(func.func @main(%x: tensor<128x128xf32>, %s: tensor<126x126xf32>) -> tensor<128x128xf32> {
  %z = hlo.constant dense<0.0> : tensor<f32>
  %r0 = hlo.select_and_scatter(%x, %s, %z) window_dimensions = [3, 3] : (tensor<128x128xf32>, tensor<126x126xf32>, tensor<f32>) -> tensor<128x128xf32> select {
^bb0(%p: tensor<f32>, %q: tensor<f32>):
  %r = hlo.compare GE, %p, %q : tensor<f32>
  hlo.return %r : tensor<i1>
} scatter {
)",
                    Region("f32", addF32), R"(
  return %r0 : tensor<128x128xf32>
})")},
  };
}

class StopPollingTest : public ::testing::TestWithParam<LongOp> {
 protected:
  // Runs @main with inputs in [0, 8) (valid indices for the gathers and scatters); with
  // `stop`, the op's kernel stops the run's signal as it starts.
  absl::StatusOr<std::vector<Tensor>> Run(bool stop) {
    mlir::MLIRContext context;
    absl::StatusOr<mlir::OwningOpRef<mlir::ModuleOp>> module =
        ParseModule(GetParam().program, "long.mlir", context);
    if (!module.ok()) return module.status();
    auto main = (*module)->lookupSymbol<mlir::func::FuncOp>("main");
    std::vector<Tensor> inputs;
    for (auto [i, type] : llvm::enumerate(main.getArgumentTypes())) {
      auto tensor = llvm::cast<mlir::RankedTensorType>(type);
      absl::StatusOr<ElementType> element = ElementTypeFromMlir(tensor.getElementType());
      if (!element.ok()) return element.status();
      Tensor values = RandomTensor(ElementType::kS32, Shape(tensor.getShape().begin(),
                                                             tensor.getShape().end()),
                                   i + 1);
      Tensor converted = Tensor::Zeros(*element, values.shape());
      for (int64_t e = 0; e < values.num_elements(); ++e) {
        const int32_t v = values.data<int32_t>()[e] & 7;
        if (*element == ElementType::kF32) converted.data<float>()[e] = static_cast<float>(v);
        if (*element == ElementType::kS32) converted.data<int32_t>()[e] = v;
      }
      inputs.push_back(std::move(converted));
    }
    KernelRegistry registry = DefaultKernelRegistry();
    const Kernel real = *registry.Find(GetParam().name);
    registry.Register(GetParam().name, [&](mlir::Operation* op, KernelArgs args) {
      if (stop) signal_.Stop(absl::DeadlineExceededError("the run's timeout has passed"));
      return real(op, args);
    });
    Interpreter interpreter(registry, PartitionContext{}, RunLimits{&signal_, 0});
    return interpreter.RunFunction(main, inputs);
  }

  StopSignal signal_;
};

TEST_P(StopPollingTest, RunsWhenNotStopped) {
  absl::StatusOr<std::vector<Tensor>> results = Run(/*stop=*/false);
  EXPECT_TRUE(results.ok()) << results.status();
}

TEST_P(StopPollingTest, StopsInsideTheOp) {
  absl::StatusOr<std::vector<Tensor>> results = Run(/*stop=*/true);
  ASSERT_FALSE(results.ok()) << GetParam().name << " ran to the end after its run stopped";
  EXPECT_EQ(results.status().code(), absl::StatusCode::kDeadlineExceeded);
  EXPECT_THAT(std::string(results.status().message()), HasSubstr(GetParam().name));
  EXPECT_THAT(std::string(results.status().message()),
              HasSubstr("the run's timeout has passed"));
}

INSTANTIATE_TEST_SUITE_P(
    LongKernels, StopPollingTest, ::testing::ValuesIn(LongOps()),
    [](const ::testing::TestParamInfo<LongOp>& info) {
      std::string name = absl::StrReplaceAll(info.param.name, {{"hlo.", ""}});
      return absl::StrCat(name, "_", info.index);
    });

}  // namespace
}  // namespace tessel::runtime
