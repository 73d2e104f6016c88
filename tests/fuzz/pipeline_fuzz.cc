// Fuzz target: the whole pipeline on small programs, judged by the executor. A mutated
// program that still parses, verifies and runs on one device must partition into a program
// that verifies and computes the same results on every device count its mesh gives; the
// partitioner may refuse a program only with an error. This is the differential check of
// tests/differential/ applied to inputs the program generator would never write.
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "partitioner/ir/parse_module.h"
#include "partitioner/ir/tessel/tessel_ops.h"
#include "runtime/tensor.h"
#include "tests/differential/partition_harness.h"
#include "tests/differential/program_reducer.h"
#include "tests/fuzz/fuzz_targets.h"

namespace tessel::fuzz {
namespace {

constexpr int64_t kMaxElements = 4096;     // per value
constexpr int64_t kMaxDevices = 16;        // per mesh
constexpr int64_t kMaxOps = 256;
constexpr int64_t kMaxWhileIterations = 64;
constexpr int64_t kMemoryLimitBytes = int64_t{1} << 30;

// Whether every value of `module` is small and every mesh has few devices, so that both runs
// take milliseconds whatever the mutator wrote.
bool SmallEnough(mlir::ModuleOp module) {
  bool small = true;
  int64_t ops = 0;
  auto small_type = [](mlir::Type type) {
    auto tensor = mlir::dyn_cast<mlir::RankedTensorType>(type);
    if (!tensor) return true;  // tokens, tuples of nothing large: the kernels check the rest
    if (!tensor.hasStaticShape()) return false;
    int64_t elements = 1;
    for (int64_t dim : tensor.getShape()) {
      if (dim > kMaxElements) return false;
      elements *= dim;  // each factor <= 4096 and the product checked at every step
      if (elements > kMaxElements) return false;
    }
    return true;
  };
  module->walk([&](mlir::Operation* op) {
    if (++ops > kMaxOps) small = false;
    if (auto mesh = mlir::dyn_cast<ir::MeshOp>(op)) {
      if (mesh.getMesh().getTotalSize() > kMaxDevices) small = false;
    }
    for (mlir::Type type : op->getResultTypes()) small = small && small_type(type);
    for (mlir::Region& region : op->getRegions()) {
      for (mlir::Block& block : region) {
        for (mlir::Type type : block.getArgumentTypes()) small = small && small_type(type);
      }
    }
  });
  return small;
}

}  // namespace

PipelineVerdict CheckPipeline(const std::string& text) {
  testing::CaseOptions options;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    if (!absl::ConsumePrefix(&line, "// options:")) continue;
    absl::StatusOr<testing::CaseOptions> parsed = testing::ParseCaseOptions(std::string(line));
    if (!parsed.ok()) return PipelineVerdict::kSkipped;
    options = *parsed;
  }
  if (!CheckMlirNesting(text, "fuzz.mlir").ok()) return PipelineVerdict::kSkipped;
  {
    mlir::DialectRegistry registry;
    RegisterTesselDialects(registry);
    mlir::MLIRContext context(registry, mlir::MLIRContext::Threading::DISABLED);
    mlir::ScopedDiagnosticHandler quiet(&context, [](mlir::Diagnostic&) { return mlir::success(); });
    auto module = ParseModule(text, "fuzz.mlir", context);
    if (!module.ok() || !SmallEnough(**module)) return PipelineVerdict::kSkipped;
  }
  runtime::SetMemoryLimit(kMemoryLimitBytes);
  absl::StatusOr<std::vector<runtime::Tensor>> inputs =
      testing::SmallIntegerInputs(text, options.input_seed);
  if (!inputs.ok()) return PipelineVerdict::kSkipped;
  testing::HarnessOptions harness = testing::ToHarnessOptions(options);
  harness.max_while_iterations = kMaxWhileIterations;
  testing::PartitionedRun run = testing::CheckPartitionedRun(text, *inputs, harness);
  if (run.status.ok()) return PipelineVerdict::kPassed;
  // A program that does not run on one device, or that the partitioner refuses with an
  // error, is rejected input. What fails after partitioning succeeded is a finding.
  for (const char* rejected : {"parse", "reference", "propagate", "partition"}) {
    if (run.failed_stage == rejected) return PipelineVerdict::kRejected;
  }
  Finding("pipeline", std::string(run.status.message()).c_str());
}

int FuzzPipeline(const uint8_t* data, size_t size) {
  CheckPipeline(std::string(reinterpret_cast<const char*>(data), size));
  return 0;
}

}  // namespace tessel::fuzz
