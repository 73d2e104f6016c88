// Throughput of the reference executor next to the libraries it builds on, measured in the
// same binary on the same sizes: dot_general and convolution (f32) against Eigen's tensor
// contraction and image patches called directly, and an elementwise hlo.add against memcpy
// (and against the same add on Eigen arrays, to separate the executor's cost from the
// loop's). Sort, depthwise convolution and reduce_window run alone: their figures are
// compared with the same file built against older kernels (docs/benchmarks.md).
//
//   bazel run -c opt //benchmarks:executor_benchmark
//
// FLOP/s counts 2 flops per multiply-add. The hlo.add bytes are its two inputs and its
// output (3 buffers); memcpy's are its source and destination (2 buffers). The executor
// figures include what the executor really does per run: checking and binding arguments,
// dispatching the op, transposing and converting operands where their layout or type
// differs from the kernel's, and allocating results.
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "benchmark/benchmark.h"
#include "mlir/IR/MLIRContext.h"
#include "partitioner/ir/parse_module.h"
#include "runtime/interpreter.h"
#include "runtime/kernel_test_util.h"
#include "runtime/kernels/linalg_utils.h"
#include "runtime/tensor.h"
#include "unsupported/Eigen/CXX11/Tensor"

namespace tessel::runtime {
namespace {

// A parsed program whose @main runs on fixed arguments.
class Program {
 public:
  Program(const std::string& text, std::vector<Tensor> args) : args_(std::move(args)) {
    auto module = ParseModule(text, "benchmark.mlir", context_);
    if (!module.ok()) {
      std::cerr << module.status() << "\n";
      std::abort();
    }
    module_ = *std::move(module);
  }

  Tensor Run() {
    auto results = interpreter_.RunFunction(
        module_->lookupSymbol<mlir::func::FuncOp>("main"), args_);
    if (!results.ok()) {
      std::cerr << results.status() << "\n";
      std::abort();
    }
    // Moved, not copied: the copy would be the benchmark's cost, not the executor's.
    return std::move((*results)[0]);
  }

