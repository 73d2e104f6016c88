// Definitions of the flags shared by `tessel` subcommands (see common_flags.h), and the
// --mesh override.
#include "tools/tessel/common_flags.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <set>

#include "absl/flags/flag.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "llvm/ADT/SmallVector.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/SymbolTable.h"
#include "partitioner/ir/location.h"
#include "partitioner/ir/tessel/tessel_ops.h"
#include "partitioner/ir/verify_tree.h"
#include "tools/tessel/did_you_mean.h"

ABSL_FLAG(std::string, function, "main", "The function of the program to work on.");
ABSL_FLAG(std::string, format, "text",
          "Output format: text for people or json for programs (report also takes table, its "
          "old name for text; viz also html and svg, a page or an image of its pictures); "
          "for partition, mlir, hlo (XLA HLO text) or auto (hlo when --output ends in .hlo).");
ABSL_FLAG(std::vector<std::string>, value, {},
          "Only these values: argN (argument N), the source's name (%name in MLIR text, the "
          "instruction name in HLO text), LINE:COL (the results of the op there) or "
          "LINE:COL#K (its result K). Comma-separated; may be repeated.");
ABSL_FLAG(std::string, in_shardings, "",
          "Shardings of arguments, as JAX writes them: NAME=P(...) per argument, comma-separated "
          "or repeated, e.g. \"x=P('data',None),w1=P(None,'model')\". NAME is the argument's "
          "source name, argN or its number; P takes per dimension None, an axis or a tuple of "
          "axes; later dimensions are replicated. Replaces the program's own.");
ABSL_FLAG(std::string, out_shardings, "",
          "Shardings of results: N=P(...) (or resultN, or the name of the value returned "
          "there), as for --in_shardings.");
ABSL_FLAG(bool, conservative, false,
          "Conservative propagation: shardings do not pass through the shifted dimensions of "
          "pad and slice.");
ABSL_FLAG(bool, replication_is_error, false,
          "Fail instead of partitioning an op by replication (gathering its operands whole).");
ABSL_FLAG(bool, quiet, false,
          "Show no progress line on standard error (it shows only on a terminal anyway).");
ABSL_FLAG(std::string, output, "",
          "Write the command's output (partition: the program; viz: the drawing) to this "
          "file instead of standard output.");
ABSL_FLAG(std::string, mesh, "",
          "Device mesh axes NAME=SIZE,...: replaces the sizes of the program's one mesh "
          "(same axis names), or declares the mesh of a program without one.");
ABSL_FLAG(bool, shard_weight_update, false,
          "Shard data-parallel optimizer updates over the batch axes before partitioning: "
          "gradients are reduce-scattered, the update runs on a 1/n shard, new weights are "
          "all-gathered and the optimizer state stays split (docs/partitioning.md).");
ABSL_FLAG(std::string, auto, "",
          "Auto-sharding (docs/auto_sharding.md): choose shardings for the values the program "
          "leaves unannotated by the cost model. --auto alone, or comma-separated options: "
          "memory_limit=16GiB (bytes per device; default the hardware spec's capacity), "
          "time_limit=SECONDS (the solver's; default 10).");

ABSL_FLAG(std::string, hardware, "",
          "A hardware spec in protobuf text (cost_model/hardware_spec.proto): what the cost "
          "model estimates with, and what the partitioner prices its strategies on; the "
          "built-in H100-class NVLink node when empty.");
ABSL_FLAG(bool, timing, false,
          "Print the time of each stage to standard error: for partition, load, propagate, "
          "partition and print, and the peak memory; for run, load, inputs and run, and the "
          "instruction set f32 products use.");
ABSL_FLAG(bool, combine_collectives, false,
          "After partitioning, run independent collectives of one kind over the same mesh "
          "axes as one collective of their concatenated operands (docs/partitioning.md).");

