// Partitioning time (--tessel-partition after propagation, parsing and propagation not
// timed):
//   - BM_PartitionDevices/N: a 4-layer Megatron MLP on a data x model mesh of N = 8, 64, 512
//     and 4096 devices. Offsets come from tables indexed by partition_id, so the program and
//     the time should not grow with N; `ops` counts the partitioned program's ops and
//     `table_entries` the elements of its constants (offset tables among them).
//   - BM_PartitionDevicesWithTables/N: the same MLP with each layer's output made whole, so
//     every layer needs offset tables of N entries.
//   - BM_PartitionOps/N: the generated op chains of 1k, 10k and 100k ops that the propagation
//     benchmark uses, reported per op.
//
//   bazel run -c opt //benchmarks:partition_benchmark
#include <string>

#include "benchmark/benchmark.h"
#include "benchmarks/generated_programs.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/MLIRContext.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/ir/parse_module.h"
#include "partitioner/propagation/propagate.h"
#include "partitioner/rules/sharding_rule_models.h"
#include "partitioner/spmd/partition.h"

namespace tessel::benchmarks {
namespace {

// Times partitionModule on freshly parsed and propagated copies of `text`.
void PartitionLoop(benchmark::State& state, const std::string& text) {
  mlir::DialectRegistry registry;
  rules::registerShardingRuleModels(registry);
  mlir::MLIRContext context(registry);
  context.disableMultithreading();
  int64_t ops = 0, table_entries = 0;
  for (auto _ : state) {
    state.PauseTiming();
    auto module = ParseModule(text, "generated.mlir", context);
    if (!module.ok() ||
        mlir::failed(propagation::propagateShardings(**module, propagation::PropagationOptions(),
                                                     nullptr))) {
      state.SkipWithError("the generated program does not parse or propagate");
      return;
    }
    state.ResumeTiming();
    if (mlir::failed(spmd::partitionModule(**module))) {
      state.SkipWithError("the generated program does not partition");
      return;
    }
    state.PauseTiming();
    ops = 0;
    table_entries = 0;
    (*module)->walk([&](mlir::Operation* op) {
      ++ops;
      if (auto constant = llvm::dyn_cast<hlo::ConstantOp>(op)) {
        table_entries += llvm::cast<mlir::ShapedType>(constant.getType()).getNumElements();
      }
    });
    state.ResumeTiming();
  }
  state.counters["ops"] = static_cast<double>(ops);
  state.counters["table_entries"] = static_cast<double>(table_entries);
}

void BM_PartitionDevices(benchmark::State& state) {
  const int64_t devices = state.range(0);
  const int64_t model = 8;
  PartitionLoop(state, MegatronMlpProgram(devices / model, model, /*layers=*/4));
}
BENCHMARK(BM_PartitionDevices)
    ->Arg(8)
    ->Arg(64)
    ->Arg(512)
    ->Arg(4096)
    ->Unit(benchmark::kMillisecond);

// The same with every layer's output made whole, so every layer cuts its shard again through
// a table of N entries: the one part of the program that grows with the device count.
void BM_PartitionDevicesWithTables(benchmark::State& state) {
  const int64_t devices = state.range(0);
  const int64_t model = 8;
  PartitionLoop(state, MegatronMlpProgram(devices / model, model, /*layers=*/4,
                                          /*replicate_between=*/true));
}
BENCHMARK(BM_PartitionDevicesWithTables)
    ->Arg(8)
    ->Arg(64)
    ->Arg(512)
    ->Arg(4096)
    ->Unit(benchmark::kMillisecond);

void BM_PartitionOps(benchmark::State& state) {
  const int64_t num_ops = state.range(0);
  PartitionLoop(state, OpChainProgram(num_ops));
  // items_per_second is ops per second; docs/benchmarks.md turns it into ms per 1k ops.
  state.SetItemsProcessed(state.iterations() * num_ops);
}
BENCHMARK(BM_PartitionOps)->Arg(1000)->Arg(10000)->Arg(100000)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace tessel::benchmarks