 private:
  mlir::MLIRContext context_;
  mlir::OwningOpRef<mlir::ModuleOp> module_;
  Interpreter interpreter_;
  std::vector<Tensor> args_;
};

Tensor Ramp(Shape shape) {
  std::vector<float> values(NumElements(shape));
  for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<float>(i % 13) * 0.25f - 1.5f;
  return Tensor::FromVector<float>(std::move(shape), values);
}

void SetFlops(benchmark::State& state, double flops_per_iteration) {
  state.counters["FLOP/s"] =
      benchmark::Counter(flops_per_iteration, benchmark::Counter::kIsIterationInvariantRate);
}

// --- dot_general: [n, n] x [n, n] ---

void BM_DotExecutor(benchmark::State& state) {
  int64_t n = state.range(0);
  std::string t = absl::StrCat("tensor<", n, "x", n, "xf32>");
  Program program(absl::StrCat("func.func @main(%a: ", t, ", %b: ", t, ") -> ", t, " {\n",
                               "%r = hlo.dot_general %a, %b, lhs_contract = [1], "
                               "rhs_contract = [0] : (",
                               t, ", ", t, ") -> ", t, "\nreturn %r : ", t, "\n}"),
                  {Ramp({n, n}), Ramp({n, n})});
  for (auto _ : state) benchmark::DoNotOptimize(program.Run());
  SetFlops(state, 2.0 * n * n * n);
}
// Wall time: large products run on the executor's thread pool, whose work the main thread's
// CPU time would not count.
BENCHMARK(BM_DotExecutor)->Arg(128)->Arg(256)->Arg(512)->Arg(1024)->UseRealTime()->Unit(
    benchmark::kMillisecond);

void BM_DotEigen(benchmark::State& state) {
  int64_t n = state.range(0);
  Tensor a = Ramp({n, n}), b = Ramp({n, n});
  std::vector<float> out(n * n);
  using Matrix = Eigen::TensorMap<const Eigen::Tensor<float, 2, Eigen::RowMajor>>;
  Matrix lhs(a.data<float>().data(), n, n), rhs(b.data<float>().data(), n, n);
  Eigen::TensorMap<Eigen::Tensor<float, 2, Eigen::RowMajor>> result(out.data(), n, n);
  Eigen::array<Eigen::IndexPair<Eigen::Index>, 1> contract = {
      Eigen::IndexPair<Eigen::Index>(1, 0)};
  for (auto _ : state) {
    result = lhs.contract(rhs, contract);
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  SetFlops(state, 2.0 * n * n * n);
}
BENCHMARK(BM_DotEigen)->Arg(128)->Arg(256)->Arg(512)->Arg(1024)->UseRealTime()->Unit(
    benchmark::kMillisecond);

// The f32 product alone (no interpreter) on each instruction set the CPU has, with the
// executor's threading: BM_DotIsa/<isa>/<n>, isa 0 baseline (Eigen, SSE2), 1 AVX2 + FMA,
// 2 AVX-512. Timed twice: wall time, and the CPU time of every thread of the process (its
// rate is per core-second, which other load on a shared machine changes much less).
void BM_DotIsa(benchmark::State& state) {
  const auto isa = static_cast<MatMulIsa>(state.range(0));
  const int64_t n = state.range(1);
  if (!CpuSupports(isa)) {
    state.SkipWithError("not on this CPU");
    return;
  }
  state.SetLabel(MatMulIsaName(isa));
  Tensor a = Ramp({n, n}), b = Ramp({n, n});
  std::vector<float> out(n * n);
  for (auto _ : state) {
    MatMulWithIsa(isa, a.data<float>().data(), b.data<float>().data(), out.data(), n, n, n);
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  SetFlops(state, 2.0 * n * n * n);
}
BENCHMARK(BM_DotIsa)
    ->ArgsProduct({{0, 1, 2}, {128, 256, 512, 1024}})
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_DotIsa)
    ->Name("BM_DotIsaCpu")
    ->ArgsProduct({{0, 1, 2}, {128, 256, 512, 1024}})
    ->MeasureProcessCPUTime()
    ->Unit(benchmark::kMillisecond);

// --- convolution: NHWC input [batch, size, size, features], 3x3 HWIO kernel to the same
// number of output features, stride 1, padding 1 ("same") ---

struct ConvSize {
  int64_t batch, size, features;
};
constexpr ConvSize kConvSizes[] = {{1, 32, 16}, {1, 56, 64}, {8, 28, 128}};

double ConvFlops(const ConvSize& c) {
  return 2.0 * c.batch * c.size * c.size * c.features * 9 * c.features;
}

std::string ConvProgram(const ConvSize& c) {
  std::string x = absl::StrCat("tensor<", c.batch, "x", c.size, "x", c.size, "x", c.features,
                               "xf32>");
  std::string k = absl::StrCat("tensor<3x3x", c.features, "x", c.features, "xf32>");
  return absl::StrCat("func.func @main(%x: ", x, ", %k: ", k, ") -> ", x, " {\n",
                      "%r = hlo.convolution %x, %k, dims = [b, 0, 1, f]x[0, 1, i, o]->"
                      "[b, 0, 1, f], padding = [[1, 1], [1, 1]] : (",
                      x, ", ", k, ") -> ", x, "\nreturn %r : ", x, "\n}");
}

// Eigen's own convolution recipe: image patches, then one contraction with the kernel.
// Eigen names the dimensions of a row-major image [batch, cols, rows, depth], so for NHWC
// data its "rows" are our width; its patches come out [batch, patch, kh, kw, depth], the
// order of an HWIO kernel's rows.
void EigenConv(const ConvSize& c, const float* x, const float* k, float* y) {
  Eigen::TensorMap<const Eigen::Tensor<float, 4, Eigen::RowMajor>> input(
      x, c.batch, c.size, c.size, c.features);
  Eigen::TensorMap<const Eigen::Tensor<float, 2, Eigen::RowMajor>> kernel(k, 9 * c.features,
                                                                          c.features);
  Eigen::TensorMap<Eigen::Tensor<float, 2, Eigen::RowMajor>> output(
      y, c.batch * c.size * c.size, c.features);
  Eigen::array<Eigen::Index, 2> patchShape = {c.batch * c.size * c.size, 9 * c.features};
  Eigen::array<Eigen::IndexPair<Eigen::Index>, 1> contract = {
      Eigen::IndexPair<Eigen::Index>(1, 0)};
  output = input.extract_image_patches(3, 3, 1, 1, 1, 1, Eigen::PADDING_SAME)
               .reshape(patchShape)
               .contract(kernel, contract);
}

void BM_ConvExecutor(benchmark::State& state) {
  const ConvSize& c = kConvSizes[state.range(0)];
  Program program(ConvProgram(c), {Ramp({c.batch, c.size, c.size, c.features}),
                                   Ramp({3, 3, c.features, c.features})});
  for (auto _ : state) benchmark::DoNotOptimize(program.Run());
  SetFlops(state, ConvFlops(c));
  state.SetLabel(absl::StrCat(c.batch, "x", c.size, "x", c.size, "x", c.features));
}
BENCHMARK(BM_ConvExecutor)->DenseRange(0, 2)->Unit(benchmark::kMillisecond);

void BM_ConvEigen(benchmark::State& state) {
  const ConvSize& c = kConvSizes[state.range(0)];
  Tensor x = Ramp({c.batch, c.size, c.size, c.features});
  Tensor k = Ramp({3, 3, c.features, c.features});
  std::vector<float> y(c.batch * c.size * c.size * c.features);
  // The two must compute the same thing for the comparison to mean anything.
  Tensor expected = Program(ConvProgram(c), {x, k}).Run();
  EigenConv(c, x.data<float>().data(), k.data<float>().data(), y.data());
  for (size_t i = 0; i < y.size(); ++i) {
    float e = expected.data<float>()[i];
    if (std::abs(y[i] - e) > 1e-3f * (1.0f + std::abs(e))) {
      state.SkipWithError("Eigen and the executor disagree");
      return;
    }
  }
  for (auto _ : state) {
    EigenConv(c, x.data<float>().data(), k.data<float>().data(), y.data());
    benchmark::DoNotOptimize(y.data());
    benchmark::ClobberMemory();
  }
  SetFlops(state, ConvFlops(c));
  state.SetLabel(absl::StrCat(c.batch, "x", c.size, "x", c.size, "x", c.features));
}
BENCHMARK(BM_ConvEigen)->DenseRange(0, 2)->Unit(benchmark::kMillisecond);

// --- sort of [n, n] f32 rows along dimension 1. Key: `a < b`, and JAX's comparator (NaN
// and -0 canonicalized, then a total-order less-than), both recognised as a key
// comparison and sorted natively. PerComparison: JAX's comparator ANDed with a constant
// true, which the kernel evaluates on scalars once per comparison. Interpreted: with one
// unused exp, which keeps the region on the interpreter ---

enum class SortComparator { kLess, kJax, kPerComparison, kInterpreted };

std::string SortProgram(int64_t n, SortComparator comparator) {
  const std::string t = absl::StrCat("tensor<", n, "x", n, "xf32>");
  std::string body;
  switch (comparator) {
    case SortComparator::kLess:
      body = "  %lt = hlo.compare LT, %a, %b : tensor<f32>\n";
      break;
    case SortComparator::kJax:
      body = JaxSortKeyBody(false);
      break;
    case SortComparator::kPerComparison:
      body = absl::StrCat(JaxSortKeyBody(false),
                          "  %true = hlo.constant dense<true> : tensor<i1>\n",
                          "  %lt2 = hlo.and %lt, %true : tensor<i1>\n");
      break;
    case SortComparator::kInterpreted:
      body = JaxSortKeyBody(true);
      break;
  }
  const std::string result = comparator == SortComparator::kPerComparison ? "%lt2" : "%lt";
  return absl::StrCat("func.func @main(%x: ", t, ") -> ", t, " {\n",
                      "%s = hlo.sort(%x) dimension = 1 is_stable : ", t, " comparator {\n",
                      "^bb0(%a: tensor<f32>, %b: tensor<f32>):\n", body,
                      "  hlo.return ", result, " : tensor<i1>\n", "}\nreturn %s : ", t, "\n}");
}

// Rows of distinct-enough values in a scrambled order, so that the sort has work to do.
Tensor Scrambled(Shape shape) {
  std::vector<float> values(NumElements(shape));
  for (size_t i = 0; i < values.size(); ++i) {
    values[i] = static_cast<float>((i * 2654435761u) % 1000003) * 0.001f - 500.0f;
  }
  return Tensor::FromVector<float>(std::move(shape), values);
}

void BM_Sort(benchmark::State& state, SortComparator comparator) {
  const int64_t n = state.range(0);
  Program program(SortProgram(n, comparator), {Scrambled({n, n})});
  for (auto _ : state) benchmark::DoNotOptimize(program.Run());
  state.SetItemsProcessed(state.iterations() * n * n);
}
BENCHMARK_CAPTURE(BM_Sort, Key, SortComparator::kLess)->Arg(256)->Arg(1024)->Unit(
    benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Sort, JaxKey, SortComparator::kJax)->Arg(256)->Arg(1024)->Unit(
    benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Sort, PerComparison, SortComparator::kPerComparison)->Arg(256)->Arg(1024)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Sort, Interpreted, SortComparator::kInterpreted)->Arg(256)->Unit(
    benchmark::kMillisecond);

// --- depthwise convolution: [batch, length, 1, features] NWHC input, a [taps, 1, 1,
// features] kernel, feature_group_count = features, "same" padding; the shape of a
// spatially split 1-D depthwise layer ---

struct DepthwiseSize {
  int64_t batch, length, features, taps;
};
constexpr DepthwiseSize kDepthwiseSizes[] = {{4, 201, 256, 3}, {4, 201, 256, 65}};

void BM_DepthwiseConvExecutor(benchmark::State& state) {
  const DepthwiseSize& c = kDepthwiseSizes[state.range(0)];
  const std::string x = absl::StrCat("tensor<", c.batch, "x", c.length, "x1x", c.features,
                                     "xf32>");
  const std::string k = absl::StrCat("tensor<", c.taps, "x1x1x", c.features, "xf32>");
  Program program(
      absl::StrCat("func.func @main(%x: ", x, ", %k: ", k, ") -> ", x, " {\n",
                   "%r = hlo.convolution %x, %k, dims = [b, 0, 1, f]x[0, 1, i, o]->"
                   "[b, 0, 1, f], padding = [[", c.taps / 2, ", ", c.taps / 2,
                   "], [0, 0]], feature_group_count = ", c.features, " : (", x, ", ", k,
                   ") -> ", x, "\nreturn %r : ", x, "\n}"),
      {Ramp({c.batch, c.length, 1, c.features}), Ramp({c.taps, 1, 1, c.features})});
  for (auto _ : state) benchmark::DoNotOptimize(program.Run());
  SetFlops(state, 2.0 * c.batch * c.length * c.features * c.taps);
  state.SetLabel(absl::StrCat(c.batch, "x", c.length, "x1x", c.features, ", ", c.taps,
                              " taps"));
}
BENCHMARK(BM_DepthwiseConvExecutor)->DenseRange(0, 1)->Unit(benchmark::kMillisecond);

// --- reduce_window: a 3x3 stride-2 max pool over NHWC [8, 56, 56, 64], and a cumulative
// sum (window = the whole dimension, padded below) along dimension 1 of [2, n, 256] ---

// `body` computes %s from %a and %b.
std::string ReduceWindowBodyProgram(const std::string& in, const std::string& out,
                                    const std::string& init, const std::string& body,
                                    const std::string& clauses) {
  return absl::StrCat("func.func @main(%x: ", in, ") -> ", out, " {\n",
                      "%init = hlo.constant dense<", init, "> : tensor<f32>\n",
                      "%r = hlo.reduce_window(%x) init(%init) ", clauses, " : (", in,
                      ", tensor<f32>) -> ", out, " reducer {\n",
                      "^bb0(%a: tensor<f32>, %b: tensor<f32>):\n", body,
                      "hlo.return %s : tensor<f32>\n}\n", "return %r : ", out, "\n}");
}

std::string ReduceWindowProgram(const std::string& in, const std::string& out,
                                const std::string& init, const std::string& op,
                                const std::string& clauses) {
  return ReduceWindowBodyProgram(in, out, init,
                                 absl::StrCat("%s = ", op, " %a, %b : tensor<f32>\n"), clauses);
}

void BM_MaxPoolExecutor(benchmark::State& state) {
  Program program(ReduceWindowProgram(
                      "tensor<8x56x56x64xf32>", "tensor<8x28x28x64xf32>", "0xFF800000",
                      "hlo.max",
                      "window_dimensions = [1, 3, 3, 1], window_strides = [1, 2, 2, 1], "
                      "padding = [[0, 0], [1, 1], [1, 1], [0, 0]]"),
                  {Ramp({8, 56, 56, 64})});
  for (auto _ : state) benchmark::DoNotOptimize(program.Run());
  state.SetItemsProcessed(state.iterations() * 8 * 28 * 28 * 64);
}
BENCHMARK(BM_MaxPoolExecutor)->Unit(benchmark::kMillisecond);

// The same pool over [2, 56, 56, 16] with reducers of several ops: max then add (run on
// scalars, kernels/scalar_region.h), and the same with an unused exp, which keeps it on the
// interpreter; one max as the native baseline.
enum class PoolReducer { kNative, kScalar, kInterpreted };

void BM_PoolReducer(benchmark::State& state, PoolReducer reducer) {
  std::string body;
  switch (reducer) {
    case PoolReducer::kNative: body = "%s = hlo.max %a, %b : tensor<f32>\n"; break;
    case PoolReducer::kInterpreted: body = "%unused = hlo.exp %a : tensor<f32>\n"; [[fallthrough]];
    case PoolReducer::kScalar:
      body += "%m = hlo.max %a, %b : tensor<f32>\n%s = hlo.add %m, %b : tensor<f32>\n";
      break;
  }
  Program program(ReduceWindowBodyProgram(
                      "tensor<2x56x56x16xf32>", "tensor<2x28x28x16xf32>", "0.0", body,
                      "window_dimensions = [1, 3, 3, 1], window_strides = [1, 2, 2, 1], "
                      "padding = [[0, 0], [1, 1], [1, 1], [0, 0]]"),
                  {Ramp({2, 56, 56, 16})});
  for (auto _ : state) benchmark::DoNotOptimize(program.Run());
  state.SetItemsProcessed(state.iterations() * 2 * 28 * 28 * 16);
}
BENCHMARK_CAPTURE(BM_PoolReducer, Native, PoolReducer::kNative)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_PoolReducer, Scalar, PoolReducer::kScalar)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_PoolReducer, Interpreted, PoolReducer::kInterpreted)
    ->Unit(benchmark::kMillisecond);

