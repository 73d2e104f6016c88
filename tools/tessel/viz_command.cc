// `tessel viz FILE`: propagates shardings and draws, for every argument and op result of a
// function (or the ones named by --value), which device holds which block of the tensor,
// as text pictures, HTML, SVG or JSON (the renderers are partitioner/sharding/visualize*.h),
// with the halos windowed ops will exchange (partitioner/spmd/halo_uses.h); on a partitioned
// program, its global values and, by name, the values inside it.
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "llvm/Support/raw_ostream.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"
#include "partitioner/ir/location.h"
#include "partitioner/ir/partitioned_marker.h"
#include "partitioner/ir/tessel/sharding_verification.h"
#include "partitioner/ir/tessel/tessel_ops.h"
#include "partitioner/sharding/mlir_conversion.h"
#include "partitioner/sharding/visualize.h"
#include "partitioner/sharding/visualize_color.h"
#include "partitioner/sharding/visualize_html.h"
#include "partitioner/spmd/halo_uses.h"
#include "tools/tessel/command_line_shardings.h"
#include "tools/tessel/common_flags.h"
#include "tools/tessel/pipeline.h"
#include "tools/tessel/program.h"
#include "tools/tessel/function_values.h"
#include "tools/tessel/mlir_text.h"
#include "tools/tessel/subcommands.h"
#include "support/json_quote.h"
#include "support/output_file.h"

ABSL_FLAG(std::string, color, "auto",
          "Colour the text pictures, a background per set of devices holding a tile: always, "
          "never, or auto (when standard output is a terminal, TERM is not dumb and NO_COLOR "
          "is not set).");

namespace tessel::cli {
namespace {

// Whether --color=auto colours: only for a person at a terminal that can show colour, and
// not when they asked for none (NO_COLOR, https://no-color.org; set at all, even empty).
// `tessel` writes its output to standard output, so that is the stream to ask about.
bool TerminalWantsColor() {
  const char* term = std::getenv("TERM");
  return isatty(STDOUT_FILENO) && (term == nullptr || std::string(term) != "dumb") &&
         std::getenv("NO_COLOR") == nullptr;
}

struct VizOptions {
  std::string file;
  std::string function;
  std::vector<MeshAxisSize> mesh;
  std::vector<std::string> values;
  ShardingFlags shardings;
  // "text", "json", "html" or "svg".
  std::string format;
  bool color = false;
  // Where the drawing goes: standard output when empty.
  std::string output;
};

absl::StatusOr<VizOptions> GetOptions(const ParsedArgs& args) {
  if (args.positional.size() != 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("expected one FILE, got ", args.positional.size(), " arguments"));
  }
  VizOptions options;
  options.file = args.positional[0];
  options.function = absl::GetFlag(FLAGS_function);
  options.values = absl::GetFlag(FLAGS_value);
  options.format = absl::GetFlag(FLAGS_format);
  if (options.format != "text" && options.format != "json" && options.format != "html" &&
      options.format != "svg") {
    return absl::InvalidArgumentError(absl::StrCat(
        "--format must be text, json, html or svg, got '", options.format, "'"));
  }
  const std::string color = absl::GetFlag(FLAGS_color);
  if (color != "auto" && color != "always" && color != "never") {
    return absl::InvalidArgumentError(
        absl::StrCat("--color must be auto, always or never, got '", color, "'"));
  }
  options.output = absl::GetFlag(FLAGS_output);
  // Colour is for a terminal; a file gets it only when asked for.
  options.color =
      color == "always" || (color == "auto" && options.output.empty() && TerminalWantsColor());
  absl::StatusOr<std::vector<MeshAxisSize>> mesh = ParseMeshSpec(absl::GetFlag(FLAGS_mesh));
  if (!mesh.ok()) return mesh.status();
  options.mesh = *std::move(mesh);
  absl::StatusOr<ShardingFlags> shardings = ParseShardingFlags();
  if (!shardings.ok()) return shardings.status();
  options.shardings = *std::move(shardings);
  return options;
}

// The mesh and sharding to draw `value` with: its own, or replicated over `fallback`.
absl::StatusOr<sharding::ShardingView> LayoutOf(const FunctionValue& value,
                                                mlir::Operation* scope,
                                                const sharding::Mesh& fallback) {
  auto tensor = llvm::dyn_cast<mlir::RankedTensorType>(value.type);
  if (!tensor) return absl::InvalidArgumentError("not a ranked tensor: nothing to draw");
  std::vector<int64_t> shape(tensor.getShape().begin(), tensor.getShape().end());
  if (!value.sharding) {
    sharding::TensorSharding replicated("", std::vector<sharding::DimSharding>(shape.size()));
    return sharding::ViewSharding(fallback, replicated, shape);
  }
  ir::MeshAttr mesh = ir::findMesh(scope, value.sharding.getMeshName());
  if (!mesh) {
    return absl::InvalidArgumentError(
        absl::StrCat("no mesh @", value.sharding.getMeshName().getValue().str()));
  }
  return sharding::ViewSharding(sharding::MeshFromAttr(mesh),
                                sharding::TensorShardingFromAttr(value.sharding), shape);
}

// What to draw for `value`: its layout, with the halos of the windowed ops that read it;
// for a per-device value of a partitioned program, the sentence saying so.
absl::StatusOr<sharding::ShardingView> ViewOf(const FunctionValue& value, mlir::Operation* scope,
                                              const sharding::Mesh& fallback,
                                              bool layouts_recorded) {
  if (value.per_device) {
    // Not an error: the value is simply not a piece of one global tensor.
    return absl::FailedPreconditionError(absl::StrCat(
        "a per-device value: each partition computes its own ", MlirText(value.local_type),
        ", which is not the piece of a global value with a known layout",
        layouts_recorded ? ""
                         : " ('tessel partition --global_layouts' keeps the global layouts "
                           "of the values that are)"));
  }
  absl::StatusOr<sharding::ShardingView> view = LayoutOf(value, scope, fallback);
  if (view.ok() && value.value) view->halos = spmd::HaloUsesOf(value.value, *view, scope);
  return view;
}

// The first line of a value's picture: its names, its type and its sharding, and in a
// partitioned program the type each partition holds.
std::string Header(const FunctionValue& value) {
  if (value.per_device) {
    return absl::StrCat(value.title, ": ", MlirText(value.local_type), " on each partition");
  }
  return absl::StrCat(value.title, ": ", MlirText(value.type), " ",
                      value.sharding ? MlirText(value.sharding) : "(no sharding)",
                      value.local_type
                          ? absl::StrCat(" (each partition holds ", MlirText(value.local_type),
                                         ")")
                          : "");
}

std::string Indented(const std::string& text, absl::string_view indent) {
  std::string out;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    absl::StrAppend(&out, indent, text.substr(start, end - start), "\n");
    start = end + 1;
  }
  return out;
}

