// Abseil flags that several `tessel` subcommands accept, defined once here because an
// Abseil flag name may be defined only once per binary. A subcommand lists the names it
// accepts in its Subcommand::flags.
#ifndef TESSEL_TOOLS_TESSEL_COMMON_FLAGS_H_
#define TESSEL_TOOLS_TESSEL_COMMON_FLAGS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/flags/declare.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "cost_model/hardware_spec.h"
#include "mlir/IR/BuiltinOps.h"

// The function of the program a subcommand works on.
ABSL_DECLARE_FLAG(std::string, function);

// The output format: "text" (for people) or "json" for report, viz and explain (report
// also takes "table", text's old name; viz "html" and "svg"), "mlir", "hlo" or "auto" for
// partition; each command sets its own default (Subcommand::flag_defaults).
ABSL_DECLARE_FLAG(std::string, format);

// The values explain and viz show: argN, source names, LINE:COL[#K] (function_values.h).
ABSL_DECLARE_FLAG(std::vector<std::string>, value);

// Shardings from the command line (command_line_shardings.h) and strictness: the
// propagation and partitioning options of the same names.
ABSL_DECLARE_FLAG(std::string, in_shardings);
ABSL_DECLARE_FLAG(std::string, out_shardings);
ABSL_DECLARE_FLAG(bool, conservative);
ABSL_DECLARE_FLAG(bool, replication_is_error);

// No progress line on standard error (progress.h).
ABSL_DECLARE_FLAG(bool, quiet);

// The file partition and viz write to instead of standard output (-o).
ABSL_DECLARE_FLAG(std::string, output);

// The device mesh to use instead of the program's: "data=4,model=2" (see docs/cli.md).
ABSL_DECLARE_FLAG(std::string, mesh);

// Run cross-replica weight-update sharding between propagation and partitioning.
ABSL_DECLARE_FLAG(bool, shard_weight_update);
ABSL_DECLARE_FLAG(bool, combine_collectives);

// Print the time of each stage (partition and run).
ABSL_DECLARE_FLAG(bool, timing);

// Auto-sharding before propagation: "" off, "on" (what a bare --auto gives), or options
// such as "memory_limit=16GiB,time_limit=30" (ParseAutoSharding in pipeline.h).
ABSL_DECLARE_FLAG(std::string, auto);

// The hardware spec file for the cost model and the partitioner's strategy choice.
ABSL_DECLARE_FLAG(std::string, hardware);

namespace tessel::cli {

// One axis of a --mesh value.
struct MeshAxisSize {
  std::string name;
  int64_t size;
};

// Parses a --mesh value: comma-separated NAME=SIZE items with distinct non-empty names and
// positive sizes; "" gives no axes (no override). Fails with InvalidArgument, a usage
// error, naming the offending item.
absl::StatusOr<std::vector<MeshAxisSize>> ParseMeshSpec(absl::string_view spec);

// Parses a byte count such as --max_memory's: a positive integer, optionally followed by
// K, M, G or T (binary multiples: 4G is 4 * 2^30 bytes), each optionally followed by B or
// iB, in either case ("512M", "4GiB", "1048576"). Fails with InvalidArgument naming
// `flag` for anything else, zero, or a count beyond 2^63 - 1.
absl::StatusOr<int64_t> ParseByteSize(absl::string_view flag, absl::string_view text);

// Applies parsed --mesh axes to a loaded program: with one tessel.mesh, its axis sizes
// become the given ones (the names must be exactly the mesh's axes, in any order); with
// none, `tessel.mesh @mesh` with these axes is declared. Fails with InvalidArgument (bad
// input) for a program with several meshes, an unknown or missing axis, resizing a mesh
// with explicit device ids, or a program that no longer verifies. No axes: no change.
absl::Status ApplyMeshAxes(mlir::ModuleOp module, absl::Span<const MeshAxisSize> axes);

// Verifies `module` after a command-line option changed it. InvalidArgument with `what`
// ("--mesh: the program is invalid with the new mesh") and the verifier's located errors.
absl::Status VerifyAfterFlags(mlir::ModuleOp module, absl::string_view what);

// Succeeds if every axis the hardware spec gives a link of its own is an axis of a mesh of
// `module`; otherwise the error names it and lists the axes there are (a typo in a spec
// would otherwise silently price that axis on the default link).
absl::Status CheckSpecAxes(const cost_model::HardwareSpec& spec, mlir::ModuleOp module);

}  // namespace tessel::cli

#endif  // TESSEL_TOOLS_TESSEL_COMMON_FLAGS_H_
