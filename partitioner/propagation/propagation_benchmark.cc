// How propagation time grows with program size: generated programs of 1k, 10k and 100k ops
// (blocks of exp, add, dot_general with a shared weight, transpose), with the input and the
// weight annotated. Reported per op, so linear growth shows as a flat time per 1k ops.
//
//   bazel run -c opt //partitioner/propagation:propagation_benchmark
#include <string>

#include "absl/strings/str_cat.h"
#include "benchmark/benchmark.h"
#include "mlir/IR/MLIRContext.h"
#include "partitioner/ir/parse_module.h"
#include "partitioner/propagation/propagate.h"
#include "partitioner/rules/sharding_rule_models.h"

namespace tessel::propagation {
namespace {

constexpr int kOpsPerBlock = 4;

std::string GenerateProgram(int64_t num_ops) {
  std::string text = R"(
tessel.mesh @mesh = <["data"=4, "model"=2]>
func.func @main(%x: tensor<64x64xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>},
                %w: tensor<64x64xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {"model"}]>})
    -> tensor<64x64xf32> {
)";
  std::string previous = "%x";
  for (int64_t block = 0; block < num_ops / kOpsPerBlock; ++block) {
    absl::StrAppend(&text, "  %e", block, " = hlo.exp ", previous, " : tensor<64x64xf32>\n",
                    "  %a", block, " = hlo.add %e", block, ", ", previous,
                    " : tensor<64x64xf32>\n", "  %d", block, " = hlo.dot_general %a", block,
                    ", %w, lhs_contract = [1], rhs_contract = [0] : (tensor<64x64xf32>, "
                    "tensor<64x64xf32>) -> tensor<64x64xf32>\n",
                    "  %t", block, " = hlo.transpose %d", block,
                    ", permutation = [1, 0] : (tensor<64x64xf32>) -> tensor<64x64xf32>\n");
    previous = absl::StrCat("%t", block);
  }
  absl::StrAppend(&text, "  return ", previous, " : tensor<64x64xf32>\n}\n");
  return text;
}

void BM_Propagate(benchmark::State& state) {
  int64_t num_ops = state.range(0);
  std::string text = GenerateProgram(num_ops);
  mlir::DialectRegistry registry;
  rules::registerShardingRuleModels(registry);
  mlir::MLIRContext context(registry);
  context.disableMultithreading();
  for (auto _ : state) {
    state.PauseTiming();
    auto module = ParseModule(text, "generated.mlir", context);
    if (!module.ok()) {
      state.SkipWithError("generated program does not parse");
      return;
    }
    state.ResumeTiming();
    bool ok = mlir::succeeded(propagateShardings(**module, PropagationOptions(), nullptr));
    benchmark::DoNotOptimize(ok);
  }
  // items_per_second is ops per second; docs/benchmarks.md turns it into ms per 1k ops.
  state.SetItemsProcessed(state.iterations() * num_ops);
}
BENCHMARK(BM_Propagate)->Arg(1000)->Arg(10000)->Arg(100000)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace tessel::propagation