// The values of a partitioned @main. Its arguments and results (result0, ...) are global
// values, from its tessel.partitioned mark and the shardings it keeps: what each device
// holds of the values it is called with and returns. With `inside`, its op results too:
// the local piece of a global value where the partitioner recorded which
// (tessel.global_layouts), otherwise per-device values.
std::vector<FunctionValue> PartitionedValues(mlir::func::FuncOp function,
                                             const ir::PartitionedSignature& mark,
                                             const SourceNames& names, bool inside) {
  std::vector<FunctionValue> values;
  for (FunctionValue& value : CollectFunctionValues(function, names)) {
    value.local_type = value.type;
    if (value.argument >= 0) {
      value.type = mark.parameter_types[value.argument];
    } else if (!inside) {
      continue;
    } else if (std::optional<ir::GlobalLayout> global =
                   ir::ReadGlobalLayout(llvm::cast<mlir::OpResult>(value.value))) {
      value.type = global->type;
      value.sharding = llvm::dyn_cast<ir::ShardingAttr>(global->sharding);
      value.per_device = !value.sharding;
    } else {
      value.per_device = true;
    }
    values.push_back(std::move(value));
  }
  for (auto [k, type] : llvm::enumerate(mark.result_types)) {
    FunctionValue value;
    value.title = absl::StrCat("result", k);
    value.name = value.title;
    value.names = {value.title};
    value.type = type;
    value.local_type = function.getResultTypes()[k];
    value.sharding =
        function.getResultAttrOfType<ir::ShardingAttr>(k, ir::TesselDialect::kShardingAttrName);
    values.push_back(std::move(value));
  }
  return values;
}

