// `tessel explain FILE`: shows, for every value of a function, the sharding propagation
// gives it and where that sharding came from (the annotation and the ops on the way); with
// --shard_weight_update also what weight-update sharding changed, and why it left each
// gradient it declined alone.
#include <string>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/flags/flag.h"
#include "llvm/Support/raw_ostream.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "partitioner/ir/tessel/tessel_ops.h"
#include "partitioner/passes/weight_update_sharding.h"
#include "tools/tessel/common_flags.h"
#include "partitioner/ir/location.h"
#include "tools/tessel/pipeline.h"
#include "tools/tessel/program.h"
#include "tools/tessel/subcommands.h"

namespace tessel::cli {
namespace {

std::string Print(mlir::Attribute attr) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << attr;
  return os.str();
}

std::string Origin(const propagation::PropagationReport& report, mlir::Value value) {
  std::optional<propagation::Provenance> provenance = report.provenanceOf(value);
  return provenance ? propagation::describeProvenance(*provenance)
                    : "replicated: no sharding reached it";
}

// What weight-update sharding said about the ops at each location (its remarks), the
// shardings of the ops there before it ran (by location and op name: the pass folds a
// gradient's dot and transpose into a new dot at the dot's location), and the reshards that
// were there before (the others it inserted).
struct WeightUpdateNotes {
  absl::flat_hash_map<const void*, std::vector<std::string>> remarks;
  absl::flat_hash_map<std::pair<const void*, std::string>, mlir::Attribute> before;
  absl::flat_hash_set<mlir::Operation*> reshardsBefore;
  std::vector<mlir::Attribute> argumentsBefore;
};

std::pair<const void*, std::string> Key(mlir::Operation* op) {
  return {op->getLoc().getAsOpaquePointer(), op->getName().getStringRef().str()};
}

// Runs the pass on `module` (verbose: a remark on every gradient, sharded or not).
WeightUpdateNotes ShardWeightUpdates(mlir::ModuleOp module, mlir::func::FuncOp function) {
  WeightUpdateNotes notes;
  function.walk([&](mlir::Operation* op) {
    notes.before.try_emplace(Key(op), op->getAttr(ir::TesselDialect::kShardingAttrName));
    if (llvm::isa<ir::ReshardOp>(op)) notes.reshardsBefore.insert(op);
  });
  for (unsigned i = 0; i < function.getNumArguments(); ++i) {
    notes.argumentsBefore.push_back(function.getArgAttr(i, ir::TesselDialect::kShardingAttrName));
  }
  mlir::ScopedDiagnosticHandler handler(module.getContext(), [&](mlir::Diagnostic& diagnostic) {
    if (diagnostic.getSeverity() != mlir::DiagnosticSeverity::Remark) {
      return mlir::failure();  // errors and warnings go on to the default handler
    }
    notes.remarks[diagnostic.getLocation().getAsOpaquePointer()].push_back(diagnostic.str());
    return mlir::success();
  });
  passes::WeightUpdateShardingOptions options;
  options.verbose = true;
  passes::shardWeightUpdates(module, options);
  return notes;
}

}  // namespace

