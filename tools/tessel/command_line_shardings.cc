// Parsing PartitionSpecs from the command line and writing them onto a program
// (command_line_shardings.h).
#include "tools/tessel/command_line_shardings.h"

#include <algorithm>
#include <cctype>
#include <optional>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/strip.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "partitioner/ir/function_attrs.h"
#include "partitioner/ir/tessel/tessel_ops.h"
#include "absl/flags/flag.h"
#include "tools/tessel/common_flags.h"
#include "tools/tessel/did_you_mean.h"
#include "tools/tessel/function_values.h"
#include "tools/tessel/program.h"

namespace tessel::cli {
namespace {

// Reads a PartitionSpec left to right; errors say at which character it went wrong.
class SpecReader {
 public:
  explicit SpecReader(absl::string_view text) : text_(text) {}

  void SkipSpace() {
    while (pos_ < text_.size() && absl::ascii_isspace(static_cast<unsigned char>(text_[pos_]))) {
      ++pos_;
    }
  }
  bool Consume(absl::string_view token) {
    SkipSpace();
    if (!absl::StartsWith(text_.substr(pos_), token)) return false;
    pos_ += token.size();
    return true;
  }
  bool AtEnd() {
    SkipSpace();
    return pos_ == text_.size();
  }
  // A quoted axis name ('x' or "x"), or a bare one of letters, digits, '_', '.', '-'.
  absl::StatusOr<std::string> Axis() {
    SkipSpace();
    if (pos_ < text_.size() && (text_[pos_] == '\'' || text_[pos_] == '"')) {
      const char quote = text_[pos_];
      const size_t end = text_.find(quote, pos_ + 1);
      if (end == absl::string_view::npos) return Error("an unterminated axis name");
      std::string name(text_.substr(pos_ + 1, end - pos_ - 1));
      if (name.empty()) return Error("an empty axis name");
      pos_ = end + 1;
      return name;
    }
    const size_t start = pos_;
    while (pos_ < text_.size() &&
           (absl::ascii_isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_' ||
            text_[pos_] == '.' || text_[pos_] == '-')) {
      ++pos_;
    }
    if (pos_ == start) return Error("an axis name, None or a tuple of axis names expected");
    return std::string(text_.substr(start, pos_ - start));
  }
  absl::Status Error(absl::string_view what) const {
    return absl::InvalidArgumentError(absl::StrCat("bad PartitionSpec '", text_, "' at column ",
                                                   pos_ + 1, ": ", what));
  }

 private:
  absl::string_view text_;
  size_t pos_ = 0;
};

// One entry of a spec: None, an axis, or a tuple of axes.
absl::StatusOr<std::vector<std::string>> ReadEntry(SpecReader& reader) {
  std::vector<std::string> axes;
  if (reader.Consume("(")) {
    if (reader.Consume(")")) return axes;
    do {
      if (reader.Consume(")")) return axes;  // a trailing comma: ('x',)
      absl::StatusOr<std::string> axis = reader.Axis();
      if (!axis.ok()) return axis.status();
      axes.push_back(*std::move(axis));
    } while (reader.Consume(","));
    if (!reader.Consume(")")) return reader.Error("',' or ')' expected in a tuple of axes");
    return axes;
  }
  absl::StatusOr<std::string> axis = reader.Axis();
  if (!axis.ok()) return axis.status();
  if (*axis == "None") return axes;
  axes.push_back(*std::move(axis));
  return axes;
}

// Splits at commas outside parentheses and quotes.
std::vector<std::string> SplitTopLevel(absl::string_view text) {
  std::vector<std::string> parts;
  int depth = 0;
  char quote = 0;
  size_t start = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quote != 0) {
      if (c == quote) quote = 0;
    } else if (c == '\'' || c == '"') {
      quote = c;
    } else if (c == '(') {
      ++depth;
    } else if (c == ')') {
      --depth;
    } else if (c == ',' && depth == 0) {
      parts.emplace_back(text.substr(start, i - start));
      start = i + 1;
    }
  }
  parts.emplace_back(text.substr(start));
  return parts;
}

// The index `target` names among `count` values whose names are `names[i]` (a name with or
// without its '%', "argN"/"resultN" by `prefix`, or the number itself); nullopt if none.
std::optional<size_t> FindTarget(const std::string& target, absl::string_view prefix,
                                 const std::vector<std::vector<std::string>>& names) {
  int64_t number = -1;
  absl::string_view digits = target;
  absl::ConsumePrefix(&digits, prefix);
  if (absl::SimpleAtoi(digits, &number) && number >= 0 &&
      static_cast<size_t>(number) < names.size()) {
    return static_cast<size_t>(number);
  }
  for (size_t i = 0; i < names.size(); ++i) {
    for (const std::string& name : names[i]) {
      if (name == target || (name.size() > 1 && name[0] == '%' && name.substr(1) == target)) {
        return i;
      }
    }
  }
  return std::nullopt;
}

