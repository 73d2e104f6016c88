// Listing and selecting a function's values by their source names (function_values.h).
#include "tools/tessel/function_values.h"

#include <algorithm>
#include <map>
#include <optional>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "llvm/Support/MemoryBuffer.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "partitioner/ir/location.h"
#include "tools/tessel/did_you_mean.h"
#include "tools/tessel/program.h"

namespace tessel::cli {
namespace {

const std::vector<std::string>* NamesAt(
    const std::map<SourcePosition, std::vector<std::string>>& map,
    std::optional<SourcePosition> position) {
  if (!position) return nullptr;
  auto it = map.find(*position);
  return it == map.end() ? nullptr : &it->second;
}

// Name `k` of `count` values that `names` (one per value, or one for them all) name.
std::string NameOf(const std::vector<std::string>* names, size_t k, size_t count) {
  if (names == nullptr || names->empty()) return "";
  if (names->size() == count) return (*names)[k];
  if (names->size() == 1) return count == 1 ? names->front() : absl::StrCat(names->front(), "#", k);
  return "";
}

// The name an op's location gives it (`loc("attn/dot")`), or "".
std::string LocationName(mlir::Location loc) {
  if (auto name = llvm::dyn_cast<mlir::NameLoc>(loc)) return name.getName().str();
  return "";
}

}  // namespace

SourceNames ReadProgramNames(const std::string& path) {
  if (path == "-") return {};
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer) return {};
  const std::string text = (*buffer)->getBuffer().str();
  return DetectProgramFormat(path, text) != ProgramFormat::kHlo ? ReadSourceNames(text, path)
                                                                : ReadHloSourceNames(text, path);
}

std::vector<FunctionValue> CollectFunctionValues(mlir::func::FuncOp function,
                                                 const SourceNames& source) {
  std::vector<FunctionValue> values;
  const std::vector<std::string>* argument_names =
      NamesAt(source.arguments, PositionOf(function.getLoc()));
  const size_t num_arguments = function.getNumArguments();
  for (auto [i, argument] : llvm::enumerate(function.getArguments())) {
    FunctionValue value;
    value.value = argument;
    value.argument = i;
    value.name = NameOf(argument_names, i, num_arguments);
    if (value.name.empty()) {
      // An XLA HLO parameter: the argument sits where its instruction does.
      value.name = NameOf(NamesAt(source.results, PositionOf(argument.getLoc())), 0, 1);
    }
    value.title = absl::StrCat("arg", i);
    if (!value.name.empty()) {
      value.names.push_back(value.name);
      value.title = absl::StrCat(value.name, " = ", value.title);
    }
    value.names.push_back(absl::StrCat("arg", i));
    if (value.name.empty()) value.name = absl::StrCat("arg", i);
    value.type = argument.getType();
    value.sharding =
        function.getArgAttrOfType<ir::ShardingAttr>(i, ir::TesselDialect::kShardingAttrName);
    values.push_back(std::move(value));
  }
  // One instruction of XLA HLO text may become several ops at its place; its name is the
  // last one's, the value the instruction computes.
  std::map<SourcePosition, mlir::Operation*> last_at;
  function.getBody().walk([&](mlir::Operation* op) {
    if (op->getNumResults() == 0) return;  // a return at the ROOT instruction's place
    if (std::optional<SourcePosition> position = PositionOf(op->getLoc())) {
      last_at[*position] = op;
    }
  });
  function.getBody().walk<mlir::WalkOrder::PreOrder>([&](mlir::Operation* op) {
    auto shardings =
        op->getAttrOfType<ir::ShardingPerValueAttr>(ir::TesselDialect::kShardingAttrName);
    std::optional<SourcePosition> position = PositionOf(op->getLoc());
    const std::vector<std::string>* result_names =
        position && last_at[*position] == op ? NamesAt(source.results, position) : nullptr;
    const std::string location_name = LocationName(op->getLoc());
    const size_t count = op->getNumResults();
    for (auto [k, result] : llvm::enumerate(op->getResults())) {
      FunctionValue value;
      value.value = result;
      value.op = op;
      // Only a place in a file is worth printing ("f.mlir:11:8"); a bare name location
      // already gives the name.
      if (position) value.at = FormatLocation(op->getLoc());
      value.result = k;
      // A name location is a name someone chose (a frontend's op path, a builder's name);
      // it goes before the SSA name the printer made up, which still selects the value.
      const std::string ssa_name = NameOf(result_names, k, count);
      if (!location_name.empty()) {
        value.name = count == 1 ? location_name : absl::StrCat(location_name, "#", k);
      } else {
        value.name = ssa_name;
      }
      value.title = absl::StrCat(op->getName().getStringRef().str(),
                                 value.at.empty() ? "" : absl::StrCat(" at ", value.at),
                                 count > 1 ? absl::StrCat(" result ", k) : "");
      if (!value.name.empty()) {
        value.names.push_back(value.name);
        value.title = absl::StrCat(value.name, " = ", value.title);
      }
      if (!ssa_name.empty() && ssa_name != value.name) value.names.push_back(ssa_name);
      if (position) {
        value.line_col = absl::StrCat(position->first, ":", position->second);
        value.names.push_back(count > 1 ? absl::StrCat(value.line_col, "#", k)
                                        : value.line_col);
      }
      value.type = result.getType();
      if (shardings && k < shardings.getShardings().size()) {
        value.sharding = shardings.getShardings()[k];
      }
      values.push_back(std::move(value));
    }
    if (llvm::isa<ir::ManualComputationOp>(op)) return mlir::WalkResult::skip();
    return mlir::WalkResult::advance();
  });
  return values;
}

namespace {

bool Selects(const std::string& name, const FunctionValue& value) {
  if (std::find(value.names.begin(), value.names.end(), name) != value.names.end()) return true;
  if (value.at.empty()) return false;
  // The op's place as explain prints it, with or without the file, with or without "#K".
  for (const std::string& place : {value.at, value.line_col}) {
    if (place.empty()) continue;
    if (name == place || name == absl::StrCat(place, "#", value.result)) return true;
  }
  return false;
}

}  // namespace

absl::StatusOr<std::vector<FunctionValue>> SelectFunctionValues(
    std::vector<FunctionValue> values, const std::vector<std::string>& requested,
    const std::string& file, const std::string& function) {
  if (requested.empty()) return values;
  for (const std::string& name : requested) {
    bool found = false;
    for (const FunctionValue& value : values) found |= Selects(name, value);
    if (!found) {
      std::vector<std::string> known;
      for (const FunctionValue& value : values) {
        known.insert(known.end(), value.names.begin(), value.names.end());
      }
      return absl::NotFoundError(absl::StrCat(
          file, ": @", function, " has no value '", name, "'", DidYouMean(name, known),
          " (names: argN, the name in the source (%name in MLIR text, the instruction name "
          "in HLO text), or LINE:COL[#K] of an op)"));
    }
  }
  std::vector<FunctionValue> selected;
  for (FunctionValue& value : values) {
    for (const std::string& name : requested) {
      if (Selects(name, value)) {
        selected.push_back(std::move(value));
        break;
      }
    }
  }
  return selected;
}

std::string SourceNamer::NameAt(mlir::Location loc) {
  std::string name = LocationName(loc);
  if (!name.empty()) return name;
  if (!names_) names_ = ReadProgramNames(path_);
  const std::vector<std::string>* at = NamesAt(names_->results, PositionOf(loc));
  if (at == nullptr || at->empty()) return "";
  name = at->front();
  // `%q#0` names one result of `%q:2 = ...`; the place holds them all.
  return name.substr(0, name.find('#'));
}

}  // namespace tessel::cli
