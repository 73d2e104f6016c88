// `tessel partition FILE`: propagates shardings through a program and partitions it into
// the SPMD program every device runs, printed as MLIR.
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "absl/cleanup/cleanup.h"
#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "llvm/Support/BuryPointer.h"
#include "llvm/Support/raw_os_ostream.h"
#include "cost_model/hardware_spec.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/PassManager.h"
#include "partitioner/hlo_text/hlo_export.h"
#include "partitioner/sharding/transforms/passes.h"
#include "support/exit_teardown.h"
#include "support/output_file.h"
#include "partitioner/ir/module_devices.h"
#include "partitioner/ir/partitioned_marker.h"
#include "partitioner/stablehlo/export.h"
#include "tools/tessel/command_line_shardings.h"
#include "tools/tessel/common_flags.h"
#include "tools/tessel/pipeline.h"
#include "tools/tessel/program.h"
#include "tools/tessel/progress.h"
#include "tools/tessel/subcommands.h"

ABSL_FLAG(bool, propagated, false,
          "Write the program after propagation instead of partitioning it: every value "
          "carries its sharding (in HLO, sharding= on every instruction).");
ABSL_FLAG(bool, global_layouts, false,
          "Keep on each op of the partitioned program that computes a piece of a global value "
          "that value's global type and sharding (attribute tessel.global_layouts), so that "
          "'tessel viz --value' can draw it; running and HLO export ignore it.");
ABSL_FLAG(bool, strategy_remarks, false,
          "Print a remark at each op where the partitioner compared strategies: the chosen "
          "one and the runner-up, with their estimated times and bytes sent.");

namespace tessel::cli {
namespace {

// The global argument and result types of @main, for the partitioned-program mark; none
// for a program without @main or without a mesh (nothing to partition).
std::optional<ir::PartitionedSignature> GlobalSignature(mlir::ModuleOp module) {
  auto main = module.lookupSymbol<mlir::func::FuncOp>("main");
  if (!main || module.getOps<ir::MeshOp>().empty()) return std::nullopt;
  ir::PartitionedSignature signature;
  signature.parameter_types.assign(main.getArgumentTypes().begin(), main.getArgumentTypes().end());
  signature.result_types.assign(main.getResultTypes().begin(), main.getResultTypes().end());
  return signature;
}

// The most memory this process has held: the resident set's high-water mark, VmHWM of
// /proc/self/status (getrusage's ru_maxrss would also count what a parent process held
// before it started this program, since Linux keeps it across exec).
double PeakMemoryBytes() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmHWM:", 0) == 0) return std::stod(line.substr(6)) * 1024;  // kB
  }
  return 0;
}

// Removes the HLO text an import kept verbatim (shardings, Shardy's frontend attributes) from
// `op`'s attributes, or from the argument and result attributes of a function.
void dropImportedText(mlir::Operation* op) {
  constexpr llvm::StringLiteral kImported[] = {"tessel.hlo_sharding",
                                               "tessel.hlo_frontend_attributes"};
  for (llvm::StringRef name : kImported) op->removeAttr(name);
  if (auto function = llvm::dyn_cast<mlir::func::FuncOp>(op)) {
    mlir::MLIRContext* context = op->getContext();
    for (unsigned i = 0; i < function.getNumArguments(); ++i) {
      for (llvm::StringRef name : kImported) {
        function.removeArgAttr(i, mlir::StringAttr::get(context, name));
      }
    }
    for (unsigned i = 0; i < function.getNumResults(); ++i) {
      for (llvm::StringRef name : kImported) {
        function.removeResultAttr(i, mlir::StringAttr::get(context, name));
      }
    }
  }
}

