// The compiler pipeline the `tessel` subcommands share: propagate shardings, then partition,
// with MLIR's diagnostics collected into the returned Status (errors) or passed to `remarks`
// (remarks such as "partitioned by replication"), each as "file:line:col: message".
#ifndef TESSEL_TOOLS_TESSEL_PIPELINE_H_
#define TESSEL_TOOLS_TESSEL_PIPELINE_H_

#include <functional>
#include <optional>
#include <ostream>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "cost_model/hardware_spec.h"
#include "partitioner/auto/auto_sharding.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Location.h"
#include "partitioner/ir/location.h"
#include "partitioner/propagation/propagate.h"

namespace tessel::cli {

// Runs --tessel-import-hlo-shardings on `module` (an imported HLO module) when it holds any
// `tessel.hlo_sharding` string.
absl::Status ImportHloShardings(mlir::ModuleOp module, std::ostream& remarks);

// Runs --tessel-propagate on `module`. Fills `report` when not null, with the origin of
// every axis (PropagationOptions::recordAxisOrigins).
// With `conservative`, shardings do not pass through the shifted dimensions of pad and
// slice (--conservative).
// `name_of` names the place of a diagnostic in its message (SourceNamer::NameAt).
using ::tessel::PlaceNamer;

absl::Status Propagate(mlir::ModuleOp module, propagation::PropagationReport* report,
                       std::ostream& remarks, bool conservative = false,
                       const PlaceNamer& name_of = nullptr);

// Seconds spent in each stage of PropagateAndPartition.
struct StageSeconds {
  double propagate = 0;
  double partition = 0;  // weight-update sharding, partitioning and the passes after it
  // The same stages in the CPU time of the whole process (every thread): on a machine
  // shared with other work, wall time also counts the time others held the cores.
  double propagate_cpu = 0;
  double partition_cpu = 0;
};

// The CPU time this process has used so far, in seconds (CLOCK_PROCESS_CPUTIME_ID).
double ProcessCpuSeconds();

// What may run between propagation and partitioning, and after partitioning.
struct PipelineOptions {
  // --tessel-weight-update-sharding (the --shard_weight_update flag).
  bool shard_weight_update = false;
  // --tessel-combine-collectives after partitioning (the --combine_collectives flag).
  bool combine_collectives = false;
  // The hardware the partitioner prices strategies on (null: the built-in default).
  const cost_model::HardwareSpec* hardware = nullptr;
  // A remark per op where strategies were compared (the --strategy_remarks flag).
  bool strategy_remarks = false;
  // --tessel-hierarchical-all-reduce after partitioning and combining, on `hardware`.
  bool hierarchical_all_reduce = true;
  // Filled with the time of each stage when not null (the --timing flag).
  StageSeconds* seconds = nullptr;
  // Stop after propagation (and weight-update sharding): the --propagated flag.
  bool propagate_only = false;
  // Conservative propagation (--conservative).
  bool conservative = false;
  // Fail where an op could only be partitioned by replication (--replication_is_error).
  bool replication_is_error = false;
  // When set, each warning and error names the value it is about by its source name:
  // "model.hlo:12:3: warning: dot.3: ...".
  PlaceNamer name_of;
  // Keep each partitioned value's global type and sharding on its op (--global_layouts).
  bool global_layouts = false;
  // The --auto flag's value: auto-sharding before propagation unless empty
  // (ParseAutoSharding). Its summary goes to `remarks`.
  std::string auto_sharding;
};

// Parses an --auto value: "" gives nullopt (off); "on", "true" or "1" the defaults; else
// comma-separated memory_limit=BYTES (as --max_memory: 16GiB, 512M) and time_limit=SECONDS
// (a positive number, optionally ending in "s"). Fails with InvalidArgument naming the
// option and the value.
absl::StatusOr<std::optional<auto_sharding::AutoShardingOptions>> ParseAutoSharding(
    absl::string_view text);

// The pipeline options the shared flags give (--conservative, --replication_is_error), with
// messages naming values by their names in the program at `path`; each command sets the
// rest.
PipelineOptions PipelineOptionsFromFlags(const std::string& path);

// Auto-sharding as `options.auto_sharding` asks (nothing when it is empty): chooses the
// shardings `module` leaves open and writes them into it, with the summary on `remarks`.
absl::Status ChooseShardings(mlir::ModuleOp module, std::ostream& remarks,
                             const PipelineOptions& options);

// Runs auto-sharding (ChooseShardings), --tessel-propagate, the passes `options` asks for,
// and --tessel-partition on `module`.
absl::Status PropagateAndPartition(mlir::ModuleOp module, std::ostream& remarks,
                                   const PipelineOptions& options = PipelineOptions());

}  // namespace tessel::cli

#endif  // TESSEL_TOOLS_TESSEL_PIPELINE_H_
