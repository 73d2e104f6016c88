// `tessel explain FILE`: shows, for every value of a function, the sharding propagation
// gives it and where that sharding came from (the annotation and the ops on the way).
#include <string>

#include "absl/flags/flag.h"
#include "llvm/Support/raw_ostream.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "partitioner/ir/tessel/tessel_ops.h"
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
  auto it = report.provenance.find(value);
  return it == report.provenance.end() ? "replicated: no sharding reached it"
                                       : propagation::describeProvenance(it->second);
}

}  // namespace

Subcommand ExplainCommand() {
  Subcommand command;
  command.name = "explain";
  command.synopsis = "explain FILE [--function=main] [--mesh=NAME=SIZE,...]";
  command.summary = "Show each value's propagated sharding and where it came from.";
  command.details =
      "Propagates shardings through FILE (MLIR or XLA HLO text) and prints, for every\n"
      "argument and op result of the function, its sharding and its origin: the annotation\n"
      "it started from and the ops it travelled through.\n"
      "\n"
      "Exit status: 0 on success, 1 for bad input, 2 for a bad command line.\n";
  command.flags = {"function", "mesh"};
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
    for (auto [i, arg] : llvm::enumerate(function->getArguments())) {
      mlir::Attribute sharding =
          function->getArgAttr(i, ir::TesselDialect::kShardingAttrName);
      out << "argument " << i << ": " << (sharding ? Print(sharding) : "(none)") << "\n"
          << "  from " << Origin(report, arg) << "\n";
    }
    function->getBody().walk([&](mlir::Operation* op) {
      auto shardings =
          op->getAttrOfType<ir::ShardingPerValueAttr>(ir::TesselDialect::kShardingAttrName);
      if (!shardings) return;
      for (auto [k, result] : llvm::enumerate(op->getResults())) {
        out << op->getName().getStringRef().str() << " at " << FormatLocation(op->getLoc())
            << (op->getNumResults() > 1 ? " result " + std::to_string(k) : "") << ": "
            << Print(shardings.getShardings()[k]) << "\n"
            << "  from " << Origin(report, result) << "\n";
      }
    });
    return static_cast<int>(kExitOk);
  };
  return command;
}

}  // namespace tessel::cli
