// `tessel run --check`: partitions the program and checks that its run on every device of
// the mesh gives what the single-device run gave.
#ifndef TESSEL_TOOLS_TESSEL_CHECK_H_
#define TESSEL_TOOLS_TESSEL_CHECK_H_

#include <ostream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "partitioner/ir/partitioned_marker.h"
#include "runtime/run_limits.h"
#include "runtime/tensor.h"
#include "tools/tessel/pipeline.h"
#include "tools/tessel/progress.h"

namespace tessel::cli {

// The float tolerance of --check (--rtol, --atol): an element matches when |got - want| <=
// atol + rtol * |want| + 16 ulps of the largest |want| of its result (tensor_compare.h).
struct CheckTolerance {
  double rtol = 1e-4;
  double atol = 1e-5;
};

// Propagates and partitions a copy of `module` (with the passes `pipeline` asks for), cuts `inputs` into each partition's pieces
// by the partitioned function's argument shardings, runs it on one local partition per mesh
// device, assembles the results by the result shardings and compares them with `expected`
// (the single-device results) with CompareTensors (partitioner/api/tensor_compare.h): bit for
// bit for integers and pred, within `tolerance` for floats.
// Prints one line per result. Fails with FailedPrecondition on a mismatch (naming the
// result and the first differing element) and with the pipeline's error if the program
// cannot be partitioned. The partitions run under `limits` (a stop, a loop limit); `progress`,
// when given, shows the stages.
absl::Status CheckPartitioned(mlir::ModuleOp module, absl::string_view function_name,
                              const std::vector<runtime::Tensor>& inputs,
                              const std::vector<runtime::Tensor>& expected, std::ostream& out,
                              std::ostream& remarks,
                              const PipelineOptions& pipeline = PipelineOptions(),
                              const CheckTolerance& tolerance = CheckTolerance(),
                              const runtime::RunLimits& limits = runtime::RunLimits(),
                              Progress* progress = nullptr);

// Runs the partitioned `function` of `module` on `num_partitions` local partitions: cuts
// each global input into the partition's piece by the function's argument shardings and
// assembles each result, of global shape `result_shapes[r]`, from the partitions' pieces by
// its result sharding. For `tessel run --check` and for running a partitioned file.
absl::StatusOr<std::vector<runtime::Tensor>> RunOnPartitions(
    mlir::ModuleOp module, mlir::func::FuncOp function, int64_t num_partitions,
    const std::vector<runtime::Tensor>& inputs, const std::vector<runtime::Shape>& result_shapes,
    const runtime::RunLimits& limits = runtime::RunLimits());

// The single-device results of `reference`, the program the partitioned `file` came from, on
// the global `inputs`: loads it into `context` (the context of `file`, so that its types
// compare with `mark`'s), checks that its function `function_name` has the global signature
// `mark` gives, and runs it under `limits`. Fails if it does not load, is partitioned too, or
// has another signature. For --check --reference=SOURCE on a partitioned file, with every
// backend.
absl::StatusOr<std::vector<runtime::Tensor>> RunReference(
    const std::string& reference, const std::string& file, const std::string& function_name,
    const ir::PartitionedSignature& mark, const std::vector<runtime::Tensor>& inputs,
    mlir::MLIRContext& context, const runtime::RunLimits& limits = runtime::RunLimits());

// Why --check cannot run on `file`, which carries the partitioned mark, when no
// --reference=SOURCE names the program it came from: there is no single-device program to
// compare with. OK when not checking, not marked, or given a reference. Every backend asks.
absl::Status RequireReferenceToCheck(const std::string& file, bool check, bool marked,
                                     const std::string& reference);

// Compares the assembled results of a partitioned run, `got`, with the single-device
// `expected` by the rules above, printing one line per result to `out`. Fails with
// FailedPrecondition on the first mismatch (a different count, type or shape, or a
// differing element). Shared by every backend's --check.
absl::Status CompareResults(const std::vector<runtime::Tensor>& got,
                            const std::vector<runtime::Tensor>& expected, std::ostream& out,
                            const CheckTolerance& tolerance = CheckTolerance());

}  // namespace tessel::cli

#endif  // TESSEL_TOOLS_TESSEL_CHECK_H_