// The module as HLO text in `hlo`. What the input said in HLO (its shardings and Shardy's
// attributes) no longer describes it and is dropped; the shardings Tessel found are written
// in GSPMD form (--tessel-export-hlo-shardings), which XLA reads with or without Shardy: on
// every value of a propagated program, and on the entry parameters and root of a
// partitioned one, as XLA's own partitioned modules have them, with the global shapes in
// the header (the partitioned mark), so `tessel run` feeds it global inputs. What cannot be
// written (an op with no HLO form) is an error at that op.
absl::Status ToHloText(mlir::ModuleOp module, std::string& hlo) {
  module->walk(dropImportedText);
  mlir::PassManager pm(module.getContext());
  pm.addPass(sharding::createExportHloShardingsPass());
  std::string diagnostics;
  {
    mlir::ScopedDiagnosticHandler handler(module.getContext(), [&](mlir::Diagnostic& diag) {
      llvm::raw_string_ostream os(diagnostics);
      os << diag.getLocation() << ": " << diag << "\n";
      return mlir::success();
    });
    if (mlir::failed(pm.run(module))) {
      return absl::InvalidArgumentError("cannot write HLO shardings:\n" + diagnostics);
    }
  }
  absl::StatusOr<std::string> text = hlo_text::ExportHloTextToString(module);
  if (!text.ok()) return text.status();
  hlo = *std::move(text);
  return absl::OkStatus();
}

}  // namespace