void BM_CumulativeSumExecutor(benchmark::State& state) {
  const int64_t n = state.range(0);
  const std::string t = absl::StrCat("tensor<2x", n, "x256xf32>");
  Program program(ReduceWindowProgram(t, t, "0.0", "hlo.add",
                                      absl::StrCat("window_dimensions = [1, ", n,
                                                   ", 1], padding = [[0, 0], [", n - 1,
                                                   ", 0], [0, 0]]")),
                  {Ramp({2, n, 256})});
  for (auto _ : state) benchmark::DoNotOptimize(program.Run());
  state.SetItemsProcessed(state.iterations() * 2 * n * 256);
}
BENCHMARK(BM_CumulativeSumExecutor)->Arg(201)->Unit(benchmark::kMillisecond);

// --- elementwise add of n f32 elements against memcpy of the same buffer ---

void BM_AddExecutor(benchmark::State& state) {
  int64_t n = state.range(0);
  std::string t = absl::StrCat("tensor<", n, "xf32>");
  Program program(absl::StrCat("func.func @main(%a: ", t, ", %b: ", t, ") -> ", t, " {\n",
                               "%r = hlo.add %a, %b : ", t, "\nreturn %r : ", t, "\n}"),
                  {Ramp({n}), Ramp({n})});
  for (auto _ : state) benchmark::DoNotOptimize(program.Run());
  state.SetBytesProcessed(state.iterations() * 3 * n * static_cast<int64_t>(sizeof(float)));
}
// Wall time: from 2^18 elements on the add runs on the kernels' thread pool.
BENCHMARK(BM_AddExecutor)->RangeMultiplier(8)->Range(1 << 16, 1 << 24)->UseRealTime();

