// `tessel explain FILE`: shows, for every value of a function (or those --value names), the
// sharding propagation gives it and, per dimension, where each axis came from (the
// annotation and the ops on the way), and the conflicts propagation left at the ops it takes
// part in; as text or JSON. With --shard_weight_update also what weight-update sharding
// changed, and why it left each gradient it declined alone. With --auto, first what
// auto-sharding chose and why (explain_auto.h), and which values' shardings it wrote.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/flags/flag.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "cost_model/hardware_spec.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/raw_ostream.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "partitioner/ir/auto_chosen.h"
#include "partitioner/ir/location.h"
#include "partitioner/ir/tessel/sharding_verification.h"
#include "partitioner/ir/tessel/tessel_ops.h"
#include "partitioner/passes/weight_update_sharding.h"
#include "partitioner/propagation/propagate.h"
#include "support/json_quote.h"
#include "tools/tessel/command_line_shardings.h"
#include "tools/tessel/common_flags.h"
#include "tools/tessel/explain_auto.h"
#include "tools/tessel/function_values.h"
#include "tools/tessel/mlir_text.h"
#include "tools/tessel/pipeline.h"
#include "tools/tessel/program.h"
#include "tools/tessel/subcommands.h"

namespace tessel::cli {
namespace {

// "operand 1" or "result 0" of a conflict's op; "a value" for the members of a data-flow
// edge (while, case, call), which are one value seen from several places.
std::string Role(const propagation::OpConflict::Member& member) {
  if (member.operand >= 0) return absl::StrCat("operand ", member.operand);
  if (member.result >= 0) return absl::StrCat("result ", member.result);
  return "a value";
}

std::string Axes(llvm::ArrayRef<ir::AxisRefAttr> axes) {
  std::vector<std::string> names;
  for (ir::AxisRefAttr axis : axes) names.push_back(ir::axisRefToString(axis));
  return absl::StrCat("{", absl::StrJoin(names, ", "), "}");
}

// "data", or "x:(1)2" for a sub-axis: the axis as JSON readers want it, without the
// quotes the sharding syntax puts around names.
std::string AxisName(ir::AxisRefAttr axis) {
  if (!axis.isSubAxis()) return axis.getName().str();
  return absl::StrCat(axis.getName().str(), ":(", axis.getPreSize(), ")", axis.getSubSize());
}

std::string JsonAxes(llvm::ArrayRef<ir::AxisRefAttr> axes) {
  std::vector<std::string> names;
  for (ir::AxisRefAttr axis : axes) names.push_back(JsonQuote(AxisName(axis)));
  return absl::StrCat("[", absl::StrJoin(names, ", "), "]");
}

// How a value is named in explanations: its source name and, for an op result, the op and
// its place.
struct Namer {
  llvm::DenseMap<mlir::Value, std::string> names;

