// The export driver: module header, the entry function, computations for functions and
// regions, instruction naming and the ROOT of each computation.
#include "partitioner/hlo_text/hlo_exporter.h"

#include <algorithm>

#include "absl/status/status.h"
#include "llvm/ADT/StringExtras.h"
#include "mlir/IR/Diagnostics.h"
#include "partitioner/hlo_text/hlo_export.h"
#include "partitioner/hlo_text/hlo_importer.h"
#include "partitioner/hlo_text/hlo_parser.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/ir/module_devices.h"
#include "partitioner/ir/partitioned_marker.h"
#include "partitioner/ir/tessel/tessel_ops.h"

namespace tessel::hlo_text {
namespace {

// `, sharding=..., frontend_attributes={...}` from the pass-through attributes of `attrs`.
std::string passThrough(mlir::DictionaryAttr attrs) {
  std::string extra;
  if (!attrs) return extra;
  if (auto sharding = attrs.getAs<mlir::StringAttr>(kHloShardingAttr)) {
    extra += ", sharding=" + sharding.getValue().str();
  }
  if (auto frontend = attrs.getAs<mlir::DictionaryAttr>(kFrontendAttrsAttr)) {
    extra += ", frontend_attributes={";
    bool first = true;
    for (mlir::NamedAttribute entry : frontend) {
      auto value = mlir::dyn_cast<mlir::StringAttr>(entry.getValue());
      if (!value) continue;
      extra += (first ? "" : ",") + entry.getName().str() + "=" +
               Exporter::quoted(value.getValue());
      first = false;
    }
    extra += "}";
  }
  return extra;
}

}  // namespace

Exporter::Exporter(mlir::ModuleOp module) : module_(module) {
  RegisterElementwiseExporters(table_);
  RegisterStructuredExporters(table_);
  RegisterControlExporters(table_);
  RegisterCollectiveExporters(table_);
}

std::string Exporter::shapeOf(mlir::Type type) {
  auto tensor = mlir::dyn_cast<mlir::RankedTensorType>(type);
  if (!tensor) return "<unsupported>";
  std::string text = XlaTypeName(tensor.getElementType()).str() + "[";
  for (int64_t i = 0; i < tensor.getRank(); ++i) {
    text += (i ? "," : "") + std::to_string(tensor.getDimSize(i));
  }
  text += "]";
  if (tensor.getRank() > 0) {
    text += "{";
    for (int64_t i = tensor.getRank() - 1; i >= 0; --i) {
      text += std::to_string(i) + (i ? "," : "");
    }
    text += "}";
  }
  return text;
}

std::string Exporter::tupleShapeOf(mlir::TypeRange types) {
  std::string text = "(";
  for (size_t i = 0; i < types.size(); ++i) text += (i ? ", " : "") + shapeOf(types[i]);
  return text + ")";
}

std::string Exporter::intList(llvm::ArrayRef<int64_t> values) {
  std::string text = "{";
  for (size_t i = 0; i < values.size(); ++i) text += (i ? "," : "") + std::to_string(values[i]);
  return text + "}";
}

std::string Exporter::quoted(llvm::StringRef text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

mlir::FailureOr<std::string> Exporter::operandList(CompText& comp, mlir::ValueRange values,
                                                   mlir::Operation* user) {
  std::string text;
  for (mlir::Value value : values) {
    auto it = comp.names.find(value);
    if (it == comp.names.end()) {
      return user->emitError() << "uses a value defined outside its region, which an HLO "
                                  "computation cannot capture";
    }
    text += (text.empty() ? "" : ", ") + it->second;
  }
  return text;
}

std::string Exporter::addLine(CompText& comp, llvm::StringRef hint, std::string shape,
                              std::string rest) {
  std::string name = "%" + hint.str() + "." + std::to_string(++counter_);
  comp.lines.push_back({name, std::move(shape), std::move(rest), ""});
  return name;
}

void Exporter::define(CompText& comp, mlir::Operation* op, llvm::StringRef hint,
                      std::string rest, bool forceTuple, mlir::TypeRange extraTypes) {
  bool single = op->getNumResults() == 1 && !forceTuple && extraTypes.empty();
  llvm::SmallVector<mlir::Type> types(op->getResultTypes());
  types.append(extraTypes.begin(), extraTypes.end());
  std::string shape = single ? shapeOf(op->getResult(0).getType()) : tupleShapeOf(types);
  std::string name = addLine(comp, hint, shape, std::move(rest));
  comp.lines.back().extra = passThrough(op->getDiscardableAttrDictionary());
  if (single) {
    comp.names[op->getResult(0)] = name;
    return;
  }
  for (mlir::OpResult result : op->getResults()) {
    comp.names[result] =
        addLine(comp, "get-tuple-element", shapeOf(result.getType()),
                "get-tuple-element(" + name + "), index=" + std::to_string(result.getResultNumber()));
  }
}

std::string Exporter::uniqueComputationName(llvm::StringRef hint) {
  std::string name = hint.str();
  while (!computationNames_.insert(name).second) {
    name = hint.str() + "." + std::to_string(++counter_);
  }
  return name;
}

mlir::FailureOr<std::vector<std::string>> Exporter::exportBlock(CompText& comp,
                                                                mlir::Block& block) {
  for (mlir::Operation& op : block.without_terminator()) {
    auto it = table_.find(op.getName().getStringRef());
    if (it == table_.end()) {
      return op.emitError() << "'" << op.getName() << "' has no HLO text form";
    }
    if (failed(it->second(*this, comp, &op))) return mlir::failure();
  }
  mlir::Operation* terminator = block.getTerminator();
  std::vector<std::string> names;
  for (mlir::Value value : terminator->getOperands()) {
    mlir::FailureOr<std::string> name = operandList(comp, value, terminator);
    if (failed(name)) return mlir::failure();
    names.push_back(*name);
  }
  return names;
}

std::string Exporter::finish(CompText& comp, llvm::StringRef name, bool isEntry,
                             const std::vector<std::string>& rootNames,
                             mlir::TypeRange rootTypes,
                             const std::vector<std::string>& rootShardings, bool tupleRoot) {
  std::string root;
  bool anySharding = llvm::any_of(rootShardings, [](const std::string& s) { return !s.empty(); });
  if (rootNames.size() == 1 && !tupleRoot) {
    root = rootNames[0];
    for (CompText::Line& line : comp.lines) {
      if (line.name == root && anySharding &&
          line.extra.find("sharding=") == std::string::npos) {
        line.extra = ", sharding=" + rootShardings[0] + line.extra;
      }
    }
  } else {
    root = addLine(comp, "tuple", tupleShapeOf(rootTypes),
                   "tuple(" + llvm::join(rootNames, ", ") + ")");
    if (anySharding) {
      std::string sharding = "{";
      for (size_t i = 0; i < rootShardings.size(); ++i) {
        sharding += (i ? ", " : "") + (rootShardings[i].empty() ? "{replicated}" : rootShardings[i]);
      }
      comp.lines.back().extra = ", sharding=" + sharding + "}";
    }
  }
  std::string text = (isEntry ? "ENTRY %" : "%") + name.str() + " {\n";
  for (const CompText::Line& line : comp.lines) {
    text += "  " + std::string(line.name == root ? "ROOT " : "") + line.name + " = " +
            line.shape + " " + line.rest + line.extra + "\n";
  }
  return text + "}";
}

mlir::FailureOr<std::string> Exporter::regionComputation(mlir::Region& region,
                                                         mlir::Operation* user,
                                                         llvm::StringRef hint) {
  CompText comp;
  mlir::Block& block = region.front();
  for (mlir::BlockArgument arg : block.getArguments()) {
    comp.names[arg] = addLine(comp, "param", shapeOf(arg.getType()),
                              "parameter(" + std::to_string(arg.getArgNumber()) + ")");
  }
  mlir::FailureOr<std::vector<std::string>> roots = exportBlock(comp, block);
  if (failed(roots)) return mlir::failure();
  std::string name = uniqueComputationName(hint);
  computations_.push_back(finish(comp, name, false, *roots,
                                 block.getTerminator()->getOperandTypes(),
                                 std::vector<std::string>(roots->size())));
  return name;
}

mlir::FailureOr<std::string> Exporter::tupleParamComputation(mlir::Region& region,
                                                             mlir::ValueRange boundValues,
                                                             mlir::Operation* user,
                                                             llvm::StringRef hint,
                                                             bool tupleRoot,
                                                             mlir::ValueRange passedOn) {
  CompText comp;
  std::string param =
      addLine(comp, "param", tupleShapeOf(boundValues.getTypes()), "parameter(0)");
  for (size_t i = 0; i < boundValues.size(); ++i) {
    comp.names[boundValues[i]] =
        addLine(comp, "get-tuple-element", shapeOf(boundValues[i].getType()),
                "get-tuple-element(" + param + "), index=" + std::to_string(i));
  }
  mlir::Block& block = region.front();
  mlir::FailureOr<std::vector<std::string>> roots = exportBlock(comp, block);
  if (failed(roots)) return mlir::failure();
  llvm::SmallVector<mlir::Type> rootTypes(block.getTerminator()->getOperandTypes());
  for (mlir::Value value : passedOn) {
    roots->push_back(comp.names[value]);
    rootTypes.push_back(value.getType());
  }
  std::string name = uniqueComputationName(hint);
  computations_.push_back(finish(comp, name, false, *roots, rootTypes,
                                 std::vector<std::string>(roots->size()), tupleRoot));
  return name;
}

mlir::FailureOr<std::string> Exporter::functionComputation(mlir::func::FuncOp func) {
  auto found = functions_.find(func.getSymName().str());
  if (found != functions_.end()) return found->second;
  if (func.isExternal()) return func.emitError() << "function has no body to export";
  CompText comp;
  mlir::Block& block = func.getBody().front();
  for (mlir::BlockArgument arg : block.getArguments()) {
    comp.names[arg] = addLine(comp, "param", shapeOf(arg.getType()),
                              "parameter(" + std::to_string(arg.getArgNumber()) + ")");
  }
  std::string name = uniqueComputationName(func.getSymName());
  functions_[func.getSymName().str()] = name;
  mlir::FailureOr<std::vector<std::string>> roots = exportBlock(comp, block);
  if (failed(roots)) return mlir::failure();
  computations_.push_back(finish(comp, name, false, *roots, func.getResultTypes(),
                                 std::vector<std::string>(roots->size())));
  return name;
}

std::string Exporter::binaryComputation(llvm::StringRef opcode, mlir::Type elementType) {
  CompText comp;
  std::string shape = shapeOf(mlir::RankedTensorType::get({}, elementType));
  std::string lhs = addLine(comp, "lhs", shape, "parameter(0)");
  std::string rhs = addLine(comp, "rhs", shape, "parameter(1)");
  std::string root = addLine(comp, opcode, shape, opcode.str() + "(" + lhs + ", " + rhs + ")");
  std::string name = uniqueComputationName(opcode.str() + "_reducer");
  computations_.push_back(finish(comp, name, false, {root}, {}, {""}));
  return name;
}

mlir::LogicalResult Exporter::noteDeviceCount(mlir::Operation* op, int64_t devices) {
  if (numDevices_ != 0 && numDevices_ != devices) {
    return op->emitError() << "runs on " << devices << " devices but another collective runs on "
                           << numDevices_ << "; one HLO module has one device count";
  }
  numDevices_ = devices;
  return mlir::success();
}

mlir::LogicalResult Exporter::run(llvm::raw_ostream& os) {
  mlir::func::FuncOp entry = module_.lookupSymbol<mlir::func::FuncOp>("main");
  if (!entry) {
    for (auto func : module_.getOps<mlir::func::FuncOp>()) {
      if (!func.isPublic()) continue;
      if (entry) return module_.emitError() << "several public functions and no @main";
      entry = func;
    }
  }
  if (!entry || entry.isExternal()) return module_.emitError() << "no entry function to export";
  computationNames_.insert("main");
  CompText comp;
  mlir::Block& block = entry.getBody().front();
  for (mlir::BlockArgument arg : block.getArguments()) {
    unsigned i = arg.getArgNumber();
    comp.names[arg] = addLine(comp, "arg" + std::to_string(i), shapeOf(arg.getType()),
                              "parameter(" + std::to_string(i) + ")");
    comp.lines.back().extra = passThrough(entry.getArgAttrDict(i));
  }
  mlir::FailureOr<std::vector<std::string>> roots = exportBlock(comp, block);
  if (failed(roots)) return mlir::failure();
  std::vector<std::string> rootShardings;
  for (unsigned i = 0; i < entry.getNumResults(); ++i) {
    auto sharding = entry.getResultAttrOfType<mlir::StringAttr>(i, kHloShardingAttr);
    rootShardings.push_back(sharding ? sharding.getValue().str() : "");
  }
  std::string entryText =
      finish(comp, "main", true, *roots, entry.getResultTypes(), rootShardings);

  std::string header = "HloModule " + module_.getSymName().value_or("module").str();
  // A program with shardings but no collectives yet (a propagated one) runs on its mesh.
  if (numDevices_ == 0) {
    numDevices_ = ir::ModuleDeviceCount(module_);
    // An imported module whose shardings are not imported yet keeps its header's count.
    if (auto declared = module_->getAttrOfType<mlir::IntegerAttr>(kHloNumPartitionsAttr)) {
      numDevices_ = std::max(numDevices_, declared.getInt());
    }
    if (numDevices_ == 1) numDevices_ = 0;
  }
  if (numDevices_ > 0) header += ", num_partitions=" + std::to_string(numDevices_);
  mlir::MLIRContext* context = module_.getContext();
  llvm::SmallVector<mlir::NamedAttribute> frontend;
  if (auto kept = module_->getAttrOfType<mlir::DictionaryAttr>(kFrontendAttrsAttr)) {
    frontend.append(kept.begin(), kept.end());
  }
  // A partitioned module keeps its global signature, so that it runs on global inputs
  // after a trip through HLO text (the importer reads it back).
  absl::StatusOr<std::optional<ir::PartitionedSignature>> mark =
      ir::ReadPartitionedMark(module_, entry.getNumArguments(), entry.getNumResults());
  if (!mark.ok()) {
    return entry.emitError() << "cannot write the partitioned mark: "
                             << std::string(mark.status().message());
  }
  if (*mark) {
    auto tuple = [](llvm::ArrayRef<mlir::Type> types) {
      std::string text = "(";
      for (size_t i = 0; i < types.size(); ++i) text += (i ? ", " : "") + shapeOf(types[i]);
      return text + ")";
    };
    frontend.emplace_back(mlir::StringAttr::get(context, kGlobalParametersKey),
                          mlir::StringAttr::get(context, tuple((*mark)->parameter_types)));
    frontend.emplace_back(mlir::StringAttr::get(context, kGlobalResultsKey),
                          mlir::StringAttr::get(context, tuple((*mark)->result_types)));
  }
  if (!frontend.empty()) {
    mlir::NamedAttribute entryAttr(mlir::StringAttr::get(context, kFrontendAttrsAttr),
                                   mlir::DictionaryAttr::get(context, frontend));
    header += passThrough(mlir::DictionaryAttr::get(context, {entryAttr}));
  }
  os << header << "\n\n";
  for (const std::string& text : computations_) os << text << "\n\n";
  os << entryText << "\n";
  return mlir::success();
}

mlir::LogicalResult ExportHloText(mlir::ModuleOp module, llvm::raw_ostream& os) {
  std::string text;
  llvm::raw_string_ostream buffer(text);
  if (failed(Exporter(module).run(buffer))) return mlir::failure();
  os << buffer.str();
  return mlir::success();
}

absl::StatusOr<std::string> ExportHloTextToString(mlir::ModuleOp module) {
  std::string diagnostics;
  mlir::ScopedDiagnosticHandler handler(module.getContext(), [&](mlir::Diagnostic& diag) {
    llvm::raw_string_ostream os(diagnostics);
    os << diag.getLocation() << ": " << diag << "\n";
    return mlir::success();
  });
  std::string text;
  llvm::raw_string_ostream os(text);
  if (failed(ExportHloText(module, os))) return absl::InvalidArgumentError(diagnostics);
  return os.str();
}

}  // namespace tessel::hlo_text
