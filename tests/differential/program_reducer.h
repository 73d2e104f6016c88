// Shrinks a program on which the differential check fails to a small one that fails at the
// same stage (a wrong result stays a wrong result, a partitioning error stays one): it drops
// results, replaces ops by an operand of the same type or by a new argument, removes
// shardings and constraints, removes mesh axes and makes them smaller, makes tensor
// dimensions smaller (one size at a time, everywhere it occurs), and turns off the
// partitioner options the failure does not need, for as long as any of these keeps the
// failure. Inputs are drawn afresh for each attempt (SmallIntegerInputs), so the reduced
// program is a reproducer by itself.
//
//   ReducedCase reduced = ReduceFailure(program_text, options);
//   WriteRegressionCase(reduced, "tests/differential/regressions/dot_mask.mlir", title);
#ifndef TESSEL_TESTS_DIFFERENTIAL_PROGRAM_REDUCER_H_
#define TESSEL_TESTS_DIFFERENTIAL_PROGRAM_REDUCER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "runtime/tensor.h"
#include "tests/differential/partition_harness.h"

namespace tessel::testing {

// Inputs for every argument of `main`: small integers (in [-8, 8], as floats for float
// types) drawn from seed + i for argument i, so that float sums stay exact.
std::vector<runtime::Tensor> SmallIntegerInputs(mlir::func::FuncOp main, uint64_t seed = 1);
// The same for the @main of a module's text; an error when an argument is not a tensor of
// static shape, ResourceExhausted when the inputs pass the runtime's memory limit.
absl::StatusOr<std::vector<runtime::Tensor>> SmallIntegerInputs(const std::string& module_text,
                                                                 uint64_t seed = 1);

// The options a regression case names in its `// options:` line.
struct CaseOptions {
  bool shard_weight_update = false;
  bool combine_collectives = false;
  bool hierarchical_all_reduce = false;
  std::optional<uint64_t> random_choice_seed;
  // The seed of the case's SmallIntegerInputs (`inputs=K` on the line; 1 unless written).
  uint64_t input_seed = 1;
};
HarnessOptions ToHarnessOptions(const CaseOptions& options);
std::string FormatCaseOptions(const CaseOptions& options);
absl::StatusOr<CaseOptions> ParseCaseOptions(const std::string& line);

struct ReducedCase {
  std::string module;       // the reduced program
  CaseOptions options;      // the options it still needs
  std::string stage;        // where it fails (PartitionedRun::failed_stage)
  std::string failure;      // the check's message on the reduced program
  int attempts = 0;         // checks run while reducing
  int ops_before = 0, ops_after = 0;
  int64_t elements_before = 0, elements_after = 0;  // in @main's arguments
};

// Reduces `module_text`, which must fail the check under `options` with SmallIntegerInputs
// from options.input_seed or, failing that, from one of the next 15 seeds (whose failure
// may need particular values); an error when none fails. The reduced case keeps the seed. `mutate`, when set, is applied as in HarnessOptions::mutate (to
// reduce a program that catches a mutation).
absl::StatusOr<ReducedCase> ReduceFailure(
    const std::string& module_text, const CaseOptions& options,
    const std::function<bool(mlir::ModuleOp)>& mutate = nullptr);

// Writes `reduced` as a regression case: a comment naming `title` and the failure, an
// `// options:` line, and the program. regression_programs_test runs every such file.
absl::Status WriteRegressionCase(const ReducedCase& reduced, const std::string& path,
                                 const std::string& title);

// A regression case read back: the whole text (a module, comments included) and the options
// its `// options:` line names (none when it has no such line).
struct RegressionCase {
  std::string module;
  CaseOptions options;
};
absl::StatusOr<RegressionCase> ReadRegressionCase(const std::string& path);

}  // namespace tessel::testing

#endif  // TESSEL_TESTS_DIFFERENTIAL_PROGRAM_REDUCER_H_