absl::Status Viz(const VizOptions& options, std::ostream& out, std::ostream& err) {
  mlir::MLIRContext context;
  absl::StatusOr<mlir::OwningOpRef<mlir::ModuleOp>> module = LoadProgram(options.file, context);
  if (!module.ok()) return module.status();
  absl::StatusOr<mlir::func::FuncOp> function =
      FindFunction(**module, options.function, options.file);
  if (!function.ok()) return function.status();
  std::optional<ir::PartitionedSignature> mark;
  if (function->getSymName() == "main") {
    absl::StatusOr<std::optional<ir::PartitionedSignature>> read = ir::ReadPartitionedMark(
        **module, function->getNumArguments(), function->getNumResults());
    if (!read.ok()) return read.status();
    mark = *std::move(read);
  }
  const SourceNames names = ReadProgramNames(options.file);
  std::vector<FunctionValue> all;
  if (mark) {
    // Partitioned already: nothing to propagate, and nothing the flags that act before
    // partitioning could change.
    if (!options.mesh.empty() || !options.shardings.in.empty() ||
        !options.shardings.out.empty()) {
      return absl::InvalidArgumentError(absl::StrCat(
          options.file, " is already partitioned; --mesh, --in_shardings and --out_shardings "
                        "act before partitioning"));
    }
    // Without --value, the global values; a value inside is drawn when named.
    all = PartitionedValues(*function, *mark, names, !options.values.empty());
  } else if (LooksPartitioned(**module)) {
    return absl::InvalidArgumentError(absl::StrCat(
        options.file, " is already partitioned (it has collectives or partition_id) and has "
                      "no tessel.partitioned mark to say what its global values are; viz "
                      "draws the shardings of a program before partitioning, or of the "
                      "arguments and results of a program 'tessel partition' wrote"));
  } else {
    absl::Status status = ApplyMeshAxes(**module, options.mesh);
    if (status.ok()) {
      status = ApplyShardingAssignments(**module, options.function, options.file,
                                        options.shardings.in, options.shardings.out);
    }
    if (status.ok()) {
      status = Propagate(**module, nullptr, err, absl::GetFlag(FLAGS_conservative));
    }
    if (!status.ok()) return status;
    // The parsed module forgets the source's names; read them from the text again.
    all = CollectFunctionValues(*function, names);
  }
  absl::StatusOr<std::vector<FunctionValue>> values =
      SelectFunctionValues(std::move(all), options.values, options.file, options.function);
  if (!values.ok()) return values.status();
  bool layouts_recorded = false;
  if (mark) {
    function->walk([&](mlir::Operation* op) {
      layouts_recorded |= op->hasAttr(ir::kGlobalLayoutsAttrName);
    });
  }

  // Values without a sharding are replicated over the program's first mesh (or, without
  // one, held whole by a single device).
  sharding::Mesh fallback;
  for (ir::MeshOp mesh : (*module)->getOps<ir::MeshOp>()) {
    fallback = sharding::MeshFromAttr(mesh.getMesh());
    break;
  }
  if (options.format == "html" || options.format == "svg") {
    sharding::ShardingGraphic graphic(
        options.format == "html" ? sharding::GraphicFormat::kHtml : sharding::GraphicFormat::kSvg,
        absl::StrCat("tessel viz ", options.file, " @", options.function));
    for (const FunctionValue& value : *values) {
      absl::StatusOr<sharding::ShardingView> view = ViewOf(value, *function, fallback, layouts_recorded);
      const std::string header = Header(value);
      if (view.ok()) {
        graphic.AddValue(header, *view);
      } else {
        graphic.AddMessage(header, view.status().message());
      }
    }
    out << graphic.Finish();
    return absl::OkStatus();
  }
  const bool json = options.format == "json";
  // One colour per device set across all values, so equal holders look equal everywhere.
  sharding::DeviceSetColors colors;
  if (json) {
    out << "{\n  \"file\": " << JsonQuote(options.file)
        << ",\n  \"function\": " << JsonQuote(options.function)
        << ",\n  \"values\": [";
  }
  for (size_t i = 0; i < values->size(); ++i) {
    const FunctionValue& value = (*values)[i];
    absl::StatusOr<sharding::ShardingView> view = ViewOf(value, *function, fallback, layouts_recorded);
    const std::string sharding_text = value.sharding ? MlirText(value.sharding) : "";
    if (json) {
      std::vector<std::string> quoted;
      for (const std::string& name : value.names) quoted.push_back(JsonQuote(name));
      out << (i == 0 ? "" : ",") << "\n    {\"title\": " << JsonQuote(value.title)
          << ", \"names\": [" << absl::StrJoin(quoted, ", ")
          << "], \"type\": " << JsonQuote(MlirText(value.type)) << ", \"sharding\": "
          << (value.sharding ? JsonQuote(sharding_text) : "null");
      if (value.local_type) out << ", \"local_type\": " << JsonQuote(MlirText(value.local_type));
      out << ",\n     ";
      if (view.ok()) {
        out << "\"layout\": " << sharding::ShardingViewToJson(*view, "     ") << "}";
      } else if (value.per_device) {
        out << "\"layout\": null, \"per_device\": true, \"note\": "
            << JsonQuote(view.status().message()) << "}";
      } else {
        out << "\"layout\": null, \"error\": " << JsonQuote(view.status().message())
            << "}";
      }
      continue;
    }
    out << (i == 0 ? "" : "\n") << Header(value) << "\n";
    out << Indented(view.ok() ? sharding::RenderShardingView(*view, 80,
                                                             options.color ? &colors : nullptr)
                              : std::string(view.status().message()),
                    "  ");
  }
  if (json) out << "\n  ]\n}\n";
  return absl::OkStatus();
}

}  // namespace