bool IsNumber(absl::string_view text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
    return absl::ascii_isdigit(static_cast<unsigned char>(c));
  });
}

}  // namespace

absl::StatusOr<PartitionSpec> ParsePartitionSpec(absl::string_view text) {
  PartitionSpec spec;
  absl::string_view trimmed = absl::StripAsciiWhitespace(text);
  if (trimmed == "replicated") return spec;
  SpecReader reader(trimmed);
  if (!reader.Consume("PartitionSpec(") && !reader.Consume("P(")) {
    return reader.Error("expected P(...) or replicated");
  }
  if (!reader.Consume(")")) {
    do {
      absl::StatusOr<std::vector<std::string>> entry = ReadEntry(reader);
      if (!entry.ok()) return entry.status();
      spec.dims.push_back(*std::move(entry));
    } while (reader.Consume(","));
    if (!reader.Consume(")")) return reader.Error("',' or ')' expected");
  }
  if (!reader.AtEnd()) return reader.Error("unexpected text after the closing ')'");
  return spec;
}

absl::StatusOr<std::vector<ShardingAssignment>> ParseShardingAssignments(absl::string_view value,
                                                                         absl::string_view flag) {
  std::vector<ShardingAssignment> assignments;
  if (absl::StripAsciiWhitespace(value).empty()) return assignments;
  for (const std::string& part : SplitTopLevel(value)) {
    const size_t equals = part.find('=');
    if (equals == std::string::npos) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--", flag, ": '", part, "' is not NAME=P(...) (e.g. x=P('data',None) or 0=P())"));
    }
    ShardingAssignment assignment;
    assignment.text = std::string(absl::StripAsciiWhitespace(part));
    assignment.target = std::string(absl::StripAsciiWhitespace(part.substr(0, equals)));
    if (assignment.target.empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat("--", flag, ": '", part, "' names no argument or result before '='"));
    }
    absl::StatusOr<PartitionSpec> spec = ParsePartitionSpec(part.substr(equals + 1));
    if (!spec.ok()) {
      return absl::InvalidArgumentError(absl::StrCat("--", flag, ": ", spec.status().message()));
    }
    assignment.spec = *std::move(spec);
    assignments.push_back(std::move(assignment));
  }
  return assignments;
}

