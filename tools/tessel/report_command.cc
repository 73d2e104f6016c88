// `tessel report FILE`: estimates what one device of the partitioned program costs — memory,
// compute time, bytes moved by each kind of collective, step time — with the cost model
// (cost_model/) on a hardware spec, and prints it as a table or as JSON.
#include <cstdint>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "cost_model/cost_report.h"
#include "cost_model/hardware_spec.h"
#include "mlir/IR/MLIRContext.h"
#include "partitioner/ir/tessel/tessel_ops.h"
#include "partitioner/passes/collective_combining.h"
#include "tools/tessel/command_line_shardings.h"
#include "tools/tessel/common_flags.h"
#include "tools/tessel/function_values.h"
#include "tools/tessel/pipeline.h"
#include "tools/tessel/program.h"
#include "tools/tessel/subcommands.h"

ABSL_FLAG(bool, partitioned, false,
          "FILE is already the per-device program: report on it as it is. Programs with "
          "collectives or partition_id are taken as partitioned without it.");

namespace tessel::cli {
namespace {

struct ReportOptions {
  std::string file;
  // --auto: auto-sharding before propagation (ParseAutoSharding).
  std::string auto_sharding;
  std::string function;
  std::vector<MeshAxisSize> mesh;
  std::string hardware;
  bool json = false;
  bool partitioned = false;
  bool shard_weight_update = false;
  bool combine_collectives = false;
  ShardingFlags shardings;
};

absl::StatusOr<ReportOptions> GetOptions(const ParsedArgs& args) {
  if (args.positional.size() != 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("expected one FILE, got ", args.positional.size(), " arguments"));
  }
  ReportOptions options;
  options.file = args.positional[0];
  options.auto_sharding = absl::GetFlag(FLAGS_auto);
  if (absl::Status parsed = ParseAutoSharding(options.auto_sharding).status(); !parsed.ok()) {
    return parsed;
  }
  options.function = absl::GetFlag(FLAGS_function);
  options.hardware = absl::GetFlag(FLAGS_hardware);
  options.partitioned = absl::GetFlag(FLAGS_partitioned);
  options.shard_weight_update = absl::GetFlag(FLAGS_shard_weight_update);
  options.combine_collectives = absl::GetFlag(FLAGS_combine_collectives);
  std::string format = absl::GetFlag(FLAGS_format);
  if (format != "text" && format != "table" && format != "json") {
    return absl::InvalidArgumentError(
        absl::StrCat("--format must be text or json, got '", format, "'"));
  }
  options.json = format == "json";
  absl::StatusOr<std::vector<MeshAxisSize>> mesh = ParseMeshSpec(absl::GetFlag(FLAGS_mesh));
  if (!mesh.ok()) return mesh.status();
  options.mesh = *std::move(mesh);
  if (options.partitioned && !options.mesh.empty()) {
    return absl::InvalidArgumentError(
        "--mesh resizes the mesh before partitioning; it cannot be used with --partitioned");
  }
  absl::StatusOr<ShardingFlags> shardings = ParseShardingFlags();
  if (!shardings.ok()) return shardings.status();
  options.shardings = *std::move(shardings);
  if (options.partitioned && (!options.shardings.in.empty() || !options.shardings.out.empty())) {
    return absl::InvalidArgumentError(
        "--in_shardings and --out_shardings act before partitioning; they cannot be used with "
        "--partitioned");
  }
  if (options.partitioned && options.shard_weight_update) {
    return absl::InvalidArgumentError(
        "--shard_weight_update acts before partitioning; it cannot be used with --partitioned");
  }
  return options;
}

absl::Status Report(const ReportOptions& options, std::ostream& out, std::ostream& err) {
  cost_model::HardwareSpec spec = cost_model::DefaultHardwareSpec();
  if (!options.hardware.empty()) {
    absl::StatusOr<cost_model::HardwareSpec> loaded =
        cost_model::LoadHardwareSpec(options.hardware);
    if (!loaded.ok()) return loaded.status();
    spec = *std::move(loaded);
  }
  mlir::MLIRContext context;
  absl::StatusOr<mlir::OwningOpRef<mlir::ModuleOp>> module = LoadProgram(options.file, context);
  if (!module.ok()) return module.status();
  bool partitioned = options.partitioned || LooksPartitioned(**module);
  if (partitioned && !options.mesh.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        options.file, " is already partitioned (it has collectives or partition_id); "
                      "--mesh cannot resize it"));
  }
  if (partitioned && options.shard_weight_update) {
    return absl::InvalidArgumentError(absl::StrCat(
        options.file, " is already partitioned (it has collectives or partition_id); "
                      "--shard_weight_update acts before partitioning"));
  }
  if (partitioned && (!options.shardings.in.empty() || !options.shardings.out.empty())) {
    return absl::InvalidArgumentError(absl::StrCat(
        options.file, " is already partitioned (it has collectives or partition_id); "
                      "--in_shardings and --out_shardings act before partitioning"));
  }
  absl::Status resized = ApplyMeshAxes(**module, options.mesh);
  if (!resized.ok()) return resized;
  absl::Status assigned = ApplyShardingAssignments(**module, options.function, options.file,
                                                   options.shardings.in, options.shardings.out);
  if (!assigned.ok()) return assigned;
  if (absl::Status axes = CheckSpecAxes(spec, **module); !axes.ok()) return axes;
  if (!partitioned) {
    PipelineOptions pipeline = PipelineOptionsFromFlags(options.file);
    pipeline.shard_weight_update = options.shard_weight_update;
    pipeline.auto_sharding = options.auto_sharding;
    pipeline.combine_collectives = options.combine_collectives;
    pipeline.hardware = &spec;
    absl::Status status = PropagateAndPartition(**module, err, pipeline);
    if (!status.ok()) return status;
  } else if (options.combine_collectives) {
    // Combining acts on partitioned programs, so it applies to a partitioned FILE too.
    passes::combineCollectives(**module, passes::CollectiveCombiningOptions());
  }
  absl::StatusOr<mlir::func::FuncOp> function =
      FindFunction(**module, options.function, options.file);
  if (!function.ok()) return function.status();
  SourceNamer namer(options.file);
  cost_model::CostReport report = cost_model::BuildCostReport(
      *function, spec, [&namer](mlir::Location loc) { return namer.NameAt(loc); });
  out << (options.json ? cost_model::FormatCostReportJson(report)
                       : cost_model::FormatCostReport(report));
  return absl::OkStatus();
}

}  // namespace