Subcommand ExplainCommand() {
  Subcommand command;
  command.name = "explain";
  command.synopsis = "explain FILE [--function=main] [--mesh=NAME=SIZE,...] [--shard_weight_update]";
  command.summary = "Show each value's propagated sharding and where it came from.";
  command.details =
      "Propagates shardings through FILE (MLIR or XLA HLO text) and prints, for every\n"
      "argument and op result of the function, its sharding and its origin: the annotation\n"
      "it started from and the ops it travelled through. --shard_weight_update then runs\n"
      "weight-update sharding and says which values it split and, for each gradient, how\n"
      "it sharded the update or why it left it alone.\n"
      "\n"
      "Exit status: 0 on success, 1 for bad input, 2 for a bad command line.\n";
  command.flags = {"function", "mesh", "shard_weight_update"};
  command.run = [](const ParsedArgs& args, std::ostream& out, std::ostream& err) {
    if (args.positional.size() != 1) {
      err << "tessel explain: expected one FILE, got " << args.positional.size()
          << " arguments\nsee 'tessel explain --help' for usage\n";
      return static_cast<int>(kExitUsage);
    }
    absl::StatusOr<std::vector<MeshAxisSize>> mesh = ParseMeshSpec(absl::GetFlag(FLAGS_mesh));
    if (!mesh.ok()) {
      err << "tessel explain: " << mesh.status().message()
          << "\nsee 'tessel explain --help' for usage\n";
      return static_cast<int>(kExitUsage);
    }
    const std::string& path = args.positional[0];
    mlir::MLIRContext context;
    absl::StatusOr<mlir::OwningOpRef<mlir::ModuleOp>> module = LoadProgram(path, context);
    propagation::PropagationReport report;
    absl::Status status = module.status();
    if (status.ok()) status = ApplyMeshAxes(**module, *mesh);
    if (status.ok()) status = Propagate(**module, &report, err);
    absl::StatusOr<mlir::func::FuncOp> function =
        status.ok() ? FindFunction(**module, absl::GetFlag(FLAGS_function), path)
                    : absl::StatusOr<mlir::func::FuncOp>(status);
    if (!function.ok()) {
      err << "tessel explain: " << function.status().message() << "\n";
      return static_cast<int>(kExitBadInput);
    }
    const bool weightUpdate = absl::GetFlag(FLAGS_shard_weight_update);
    WeightUpdateNotes notes;
    if (weightUpdate) notes = ShardWeightUpdates(**module, *function);
    // "  split by weight-update sharding (propagation gave ...)" where the pass changed it.
    auto changed = [&](mlir::Attribute before, mlir::Attribute after) {
      if (!weightUpdate || before == after) return std::string();
      // An op's one sharding is shown as its results' are, not as the per-value list.
      if (auto perValue = llvm::dyn_cast_or_null<ir::ShardingPerValueAttr>(before);
          perValue && perValue.getShardings().size() == 1) {
        before = perValue.getShardings().front();
      }
      return "  changed by weight-update sharding (propagation gave " +
             (before ? Print(before) : std::string("none")) + ")\n";
    };
    for (auto [i, arg] : llvm::enumerate(function->getArguments())) {
      mlir::Attribute sharding =
          function->getArgAttr(i, ir::TesselDialect::kShardingAttrName);
      out << "argument " << i << ": " << (sharding ? Print(sharding) : "(none)") << "\n"
          << "  from " << Origin(report, arg) << "\n"
          << (weightUpdate ? changed(notes.argumentsBefore[i], sharding) : "");
    }
    function->getBody().walk([&](mlir::Operation* op) {
      auto shardings =
          op->getAttrOfType<ir::ShardingPerValueAttr>(ir::TesselDialect::kShardingAttrName);
      if (!shardings) return;
      const bool inserted =
          weightUpdate && llvm::isa<ir::ReshardOp>(op) && !notes.reshardsBefore.contains(op);
      for (auto [k, result] : llvm::enumerate(op->getResults())) {
        out << op->getName().getStringRef().str() << " at " << FormatLocation(op->getLoc())
            << (op->getNumResults() > 1 ? " result " + std::to_string(k) : "") << ": "
            << Print(shardings.getShardings()[k]) << "\n";
        if (inserted) {
          out << "  inserted by weight-update sharding (the gradient's reduce_scatter)\n";
          continue;
        }
        out << "  from " << Origin(report, result) << "\n";
      }
      if (!weightUpdate || inserted) return;
      auto before = notes.before.find(Key(op));
      if (before != notes.before.end()) out << changed(before->second, shardings);
      auto remarks = notes.remarks.find(op->getLoc().getAsOpaquePointer());
      if (remarks == notes.remarks.end()) return;
      for (const std::string& remark : remarks->second) out << "  " << remark << "\n";
    });
    return static_cast<int>(kExitOk);
  };
  return command;
}

}  // namespace tessel::cli