absl::Status ApplyShardingAssignments(mlir::ModuleOp module, const std::string& function_name,
                                      const std::string& path,
                                      const std::vector<ShardingAssignment>& in,
                                      const std::vector<ShardingAssignment>& out) {
  if (in.empty() && out.empty()) return absl::OkStatus();
  llvm::SmallVector<ir::MeshOp> meshes(module.getOps<ir::MeshOp>());
  if (meshes.empty()) {
    return absl::InvalidArgumentError(
        "--in_shardings/--out_shardings split values over a mesh, and the program declares "
        "none: give one with --mesh=NAME=SIZE,...");
  }
  if (meshes.size() > 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--in_shardings/--out_shardings use the program's one mesh, and it declares ",
        meshes.size(), "; annotate the program instead"));
  }
  ir::MeshOp mesh = meshes.front();
  std::vector<std::string> mesh_axes;
  for (ir::MeshAxisAttr axis : mesh.getMesh().getAxes()) mesh_axes.push_back(axis.getName().str());
  absl::StatusOr<mlir::func::FuncOp> function = FindFunction(module, function_name, path);
  if (!function.ok()) return function.status();

  // Every name each argument and result goes by.
  std::vector<FunctionValue> values = CollectFunctionValues(*function, ReadProgramNames(path));
  std::vector<std::vector<std::string>> argument_names(function->getNumArguments());
  std::vector<std::vector<std::string>> result_names(function->getNumResults());
  mlir::Operation* terminator = function->getBody().front().getTerminator();
  for (const FunctionValue& value : values) {
    if (value.argument >= 0) argument_names[value.argument] = value.names;
    for (auto [j, returned] : llvm::enumerate(terminator->getOperands())) {
      if (returned == value.value) {
        result_names[j].insert(result_names[j].end(), value.names.begin(), value.names.end());
      }
    }
  }
  for (size_t j = 0; j < result_names.size(); ++j) {
    result_names[j].push_back(absl::StrCat("result", j));
  }

  mlir::MLIRContext* context = module.getContext();
  auto sharding_of = [&](const ShardingAssignment& assignment, mlir::Type type,
                         absl::string_view flag) -> absl::StatusOr<ir::ShardingAttr> {
    auto tensor = llvm::dyn_cast<mlir::RankedTensorType>(type);
    if (!tensor) {
      return absl::InvalidArgumentError(absl::StrCat("--", flag, ": '", assignment.text,
                                                     "' names a value that is not a tensor"));
    }
    if (static_cast<int64_t>(assignment.spec.dims.size()) > tensor.getRank()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--", flag, ": '", assignment.text, "' gives ", assignment.spec.dims.size(),
          " dimensions to a value of rank ", tensor.getRank()));
    }
    std::vector<std::string> used;
    llvm::SmallVector<ir::DimShardingAttr> dims;
    for (int64_t d = 0; d < tensor.getRank(); ++d) {
      llvm::SmallVector<ir::AxisRefAttr> axes;
      if (d < static_cast<int64_t>(assignment.spec.dims.size())) {
        for (const std::string& axis : assignment.spec.dims[d]) {
          if (std::find(mesh_axes.begin(), mesh_axes.end(), axis) == mesh_axes.end()) {
            return absl::InvalidArgumentError(absl::StrCat(
                "--", flag, ": '", assignment.text, "': the mesh has no axis '", axis, "'",
                DidYouMean(axis, mesh_axes), " (axes: ", absl::StrJoin(mesh_axes, ", "), ")"));
          }
          if (std::find(used.begin(), used.end(), axis) != used.end()) {
            return absl::InvalidArgumentError(absl::StrCat(
                "--", flag, ": '", assignment.text, "' uses axis '", axis, "' twice"));
          }
          used.push_back(axis);
          axes.push_back(ir::AxisRefAttr::get(context, axis));
        }
      }
      dims.push_back(ir::DimShardingAttr::get(context, axes, /*is_closed=*/true, std::nullopt));
    }
    return ir::ShardingAttr::get(context, mlir::FlatSymbolRefAttr::get(mesh.getSymNameAttr()),
                                 dims, {}, {});
  };
  auto unknown = [&](const ShardingAssignment& assignment, absl::string_view flag,
                     absl::string_view what,
                     const std::vector<std::vector<std::string>>& names) {
    std::vector<std::string> known;
    for (const std::vector<std::string>& list : names) {
      for (const std::string& name : list) {
        // `x` selects `%x` too; suggest the shorter spelling the user was typing.
        known.push_back(name.size() > 1 && name[0] == '%' ? name.substr(1) : name);
      }
    }
    return absl::InvalidArgumentError(absl::StrCat(
        "--", flag, ": @", function_name, " has no ", what, " '", assignment.target, "'",
        // A number out of range has no near spelling; the count says what there is.
        IsNumber(assignment.target) ? "" : DidYouMean(assignment.target, known), " (it has ",
        names.size(), ")"));
  };

  ir::FunctionAttrEditor attrs(*function);
  for (const ShardingAssignment& assignment : in) {
    std::optional<size_t> index = FindTarget(assignment.target, "arg", argument_names);
    if (!index) return unknown(assignment, "in_shardings", "argument", argument_names);
    absl::StatusOr<ir::ShardingAttr> sharding =
        sharding_of(assignment, function->getArgument(*index).getType(), "in_shardings");
    if (!sharding.ok()) return sharding.status();
    attrs.setArg(*index, ir::TesselDialect::kShardingAttrName, *sharding);
  }
  for (const ShardingAssignment& assignment : out) {
    std::optional<size_t> index = FindTarget(assignment.target, "result", result_names);
    if (!index) return unknown(assignment, "out_shardings", "result", result_names);
    absl::StatusOr<ir::ShardingAttr> sharding =
        sharding_of(assignment, function->getResultTypes()[*index], "out_shardings");
    if (!sharding.ok()) return sharding.status();
    attrs.setResult(*index, ir::TesselDialect::kShardingAttrName, *sharding);
  }
  attrs.commit();

  return VerifyAfterFlags(module, "the program is invalid with the command-line shardings");
}

absl::StatusOr<ShardingFlags> ParseShardingFlags() {
  ShardingFlags flags;
  absl::StatusOr<std::vector<ShardingAssignment>> in =
      ParseShardingAssignments(absl::GetFlag(FLAGS_in_shardings), "in_shardings");
  if (!in.ok()) return in.status();
  absl::StatusOr<std::vector<ShardingAssignment>> out =
      ParseShardingAssignments(absl::GetFlag(FLAGS_out_shardings), "out_shardings");
  if (!out.ok()) return out.status();
  flags.in = *std::move(in);
  flags.out = *std::move(out);
  return flags;
}

}  // namespace tessel::cli