namespace tessel::cli {

absl::StatusOr<int64_t> ParseByteSize(absl::string_view flag, absl::string_view text) {
  auto bad = [&] {
    return absl::InvalidArgumentError(
        absl::StrCat("--", flag, " must be a positive number of bytes such as 1048576, 512M or "
                     "4G, got '", text, "'"));
  };
  absl::string_view digits = text;
  size_t end = 0;
  while (end < digits.size() && absl::ascii_isdigit(static_cast<unsigned char>(digits[end]))) {
    ++end;
  }
  absl::string_view unit = digits.substr(end);
  digits = digits.substr(0, end);
  uint64_t count = 0;
  if (digits.empty() || !absl::SimpleAtoi(digits, &count) || count == 0) return bad();
  int shift = 0;
  if (!unit.empty()) {
    static constexpr absl::string_view kPrefixes = "KMGT";
    size_t index = kPrefixes.find(absl::ascii_toupper(static_cast<unsigned char>(unit[0])));
    if (index == absl::string_view::npos) return bad();
    shift = 10 * static_cast<int>(index + 1);
    absl::string_view rest = unit.substr(1);
    if (!rest.empty() && !absl::EqualsIgnoreCase(rest, "B") &&
        !absl::EqualsIgnoreCase(rest, "iB")) {
      return bad();
    }
  }
  constexpr uint64_t kMax = static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
  if (count > (kMax >> shift)) {
    return absl::InvalidArgumentError(
        absl::StrCat("--", flag, " must be at most 2^63 - 1 bytes, got '", text, "'"));
  }
  return static_cast<int64_t>(count << shift);
}

absl::StatusOr<std::vector<MeshAxisSize>> ParseMeshSpec(absl::string_view spec) {
  std::vector<MeshAxisSize> axes;
  if (spec.empty()) return axes;
  std::set<std::string> names;
  for (absl::string_view item : absl::StrSplit(spec, ',')) {
    std::pair<absl::string_view, absl::string_view> parts =
        absl::StrSplit(item, absl::MaxSplits('=', 1));
    if (item.find('=') == absl::string_view::npos || parts.first.empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat("--mesh: '", item, "' is not NAME=SIZE (e.g. --mesh=data=4,model=2)"));
    }
    int64_t size = 0;
    if (!absl::SimpleAtoi(parts.second, &size) || size < 1) {
      return absl::InvalidArgumentError(absl::StrCat("--mesh: the size of axis '", parts.first,
                                                     "' must be a positive integer, got '",
                                                     parts.second, "'"));
    }
    if (!names.insert(std::string(parts.first)).second) {
      return absl::InvalidArgumentError(
          absl::StrCat("--mesh: axis '", parts.first, "' is given twice"));
    }
    axes.push_back({std::string(parts.first), size});
  }
  return axes;
}

namespace {

std::string QuotedAxes(llvm::ArrayRef<ir::MeshAxisAttr> axes) {
  std::vector<std::string> names;
  for (ir::MeshAxisAttr axis : axes) names.push_back(absl::StrCat("'", axis.getName().str(), "'"));
  return absl::StrJoin(names, ", ");
}

// The new axes of `mesh`: its own, in its order, with the sizes from `axes`.
absl::StatusOr<llvm::SmallVector<ir::MeshAxisAttr>> Resized(ir::MeshOp mesh,
                                                            absl::Span<const MeshAxisSize> axes) {
  ir::MeshAttr old = mesh.getMesh();
  const std::string where = absl::StrCat("--mesh: mesh @", mesh.getSymName().str(), " (axes ",
                                         QuotedAxes(old.getAxes()), ")");
  for (const MeshAxisSize& axis : axes) {
    if (!old.findAxisSize(axis.name)) {
      std::vector<std::string> names;
      for (ir::MeshAxisAttr known : old.getAxes()) names.push_back(known.getName().str());
      return absl::InvalidArgumentError(absl::StrCat(where, " has no axis '", axis.name, "'",
                                                     DidYouMean(axis.name, names)));
    }
  }
  llvm::SmallVector<ir::MeshAxisAttr> resized;
  bool changed = false;
  for (ir::MeshAxisAttr axis : old.getAxes()) {
    auto given = std::find_if(axes.begin(), axes.end(), [&](const MeshAxisSize& candidate) {
      return candidate.name == axis.getName().str();
    });
    if (given == axes.end()) {
      return absl::InvalidArgumentError(
          absl::StrCat(where, ": axis '", axis.getName().str(), "' is missing from --mesh"));
    }
    changed |= given->size != axis.getSize();
    resized.push_back(ir::MeshAxisAttr::get(mesh.getContext(), axis.getName(), given->size));
  }
  if (changed && !old.getDeviceIds().empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat(where, " lists explicit device ids, which fit only its own axis sizes"));
  }
  return resized;
}

}  // namespace

