// How propagation time grows with program size: generated programs of 1k, 10k and 100k ops
// (blocks of exp, add, dot_general with a shared weight, transpose), with the input and the
// weight annotated. Reported per op, so linear growth shows as a flat time per 1k ops.
//
//   bazel run -c opt //benchmarks:propagation_benchmark
#include <string>

#include "benchmark/benchmark.h"
#include "benchmarks/generated_programs.h"
#include "mlir/IR/MLIRContext.h"
#include "partitioner/ir/parse_module.h"
#include "partitioner/propagation/propagate.h"
#include "partitioner/rules/sharding_rule_models.h"

namespace tessel::propagation {
namespace {

void BM_Propagate(benchmark::State& state) {
  int64_t num_ops = state.range(0);
  std::string text = benchmarks::OpChainProgram(num_ops);
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
