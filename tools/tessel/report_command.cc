// `tessel report FILE`: estimates what one device of the partitioned program costs — memory,
// compute time, bytes moved by each kind of collective, step time — with the cost model
// (cost_model/) on a hardware spec, and prints it as a table or as JSON.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "cost_model/cost_report.h"
#include "cost_model/hardware_spec.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "partitioner/ir/location.h"
#include "partitioner/ir/tessel/tessel_ops.h"
#include "tools/tessel/common_flags.h"
#include "tools/tessel/pipeline.h"
#include "tools/tessel/program.h"
#include "tools/tessel/subcommands.h"

ABSL_FLAG(std::string, mesh, "",
          "Resize mesh axes before partitioning, e.g. data=8,model=4: each named axis of the "
          "program's meshes gets the new size.");
ABSL_FLAG(std::string, hardware, "",
          "A hardware spec in protobuf text (cost_model/hardware_spec.proto); the built-in "
          "H100-class NVLink node when empty.");
ABSL_FLAG(std::string, format, "table", "Output format: table or json.");
ABSL_FLAG(bool, partitioned, false,
          "FILE is already the per-device program: report on it as it is. Programs with "
          "collectives or partition_id are taken as partitioned without it.");

namespace tessel::cli {
namespace {

using AxisSizes = std::vector<std::pair<std::string, int64_t>>;

struct ReportOptions {
  std::string file;
  std::string function;
  AxisSizes mesh;
  std::string hardware;
  bool json = false;
  bool partitioned = false;
};

// "data=8,model=4" → {{"data", 8}, {"model", 4}}; a usage error if malformed.
absl::StatusOr<AxisSizes> ParseMeshFlag(const std::string& text) {
  AxisSizes sizes;
  if (text.empty()) return sizes;
  for (absl::string_view item : absl::StrSplit(text, ',')) {
    std::vector<std::string> parts = absl::StrSplit(item, absl::MaxSplits('=', 1));
    int64_t size = 0;
    if (parts.size() != 2 || parts[0].empty() || !absl::SimpleAtoi(parts[1], &size) ||
        size < 1) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--mesh expects AXIS=SIZE,... with sizes of at least 1, got '", std::string(item),
          "'"));
    }
    for (const auto& [name, unused] : sizes) {
      if (name == parts[0]) {
        return absl::InvalidArgumentError(
            absl::StrCat("--mesh names axis \"", name, "\" twice"));
      }
    }
    sizes.emplace_back(parts[0], size);
  }
  return sizes;
}

absl::StatusOr<ReportOptions> GetOptions(const ParsedArgs& args) {
  if (args.positional.size() != 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("expected one FILE, got ", args.positional.size(), " arguments"));
  }
  ReportOptions options;
  options.file = args.positional[0];
  options.function = absl::GetFlag(FLAGS_function);
  options.hardware = absl::GetFlag(FLAGS_hardware);
  options.partitioned = absl::GetFlag(FLAGS_partitioned);
  std::string format = absl::GetFlag(FLAGS_format);
  if (format != "table" && format != "json") {
    return absl::InvalidArgumentError(
        absl::StrCat("--format must be table or json, got '", format, "'"));
  }
  options.json = format == "json";
  absl::StatusOr<AxisSizes> mesh = ParseMeshFlag(absl::GetFlag(FLAGS_mesh));
  if (!mesh.ok()) return mesh.status();
  options.mesh = *std::move(mesh);
  if (options.partitioned && !options.mesh.empty()) {
    return absl::InvalidArgumentError(
        "--mesh resizes the mesh before partitioning; it cannot be used with --partitioned");
  }
  return options;
}

// Whether `module` is per-device code already: partition_id and collectives have no meaning
// in a global program (the partitioner rejects them there), except inside a manual
// computation, whose body is per-device code within a global program.
bool LooksPartitioned(mlir::ModuleOp module) {
  bool found = false;
  module.walk<mlir::WalkOrder::PreOrder>([&](mlir::Operation* op) {
    if (llvm::isa<ir::ManualComputationOp>(op)) return mlir::WalkResult::skip();
    if (llvm::isa<ir::PartitionIdOp, ir::AllReduceOp, ir::AllGatherOp, ir::ReduceScatterOp,
                  ir::AllToAllOp, ir::CollectivePermuteOp>(op)) {
      found = true;
      return mlir::WalkResult::interrupt();
    }
    return mlir::WalkResult::advance();
  });
  return found;
}