  std::string NameOf(mlir::Value value) const {
    auto it = names.find(value);
    return it == names.end() ? "" : it->second;
  }
  // "argument 0 of @main (%x)": an origin with the annotated value's name, when it has one
  // and the origin does not say it already.
  std::string Origin(const std::string& origin, mlir::Value annotated) const {
    std::string name = NameOf(annotated);
    if (name.empty() || absl::StrContains(origin, name)) return origin;
    return absl::StrCat(origin, " (", name, ")");
  }
};

// What explain says about one value: its axes one by one, or where its sharding came from.
struct ValueStory {
  std::vector<propagation::AxisProvenance> axes;
  std::optional<propagation::Provenance> whole;
  std::vector<const propagation::OpConflict*> conflicts;
  bool autoChosen = false;  // auto-sharding wrote its sharding; propagation kept it
};

ValueStory StoryOf(const propagation::PropagationReport& report, const FunctionValue& value) {
  ValueStory story;
  story.axes = report.axisProvenanceOf(value.value, value.sharding);
  story.whole = report.provenanceOf(value.value);
  story.conflicts = report.conflictsOf(value.value);
  return story;
}

std::string MemberName(const propagation::OpConflict::Member& member, const Namer& namer) {
  std::string name = namer.NameOf(member.value);
  return name.empty() ? Role(member) : absl::StrCat(Role(member), " ", name);
}

// "conflict at hlo.add (f.mlir:6:8): operand 0 %x has {"data"} on dimension 0, operand 1 %b
// has {} on dimension 0; operand 1 %b could not take {"data"}; partitioning reconciles them
// with communication".
std::string DescribeConflict(const propagation::OpConflict& conflict, const Namer& namer) {
  std::vector<std::string> members;
  std::vector<std::string> short_of;
  for (const propagation::OpConflict::Member& member : conflict.members) {
    members.push_back(absl::StrCat(MemberName(member, namer), " has ", Axes(member.axes),
                                   " on dimension ", member.dim));
    // A member holding the start of the common axes could have grown to them; it did not
    // (its dimension was pinned, or another dimension of it uses the axis).
    const bool prefix = member.axes.size() < conflict.agreed.size() &&
                        std::equal(member.axes.begin(), member.axes.end(),
                                   conflict.agreed.begin());
    if (prefix) {
      short_of.push_back(absl::StrCat(
          MemberName(member, namer), " could not take ",
          Axes(llvm::ArrayRef(conflict.agreed).drop_front(member.axes.size()))));
    }
  }
  std::string outcome = conflict.agreed.empty() ? "they have no axes in common"
                                                : absl::StrJoin(short_of, ", ");
  if (outcome.empty()) outcome = absl::StrCat("they agree on ", Axes(conflict.agreed), " only");
  return absl::StrCat("conflict at ", conflict.op->getName().getStringRef().str(), " (",
                      FormatLocation(conflict.op->getLoc()), "): ", absl::StrJoin(members, ", "),
                      "; ", outcome, "; partitioning reconciles them with communication");
}

void PrintText(const ValueStory& story, const Namer& namer, std::ostream& out) {
  if (story.autoChosen) out << "  chosen by auto-sharding\n";
  for (propagation::AxisProvenance axis : story.axes) {
    if (!axis.origin.empty()) axis.origin = namer.Origin(axis.origin, axis.annotated);
    out << "  dimension " << axis.dim << ": " << propagation::describeAxisProvenance(axis)
        << "\n";
  }
  if (story.axes.empty()) {
    if (story.whole) {
      out << "  unsplit, from " << propagation::describeProvenance(*story.whole) << "\n";
    } else {
      out << "  replicated: no sharding reached it\n";
    }
  }
  for (const propagation::OpConflict* conflict : story.conflicts) {
    out << "  " << DescribeConflict(*conflict, namer) << "\n";
  }
}

std::string JsonStory(const ValueStory& story, const Namer& namer) {
  std::vector<std::string> axes;
  for (const propagation::AxisProvenance& axis : story.axes) {
    std::vector<std::string> path;
    for (mlir::Operation* op : axis.path) {
      path.push_back(absl::StrCat("{\"op\": ", JsonQuote(op->getName().getStringRef().str()),
                                  ", \"at\": ", JsonQuote(FormatLocation(op->getLoc())), "}"));
    }
    std::string annotated = namer.NameOf(axis.annotated);
    axes.push_back(absl::StrCat(
        "{\"dimension\": ", axis.dim, ", \"axis\": ", JsonQuote(AxisName(axis.axis)),
        ", \"origin\": ", axis.origin.empty() ? "null" : JsonQuote(axis.origin),
        ", \"annotated\": ", annotated.empty() ? "null" : JsonQuote(annotated),
        ", \"path\": [", absl::StrJoin(path, ", "), "]}"));
  }
  std::vector<std::string> conflicts;
  for (const propagation::OpConflict* conflict : story.conflicts) {
    std::vector<std::string> members;
    for (const propagation::OpConflict::Member& member : conflict->members) {
      std::string name = namer.NameOf(member.value);
      members.push_back(absl::StrCat(
          "{\"role\": ", JsonQuote(Role(member)), ", \"name\": ",
          name.empty() ? "null" : JsonQuote(name), ", \"dimension\": ", member.dim,
          ", \"axes\": ", JsonAxes(member.axes), "}"));
    }
    conflicts.push_back(absl::StrCat(
        "{\"op\": ", JsonQuote(conflict->op->getName().getStringRef().str()),
        ", \"at\": ", JsonQuote(FormatLocation(conflict->op->getLoc())),
        ", \"members\": [", absl::StrJoin(members, ", "), "], \"common\": ",
        JsonAxes(conflict->agreed), "}"));
  }
  std::string origin = story.whole ? JsonQuote(story.whole->origin) : "null";
  return absl::StrCat("\"origin\": ", origin, ", \"axes\": [", absl::StrJoin(axes, ", "),
                      "], \"conflicts\": [", absl::StrJoin(conflicts, ", "), "]");
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
  command.synopsis =
      "explain FILE [--function=main] [--value=NAME,...] [--mesh=NAME=SIZE,...] "
      "[--format=text|json] [--shard_weight_update] [--auto[=memory_limit=BYTES,...]] "
      "[--hardware=SPEC.textproto]";
  command.summary = "Show each value's propagated sharding and where each axis came from.";
  command.details =
      "Propagates shardings through FILE (MLIR or XLA HLO text) and prints, for every\n"
      "argument and op result of the function (or the ones --value names), its sharding\n"
      "and, per dimension, where each of its axes came from: the annotation that had it and\n"
      "the ops it travelled through. Where the tensors of an op still disagree once\n"
      "propagation is done, it says so: each keeps its own axes and partitioning reshards.\n"
      "Values are named as in the source (%name in MLIR text, instruction names in HLO\n"
      "text), argN, or LINE:COL[#K] of an op.\n"
      "--shard_weight_update then runs weight-update sharding and says which values it split\n"
      "and, for each gradient, how it sharded the update or why it left it alone.\n"
      "--auto first chooses shardings for the values FILE leaves open, as partition --auto\n"
      "does (docs/auto_sharding.md), and prints the plan: each choice, the objective's\n"
      "parts, the costliest reshards, the estimated memory peak against the limit, and the\n"
      "next-best plan's cost and what it changes; the values it wrote say so.\n"
      "\n"
      "Exit status: 0 on success, 1 for bad input, 2 for a bad command line.\n";
  command.flags = {"function",      "value",        "mesh",
                   "in_shardings",  "out_shardings", "conservative",
                   "format",        "shard_weight_update", "auto",
                   "hardware"};
  command.flag_defaults = {{"format", "text"}};
  command.implicit_values = {{"auto", "on"}};
  command.repeatable_flags = {"value", "in_shardings", "out_shardings"};
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
    absl::StatusOr<ShardingFlags> shardings = ParseShardingFlags();
    if (!shardings.ok()) {
      err << "tessel explain: " << shardings.status().message()
          << "\nsee 'tessel explain --help' for usage\n";
      return static_cast<int>(kExitUsage);
    }
    const std::string format = absl::GetFlag(FLAGS_format);
    if (format != "text" && format != "json") {
      err << "tessel explain: --format must be text or json, got '" << format
          << "'\nsee 'tessel explain --help' for usage\n";
      return static_cast<int>(kExitUsage);
    }
    absl::StatusOr<std::optional<auto_sharding::AutoShardingOptions>> autoOptions =
        ParseAutoSharding(absl::GetFlag(FLAGS_auto));
    if (!autoOptions.ok()) {
      err << "tessel explain: " << autoOptions.status().message()
          << "\nsee 'tessel explain --help' for usage\n";
      return static_cast<int>(kExitUsage);
    }
    const bool json = format == "json";
    const std::string& path = args.positional[0];
    const std::string function_name = absl::GetFlag(FLAGS_function);
    mlir::MLIRContext context;
    absl::StatusOr<mlir::OwningOpRef<mlir::ModuleOp>> module = LoadProgram(path, context);
    propagation::PropagationReport report;
    absl::Status status = module.status();
    if (status.ok()) status = ApplyMeshAxes(**module, *mesh);
    if (status.ok()) {
      status = ApplyShardingAssignments(**module, function_name, path, shardings->in,
                                        shardings->out);
    }
    const PipelineOptions pipeline = PipelineOptionsFromFlags(path);
    std::optional<auto_sharding::AutoShardingResult> chosen;
    llvm::DenseSet<mlir::Value> autoChosen;
    if (status.ok() && *autoOptions) {
      cost_model::HardwareSpec spec = cost_model::DefaultHardwareSpec();
      if (!absl::GetFlag(FLAGS_hardware).empty()) {
        absl::StatusOr<cost_model::HardwareSpec> loaded =
            cost_model::LoadHardwareSpec(absl::GetFlag(FLAGS_hardware));
        status = loaded.status();
        if (loaded.ok()) spec = *std::move(loaded);
      }
      auto_sharding::AutoShardingOptions options = **autoOptions;
      options.function = function_name;
      options.nextBest = true;
      // Arguments are named by the function's values (a name at an argument's place is
      // not one the source namer reads); everything else by the source namer.
      llvm::DenseMap<mlir::Location, std::string> argumentNames;
      absl::StatusOr<mlir::func::FuncOp> target = FindFunction(**module, function_name, path);
      if (target.ok()) {
        for (const FunctionValue& value :
             CollectFunctionValues(*target, ReadProgramNames(path))) {
          if (value.op == nullptr && !value.name.empty() &&
              value.name != absl::StrCat("arg", value.argument)) {
            argumentNames[value.value.getLoc()] = value.name;
          }
        }
      }
      const PlaceNamer sourceNames = pipeline.name_of;
      options.nameOf = [argumentNames, sourceNames](mlir::Location loc) {
        auto it = argumentNames.find(loc);
        if (it != argumentNames.end()) return it->second;
        return sourceNames ? sourceNames(loc) : std::string();
      };
      absl::StatusOr<auto_sharding::AutoShardingResult> result =
          status.ok() ? auto_sharding::autoShard(**module, spec, options)
                      : absl::StatusOr<auto_sharding::AutoShardingResult>(status);
      status = result.status();
      if (result.ok()) chosen = *std::move(result);
      // Propagation consumes the marks: read them first.
      (*module)->walk([&](mlir::Operation* op) {
        for (mlir::Value value : op->getResults()) {
          if (ir::isAutoChosen(value)) autoChosen.insert(value);
        }
        for (mlir::Region& region : op->getRegions()) {
          for (mlir::Block& block : region) {
            for (mlir::Value value : block.getArguments()) {
              if (ir::isAutoChosen(value)) autoChosen.insert(value);
            }
          }
        }
      });
    }
    if (status.ok()) {
      status = Propagate(**module, &report, err, pipeline.conservative, pipeline.name_of);
    }
    absl::StatusOr<mlir::func::FuncOp> function =
        status.ok() ? FindFunction(**module, function_name, path)
                    : absl::StatusOr<mlir::func::FuncOp>(status);
    if (!function.ok()) {
      err << "tessel explain: " << function.status().message() << "\n";
      return static_cast<int>(kExitBadInput);
    }
    const bool weightUpdate = absl::GetFlag(FLAGS_shard_weight_update);
    WeightUpdateNotes notes;
    if (weightUpdate) notes = ShardWeightUpdates(**module, *function);
    // Listed after weight-update sharding ran, so that the shardings shown are its; the
    // stories are propagation's.
    std::vector<FunctionValue> all = CollectFunctionValues(*function, ReadProgramNames(path));
    Namer namer;
    for (const FunctionValue& value : all) {
      if (!value.name.empty()) namer.names[value.value] = value.name;
    }
    absl::StatusOr<std::vector<FunctionValue>> values =
        SelectFunctionValues(std::move(all), absl::GetFlag(FLAGS_value), path, function_name);
    if (!values.ok()) {
      err << "tessel explain: " << values.status().message() << "\n";
      return static_cast<int>(kExitBadInput);
    }
    // What weight-update sharding did to a value, one line each.
    auto weightUpdateLines = [&](const FunctionValue& value) {
      std::vector<std::string> lines;
      if (!weightUpdate) return lines;
      mlir::Attribute before;
      mlir::Attribute after = value.sharding;
      if (value.op == nullptr) {
        before = notes.argumentsBefore[value.argument];
      } else {
        if (llvm::isa<ir::ReshardOp>(value.op) && !notes.reshardsBefore.contains(value.op)) {
          lines.push_back("inserted by weight-update sharding (the gradient's reduce_scatter)");
          return lines;
        }
        auto found = notes.before.find(Key(value.op));
        if (found == notes.before.end()) return lines;
        before = found->second;
        // An op's one sharding is shown as its results' are, not as the per-value list.
        if (auto perValue = llvm::dyn_cast_or_null<ir::ShardingPerValueAttr>(before)) {
          before = mlir::Attribute();
          if (value.result < static_cast<int64_t>(perValue.getShardings().size())) {
            before = perValue.getShardings()[value.result];
          }
        }
      }
      if (before != after) {
        lines.push_back("changed by weight-update sharding (propagation gave " +
                        (before ? MlirText(before) : std::string("none")) + ")");
      }
      if (value.op != nullptr && value.result + 1 == value.op->getNumResults()) {
        auto remarks = notes.remarks.find(value.op->getLoc().getAsOpaquePointer());
        if (remarks != notes.remarks.end()) {
          lines.insert(lines.end(), remarks->second.begin(), remarks->second.end());
        }
      }
      return lines;
    };
    if (json) {
      out << "{\n  \"file\": " << JsonQuote(path) << ",\n  \"function\": "
          << JsonQuote(function_name) << ",\n";
      if (chosen) out << "  \"auto_sharding\": " << AutoExplanationJson(*chosen) << ",\n";
      out << "  \"values\": [";
    } else if (chosen) {
      PrintAutoExplanation(*chosen, out);
      out << "\n";
    }
    for (size_t i = 0; i < values->size(); ++i) {
      const FunctionValue& value = (*values)[i];
      const std::string sharding = value.sharding ? MlirText(value.sharding) : "(none)";
      std::vector<std::string> changes = weightUpdateLines(value);
      const bool inserted =
          weightUpdate && value.op != nullptr && llvm::isa<ir::ReshardOp>(value.op) &&
          !notes.reshardsBefore.contains(value.op);
      ValueStory story = inserted ? ValueStory() : StoryOf(report, value);
      story.autoChosen = autoChosen.contains(value.value);
      if (json) {
        std::vector<std::string> quoted;
        for (const std::string& line : changes) quoted.push_back(JsonQuote(line));
        out << (i == 0 ? "" : ",") << "\n    {\"name\": "
            << (value.name.empty() ? "null" : JsonQuote(value.name))
            << ", \"title\": " << JsonQuote(value.title)
            << ", \"at\": " << (value.at.empty() ? "null" : JsonQuote(value.at))
            << ", \"type\": " << JsonQuote(MlirText(value.type))
            << ", \"sharding\": " << (value.sharding ? JsonQuote(sharding) : "null") << ",\n     "
            << JsonStory(story, namer) << ",\n     \"weight_update\": ["
            << absl::StrJoin(quoted, ", ") << "]"
            << (story.autoChosen ? ", \"auto_chosen\": true" : "") << "}";
        continue;
      }
      out << value.title << ": " << sharding << "\n";
      if (!inserted) PrintText(story, namer, out);
      for (const std::string& line : changes) out << "  " << line << "\n";
    }
    if (json) out << "\n  ]\n}\n";
    return static_cast<int>(kExitOk);
  };
  return command;
}

}  // namespace tessel::cli