// The same add written directly on Eigen arrays, into an output buffer reused across
// iterations: the speed the kernel could reach without the executor around it, with the
// same instruction set (the build targets baseline x86-64, so SSE2).
void BM_AddEigen(benchmark::State& state) {
  int64_t n = state.range(0);
  Tensor a = Ramp({n}), b = Ramp({n});
  std::vector<float> out(n);
  using ConstArray = Eigen::Map<const Eigen::ArrayXf>;
  ConstArray x(a.data<float>().data(), n), y(b.data<float>().data(), n);
  Eigen::Map<Eigen::ArrayXf> result(out.data(), n);
  for (auto _ : state) {
    result = x + y;
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * 3 * n * static_cast<int64_t>(sizeof(float)));
}
BENCHMARK(BM_AddEigen)->RangeMultiplier(8)->Range(1 << 16, 1 << 24);

void BM_Memcpy(benchmark::State& state) {
  int64_t n = state.range(0);
  std::vector<float> src(n, 1.0f), dst(n);
  for (auto _ : state) {
    std::memcpy(dst.data(), src.data(), n * sizeof(float));
    benchmark::DoNotOptimize(dst.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * 2 * n * static_cast<int64_t>(sizeof(float)));
}
BENCHMARK(BM_Memcpy)->RangeMultiplier(8)->Range(1 << 16, 1 << 24);

}  // namespace
}  // namespace tessel::runtime