// Gives the named axes of every mesh of `module` their new sizes and verifies the module
// again (a sub-axis may no longer fit). Fails naming an axis no mesh has, a mesh with
// explicit device ids (which a new size would invalidate), or the verifier's first error.
absl::Status ResizeMeshes(mlir::ModuleOp module, const AxisSizes& sizes,
                          const std::string& path) {
  std::vector<bool> used(sizes.size(), false);
  for (ir::MeshOp mesh_op : module.getOps<ir::MeshOp>()) {
    ir::MeshAttr mesh = mesh_op.getMesh();
    llvm::SmallVector<ir::MeshAxisAttr> axes;
    bool changed = false;
    for (ir::MeshAxisAttr axis : mesh.getAxes()) {
      int64_t size = axis.getSize();
      for (size_t i = 0; i < sizes.size(); ++i) {
        if (sizes[i].first != axis.getName()) continue;
        used[i] = true;
        changed |= sizes[i].second != size;
        size = sizes[i].second;
      }
      axes.push_back(ir::MeshAxisAttr::get(module.getContext(), axis.getName(), size));
    }
    if (!changed) continue;
    if (!mesh.getDeviceIds().empty()) {
      return absl::InvalidArgumentError(absl::StrCat(
          FormatLocation(mesh_op.getLoc()), ": mesh @", mesh_op.getSymName().str(),
          " lists explicit device ids; --mesh cannot resize it"));
    }
    mesh_op.setMeshAttr(ir::MeshAttr::get(module.getContext(), axes, {}));
  }
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (!used[i]) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--mesh: no mesh of ", path, " has an axis \"", sizes[i].first, "\""));
    }
  }
  std::string error;
  mlir::ScopedDiagnosticHandler handler(module.getContext(), [&](mlir::Diagnostic& diag) {
    if (error.empty() && diag.getSeverity() == mlir::DiagnosticSeverity::Error) {
      error = absl::StrCat(FormatLocation(diag.getLocation()), ": error: ", diag.str());
    }
    return mlir::success();
  });
  if (mlir::failed(mlir::verify(module))) {
    return absl::InvalidArgumentError(
        absl::StrCat("the program does not fit the resized mesh: ", error));
  }
  return absl::OkStatus();
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
  if (!options.mesh.empty()) {
    absl::Status resized = ResizeMeshes(**module, options.mesh, options.file);
    if (!resized.ok()) return resized;
  }
  if (!partitioned) {
    absl::Status status = PropagateAndPartition(**module, err);
    if (!status.ok()) return status;
  }
  absl::StatusOr<mlir::func::FuncOp> function =
      FindFunction(**module, options.function, options.file);
  if (!function.ok()) return function.status();
  cost_model::CostReport report = cost_model::BuildCostReport(*function, spec);
  out << (options.json ? cost_model::FormatCostReportJson(report)
                       : cost_model::FormatCostReport(report));
  return absl::OkStatus();
}

}  // namespace

Subcommand ReportCommand() {
  Subcommand command;
  command.name = "report";
  command.synopsis =
      "report FILE [--function=main] [--mesh=AXIS=SIZE,...] [--hardware=SPEC.textproto] "
      "[--format=table|json] [--partitioned]";
  command.summary = "Estimate per-device memory, communication and step time.";
  command.details =
      "Propagates shardings through FILE (MLIR or XLA HLO text) and partitions it, unless it\n"
      "is already partitioned, then estimates for one device of the mesh: the bytes of the\n"
      "arguments and the peak of live values, the compute time (each op bound by arithmetic\n"
      "or by memory traffic), the bytes each kind of collective moves over which axes and\n"
      "its time by the alpha-beta model, and a step time adding compute and communication\n"
      "(no overlap assumed). The formulas are in docs/cost_model.md.\n"
      "\n"
      "Exit status: 0 on success, 1 for bad input, 2 for a bad command line.\n";
  command.flags = {"function", "mesh", "hardware", "format", "partitioned"};
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