Subcommand ReportCommand() {
  Subcommand command;
  command.name = "report";
  command.synopsis =
      "report FILE [--function=main] [--mesh=NAME=SIZE,...] [--hardware=SPEC.textproto] "
      "[--format=text|json] [--partitioned] [--shard_weight_update] [--combine_collectives] "
      "[--auto[=memory_limit=16GiB]]";
  command.summary = "Estimate per-device memory, communication and step time.";
  command.details =
      "Propagates shardings through FILE (MLIR or XLA HLO text) and partitions it, unless it\n"
      "is already partitioned, then estimates for one device of the mesh: the bytes of the\n"
      "arguments and the peak of live values, the compute time (each op bound by arithmetic\n"
      "or by memory traffic), the bytes each kind of collective moves over which axes and\n"
      "its time by the alpha-beta model, and a step time adding compute and communication\n"
      "(no overlap assumed). The formulas are in docs/cost_model.md. --shard_weight_update\n"
      "partitions with data-parallel optimizer updates on 1/n shards of the weights, so the\n"
      "report shows the optimizer state split (docs/partitioning.md). --combine_collectives\n"
      "runs independent collectives of one kind over the same axes as one after\n"
      "partitioning (also on a FILE that is already partitioned).\n"
      "\n"
      "--auto[=memory_limit=16GiB] first chooses shardings for the values FILE leaves open\n"
      "by the cost model (docs/auto_sharding.md), so the report prices that plan.\n"
      "\n"
      "Exit status: 0 on success, 1 for bad input, 2 for a bad command line.\n";
  command.flags = {"function",      "mesh",        "in_shardings",
                   "out_shardings", "hardware",    "format",
                   "partitioned",   "shard_weight_update", "combine_collectives",
                   "conservative",  "replication_is_error", "auto"};
  command.repeatable_flags = {"in_shardings", "out_shardings"};
  command.implicit_values = {{"auto", "on"}};
  command.run = [](const ParsedArgs& args, std::ostream& out, std::ostream& err) {
    absl::StatusOr<ReportOptions> options = GetOptions(args);
    if (!options.ok()) {
      err << "tessel report: " << options.status().message()
          << "\nsee 'tessel report --help' for usage\n";
      return static_cast<int>(kExitUsage);
    }
    absl::Status status = Report(*options, out, err);
    if (!status.ok()) {
      err << "tessel report: " << status.message() << "\n";
      return static_cast<int>(kExitBadInput);
    }
    return static_cast<int>(kExitOk);
  };
  return command;
}

}  // namespace tessel::cli