Subcommand VizCommand() {
  Subcommand command;
  command.name = "viz";
  command.synopsis =
      "viz FILE [--function=main] [--value=NAME,...] [--mesh=NAME=SIZE,...] "
      "[--format=text|json|html|svg] [--color=auto|always|never] [--output=OUT]";
  command.summary = "Draw which device holds which tile of each value.";
  command.details =
      "Propagates shardings through FILE (MLIR or XLA HLO text, not yet partitioned) and\n"
      "draws, for every argument and op result of the function, how the tensor is laid out\n"
      "over the devices: per dimension the axes that split it and into how many pieces, and\n"
      "a grid of its tiles, each labelled with the devices that hold it and its index\n"
      "ranges. Uneven splits, empty tiles and partial sums are called out. In a terminal the\n"
      "tiles are coloured, one colour per set of devices holding a tile (--color).\n"
      "--format=html and --format=svg draw the same tiles as one self-contained page or\n"
      "image: coloured boxes, padding hatched, empty tiles and partial sums marked, and each\n"
      "tile's devices and index ranges shown on hover. -o/--output writes the drawing to a\n"
      "file instead of standard output.\n"
      "\n"
      "A value read by a windowed op (convolution, reduce_window, select_and_scatter) that\n"
      "is split along a dimension the window slides over is marked with the halo each tile\n"
      "needs from its neighbours ('halo: 1 low, 1 high on dim 1'), as partitioning will\n"
      "exchange it.\n"
      "\n"
      "On a program 'tessel partition' wrote, the global arguments and results are drawn;\n"
      "--value also names values inside it, drawn as the global value they are a piece of\n"
      "where 'tessel partition --global_layouts' kept it, else shown as per-device values\n"
      "with their local type.\n"
      "\n"
      "Values are named argN, %name (the SSA name in MLIR text) and LINE:COL[#K] (the op\n"
      "at that place, as 'tessel explain' prints it; #K picks one of several results).\n"
      "\n"
      "Exit status: 0 on success, 1 for bad input, 2 for a bad command line.\n";
  command.flags = {"function",      "value",        "mesh",   "in_shardings",
                   "out_shardings", "conservative", "format", "color",
                   "output"};
  command.flag_defaults = {{"format", "text"}};
  command.repeatable_flags = {"value", "in_shardings", "out_shardings"};
  command.run = [](const ParsedArgs& args, std::ostream& out, std::ostream& err) {
    absl::StatusOr<VizOptions> options = GetOptions(args);
    if (!options.ok()) {
      err << "tessel viz: " << options.status().message()
          << "\nsee 'tessel viz --help' for usage\n";
      return static_cast<int>(kExitUsage);
    }
    if (options->output.empty()) {
      absl::Status status = Viz(*options, out, err);
      if (!status.ok()) {
        err << "tessel viz: " << status.message() << "\n";
        return static_cast<int>(kExitBadInput);
      }
      return static_cast<int>(kExitOk);
    }
    // The whole drawing is made before the file is opened, so a failure leaves no file;
    // OutputFile then replaces it only once every byte is written.
    std::ostringstream drawing;
    absl::Status status = Viz(*options, drawing, err);
    if (status.ok()) {
      absl::StatusOr<std::unique_ptr<OutputFile>> file = OutputFile::Open(options->output);
      status = file.status();
      if (file.ok()) {
        (*file)->stream() << drawing.str();
        status = (*file)->Commit();
      }
    }
    if (!status.ok()) {
      err << "tessel viz: " << status.message() << "\n";
      return static_cast<int>(kExitBadInput);
    }
    return static_cast<int>(kExitOk);
  };
  return command;
}

}  // namespace tessel::cli