absl::Status ApplyMeshAxes(mlir::ModuleOp module, absl::Span<const MeshAxisSize> axes) {
  if (axes.empty()) return absl::OkStatus();
  mlir::MLIRContext* context = module.getContext();
  // The new sizes must make a valid mesh (a size of 0, more devices than any machine)
  // before anything is built from them.
  auto checkMesh = [&](llvm::ArrayRef<ir::MeshAxisAttr> list,
                       llvm::ArrayRef<int64_t> ids) -> absl::Status {
    std::string message;
    auto emitError = [&] {
      return mlir::emitError(module.getLoc());
    };
    mlir::ScopedDiagnosticHandler capture(context, [&](mlir::Diagnostic& diagnostic) {
      message = diagnostic.str();
      return mlir::success();
    });
    if (mlir::failed(ir::MeshAttr::verify(emitError, list, ids))) {
      return absl::InvalidArgumentError(absl::StrCat("--mesh: ", message));
    }
    return absl::OkStatus();
  };
  llvm::SmallVector<ir::MeshOp> meshes(module.getOps<ir::MeshOp>());
  if (meshes.size() > 1) {
    std::vector<std::string> names;
    for (ir::MeshOp mesh : meshes) names.push_back(absl::StrCat("@", mesh.getSymName().str()));
    return absl::InvalidArgumentError(absl::StrCat("--mesh: the program declares ", meshes.size(),
                                                   " meshes (", absl::StrJoin(names, ", "),
                                                   "); --mesh needs at most one"));
  }
  if (meshes.empty()) {
    // No mesh and so no shardings: the program runs replicated over the given mesh.
    llvm::SmallVector<ir::MeshAxisAttr> declared;
    for (const MeshAxisSize& axis : axes) {
      declared.push_back(ir::MeshAxisAttr::get(context, axis.name, axis.size));
    }
    if (absl::Status valid = checkMesh(declared, {}); !valid.ok()) return valid;
    mlir::OpBuilder builder(context);
    auto mesh = builder.create<ir::MeshOp>(module.getLoc(), "mesh",
                                           ir::MeshAttr::get(context, declared, {}));
    mlir::SymbolTable(module).insert(mesh, module.getBody()->begin());
  } else {
    absl::StatusOr<llvm::SmallVector<ir::MeshAxisAttr>> resized = Resized(meshes[0], axes);
    if (!resized.ok()) return resized.status();
    if (absl::Status valid = checkMesh(*resized, meshes[0].getMesh().getDeviceIds());
        !valid.ok()) {
      return valid;
    }
    meshes[0].setMeshAttr(ir::MeshAttr::get(context, *resized, meshes[0].getMesh().getDeviceIds()));
  }
  // Shardings and collectives were verified against the old sizes; a sub-axis that no
  // longer divides its axis, for one, makes the program invalid.
  return VerifyAfterFlags(module, "--mesh: the program is invalid with the new mesh");
}

absl::Status VerifyAfterFlags(mlir::ModuleOp module, absl::string_view what) {
  std::string errors;
  mlir::ScopedDiagnosticHandler handler(module.getContext(), [&](mlir::Diagnostic& diagnostic) {
    absl::StrAppend(&errors, errors.empty() ? "" : "\n", FormatLocation(diagnostic.getLocation()),
                    ": error: ", diagnostic.str());
    return mlir::success();
  });
  if (mlir::failed(ir::verifyTree(module))) {
    return absl::InvalidArgumentError(absl::StrCat(what, ":\n", errors));
  }
  return absl::OkStatus();
}

absl::Status CheckSpecAxes(const cost_model::HardwareSpec& spec, mlir::ModuleOp module) {
  std::vector<std::string> axes;
  for (ir::MeshOp mesh : module.getOps<ir::MeshOp>()) {
    for (ir::MeshAxisAttr axis : mesh.getMesh().getAxes()) {
      const std::string name = axis.getName().str();
      if (std::find(axes.begin(), axes.end(), name) == axes.end()) axes.push_back(name);
    }
  }
  for (const cost_model::AxisLink& link : spec.axis_links()) {
    if (std::find(axes.begin(), axes.end(), link.axis()) != axes.end()) continue;
    std::vector<std::string> quoted;
    for (const std::string& name : axes) quoted.push_back(absl::StrCat("\"", name, "\""));
    return absl::InvalidArgumentError(absl::StrCat(
        "the hardware spec gives axis \"", link.axis(), "\" a link, but no mesh of the program has it (",
        axes.empty() ? std::string("the program has no mesh")
                     : absl::StrCat("axes: ", absl::StrJoin(quoted, ", ")),
        ")"));
  }
  return absl::OkStatus();
}

}  // namespace tessel::cli