Subcommand PartitionCommand() {
  Subcommand command;
  command.name = "partition";
  command.synopsis =
      "partition FILE [--mesh=NAME=SIZE,...] [--shard_weight_update] [--combine_collectives] "
      "[--hardware=SPEC.textproto] [--strategy_remarks] [--propagated] "
      "[--format=mlir|hlo|stablehlo] [--timing] [--global_layouts] "
      "[--auto[=memory_limit=16GiB]] [--output=OUT]";
  command.summary = "Propagate shardings and partition a program into its SPMD form.";
  command.details =
      "FILE is an annotated program (MLIR or XLA HLO text): a tessel.mesh and shardings on\n"
      "some values. Every value gets a sharding (--tessel-propagate), then every function\n"
      "is rewritten into the program each partition runs, with local types and explicit\n"
      "collectives (--tessel-partition). Ops partitioned by replication are reported as\n"
      "warnings on standard error. --mesh=data=4,model=2 sets the sizes of the program's\n"
      "mesh axes (or declares the mesh of a program without one) before propagation.\n"
      "--shard_weight_update runs data-parallel optimizer updates on 1/n shards of the\n"
      "weights (--tessel-weight-update-sharding): the optimizer-state arguments and results\n"
      "become split over the batch axes. --combine_collectives then runs independent\n"
      "collectives of one kind over the same axes as one (--tessel-combine-collectives).\n"
      "Where an op can be partitioned several ways (a dot with split contracting dims), the\n"
      "cost model prices each on the --hardware spec and the cheapest is emitted;\n"
      "--strategy_remarks prints the choice and the runner-up. --timing prints the time of\n"
      "each stage and the peak memory. --auto chooses shardings for the values FILE leaves\n"
      "unannotated, so that the cost model's step time is least within a per-device memory\n"
      "limit (--auto=memory_limit=16GiB; docs/auto_sharding.md); annotations stay as given.\n"
      "\n"
      "The program is written as MLIR, or as XLA HLO text with --format=hlo or an --output\n"
      "ending in .hlo (a module XLA or any HLO tool reads), or as StableHLO + Shardy MLIR\n"
      "with --format=stablehlo or an --output ending in .stablehlo.mlir (what JAX prints;\n"
      "collectives over explicit device groups). --propagated writes the program after\n"
      "propagation, unpartitioned, with every value's sharding (in HLO: sharding= on every\n"
      "instruction, in GSPMD form; in StableHLO: sdy.sharding on every op, as Shardy's own\n"
      "propagation leaves it). --global_layouts keeps on each op that computes a\n"
      "piece of a global value the value's global type and sharding, for 'tessel viz'.\n"
      "\n"
      "Exit status: 0 on success, 1 for bad input, 2 for a bad command line.\n";
  command.flags = {"mesh",          "in_shardings",        "out_shardings",
                   "output",        "shard_weight_update", "combine_collectives",
                   "hardware",      "strategy_remarks",    "timing",
                   "format",        "propagated",          "conservative",
                   "global_layouts", "replication_is_error", "quiet",
                   "auto"};
  command.flag_defaults = {{"format", "auto"}};
  command.implicit_values = {{"auto", "on"}};
  command.repeatable_flags = {"in_shardings", "out_shardings"};
  command.run = [](const ParsedArgs& args, std::ostream& out, std::ostream& err) {
    if (args.positional.size() != 1) {
      err << "tessel partition: expected one FILE, got " << args.positional.size()
          << " arguments\nsee 'tessel partition --help' for usage\n";
      return static_cast<int>(kExitUsage);
    }
    absl::StatusOr<std::vector<MeshAxisSize>> mesh = ParseMeshSpec(absl::GetFlag(FLAGS_mesh));
    if (!mesh.ok()) {
      err << "tessel partition: " << mesh.status().message()
          << "\nsee 'tessel partition --help' for usage\n";
      return static_cast<int>(kExitUsage);
    }
    absl::StatusOr<ShardingFlags> shardings = ParseShardingFlags();
    if (!shardings.ok()) {
      err << "tessel partition: " << shardings.status().message()
          << "\nsee 'tessel partition --help' for usage\n";
      return static_cast<int>(kExitUsage);
    }
    if (absl::Status parsed = ParseAutoSharding(absl::GetFlag(FLAGS_auto)).status();
        !parsed.ok()) {
      err << "tessel partition: " << parsed.message()
          << "\nsee 'tessel partition --help' for usage\n";
      return static_cast<int>(kExitUsage);
    }
    const std::string output = absl::GetFlag(FLAGS_output);
    std::string format = absl::GetFlag(FLAGS_format);
    if (format == "auto") {
      format = llvm::StringRef(output).ends_with(".hlo")              ? "hlo"
               : llvm::StringRef(output).ends_with(".stablehlo.mlir") ? "stablehlo"
                                                                      : "mlir";
    }
    if (format != "mlir" && format != "hlo" && format != "stablehlo") {
      err << "tessel partition: --format must be mlir, hlo, stablehlo or auto, got '" << format
          << "'\nsee 'tessel partition --help' for usage\n";
      return static_cast<int>(kExitUsage);
    }
    cost_model::HardwareSpec spec = cost_model::DefaultHardwareSpec();
    absl::Status status = absl::OkStatus();
    if (!absl::GetFlag(FLAGS_hardware).empty()) {
      absl::StatusOr<cost_model::HardwareSpec> loaded =
          cost_model::LoadHardwareSpec(absl::GetFlag(FLAGS_hardware));
      if (loaded.ok()) {
        spec = *std::move(loaded);
      } else {
        status = loaded.status();
      }
    }
    const absl::Time start = absl::Now();
    Progress progress("tessel partition", ProgressMode(), err);
    progress.Stage(absl::StrCat("loading ", args.positional[0]));
    auto context = std::make_unique<mlir::MLIRContext>();
    // Nothing here runs in parallel (one function, no thread touches the IR), and uniquing
    // every type, attribute and location without the context's locks took 1 to 11% less
    // CPU time over the whole command (docs/benchmarks.md, "A single-threaded context").
    context->disableMultithreading();
    ProgramFormat inputFormat = ProgramFormat::kMlir;
    absl::StatusOr<mlir::OwningOpRef<mlir::ModuleOp>> module =
        LoadProgram(args.positional[0], *context, &inputFormat);
    // Runs before the module's and the context's destructors, which then have nothing left.
    absl::Cleanup keepUntilExit = [&] {
      if (!TeardownSkippedAtExit()) return;
      if (module.ok()) llvm::BuryPointer(module->release().getOperation());
      llvm::BuryPointer(std::move(context));
    };
    const double loadSeconds = absl::ToDoubleSeconds(absl::Now() - start);
    // Start-up counts with loading: the process's CPU time from its start.
    const double loadCpu = ProcessCpuSeconds();
    StageSeconds stages;
    if (status.ok()) status = module.status();
    if (status.ok()) status = ApplyMeshAxes(**module, *mesh);
    if (status.ok()) {
      status = ApplyShardingAssignments(**module, "main", args.positional[0], shardings->in,
                                        shardings->out);
    }
    if (status.ok()) status = CheckSpecAxes(spec, **module);
    if (status.ok()) {
      PipelineOptions pipeline = PipelineOptionsFromFlags(args.positional[0]);
      pipeline.shard_weight_update = absl::GetFlag(FLAGS_shard_weight_update);
      pipeline.combine_collectives = absl::GetFlag(FLAGS_combine_collectives);
      pipeline.hardware = &spec;
      pipeline.strategy_remarks = absl::GetFlag(FLAGS_strategy_remarks);
      pipeline.seconds = &stages;
      pipeline.propagate_only = absl::GetFlag(FLAGS_propagated);
      pipeline.global_layouts = absl::GetFlag(FLAGS_global_layouts);
      pipeline.auto_sharding = absl::GetFlag(FLAGS_auto);
      // The global types of @main, before partitioning makes them local: the mark lets
      // `tessel run` feed the partitioned program global inputs.
      std::optional<ir::PartitionedSignature> signature = GlobalSignature(**module);
      progress.Stage(pipeline.propagate_only ? "propagating" : "propagating and partitioning");
      status = PropagateAndPartition(**module, err, pipeline);
      if (status.ok() && signature && !pipeline.propagate_only) {
        signature->num_partitions = ir::ModuleDeviceCount(**module);
        ir::MarkPartitioned(**module, *signature);
      }
    }
    std::string hlo;
    if (status.ok() && format == "hlo") status = ToHloText(**module, hlo);
    if (status.ok() && format == "stablehlo") {
      absl::StatusOr<std::string> text = stablehlo::ExportStablehloText(**module);
      status = text.status();
      if (text.ok()) hlo = *std::move(text);
    }
    if (!status.ok()) {
      err << "tessel partition: " << status.message() << "\n";
      return static_cast<int>(kExitBadInput);
    }
    // A program cut short by a full disk or a closed pipe must not pass for one: --output is
    // written under a temporary name and renamed into place only once complete, and
    // standard output is checked by main() after the last byte.
    const absl::Time printStart = absl::Now();
    const double printStartCpu = ProcessCpuSeconds();
    auto printTo = [&](std::ostream& stream) {
      // Partitioning leaves a valid module (the tests verify every one it makes); printing
      // would otherwise verify it again first, which costs as much as the print.
      llvm::raw_os_ostream os(stream);
      if (format == "hlo" || format == "stablehlo") {
        os << hlo;
      } else if (inputFormat == ProgramFormat::kHlo) {
        // A module imported from HLO text holds no dialect resources and no attribute MLIR
        // prints under an alias, so the printer's first pass over the module, which looks
        // for them (a quarter of printing), would find nothing. Printed in local scope it
        // is skipped, and the text is the same but for the newline after the module.
        (*module)->print(os, mlir::OpPrintingFlags().assumeVerified().useLocalScope());
        os << "\n";
      } else {
        (*module)->print(os, mlir::OpPrintingFlags().assumeVerified());
      }
    };
    if (output.empty()) {
      progress.Done();  // standard output may be the terminal the line is on
      printTo(out);
    } else {
      progress.Stage(absl::StrCat("writing ", output));
      absl::StatusOr<std::unique_ptr<OutputFile>> file = OutputFile::Open(output);
      absl::Status written = file.status();
      if (file.ok()) {
        printTo((*file)->stream());
        written = (*file)->Commit();
      }
      if (!written.ok()) {
        err << "tessel partition: " << written.message() << "\n";
        return static_cast<int>(kExitBadInput);
      }
    }
    if (absl::GetFlag(FLAGS_timing)) {
      const double printSeconds = absl::ToDoubleSeconds(absl::Now() - printStart);
      const double total = absl::ToDoubleSeconds(absl::Now() - start);
      const double endCpu = ProcessCpuSeconds();
      err << absl::StrFormat(
          "timing: load %.3f s, propagate %.3f s, partition %.3f s, print %.3f s, total %.3f "
          "s; peak memory %.1f MiB; cpu: load %.3f s, propagate %.3f s, partition %.3f s, "
          "print %.3f s, total %.3f s\n",
          loadSeconds, stages.propagate, stages.partition, printSeconds, total,
          PeakMemoryBytes() / (1024.0 * 1024.0), loadCpu, stages.propagate_cpu,
          stages.partition_cpu, endCpu - printStartCpu, endCpu);
    }
    return static_cast<int>(kExitOk);
  };
  return command;
}

}  // namespace tessel::cli
