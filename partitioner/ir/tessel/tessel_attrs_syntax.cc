// Textual syntax of the tessel attributes. Shardings nest meshes' axis names, dimension
// shardings and sub-axes in a compact form (`<@mesh, [{"x":(1)2, ?}p0], replicated={"y"}>`)
// that the declarative format cannot express, so it is parsed and printed by hand here.
#include <string>

#include "llvm/ADT/STLExtras.h"
#include "partitioner/ir/tessel/tessel_ops.h"

namespace tessel::ir {
namespace {

// Parses `{` axis-ref (`,` axis-ref)* `}` or `{}`.
mlir::ParseResult parseAxisRefSet(mlir::AsmParser& parser,
                                  llvm::SmallVectorImpl<AxisRefAttr>& axes) {
  return parser.parseCommaSeparatedList(
      mlir::AsmParser::Delimiter::Braces, [&]() -> mlir::ParseResult {
        mlir::FailureOr<AxisRefAttr> axis = AxisRefAttr::parseBody(parser);
        if (mlir::failed(axis)) return mlir::failure();
        axes.push_back(*axis);
        return mlir::success();
      });
}

void printAxisRefSet(mlir::AsmPrinter& printer, llvm::ArrayRef<AxisRefAttr> axes) {
  printer << "{";
  llvm::interleaveComma(axes, printer, [&](AxisRefAttr axis) { axis.printBody(printer); });
  printer << "}";
}

}  // namespace

//===------------------------------------------------------------------------------------===//
// MeshAttr: <["x"=2, "y"=4], device_ids=[...]>
//===------------------------------------------------------------------------------------===//

mlir::Attribute MeshAttr::parse(mlir::AsmParser& parser, mlir::Type) {
  llvm::SMLoc loc = parser.getCurrentLocation();
  llvm::SmallVector<MeshAxisAttr> axes;
  llvm::SmallVector<int64_t> deviceIds;
  if (parser.parseLess()) return {};
  auto parseAxis = [&]() -> mlir::ParseResult {
    std::string name;
    int64_t size = 0;
    if (parser.parseString(&name) || parser.parseEqual() || parser.parseInteger(size)) {
      return mlir::failure();
    }
    axes.push_back(MeshAxisAttr::get(parser.getContext(), name, size));
    return mlir::success();
  };
  if (parser.parseCommaSeparatedList(mlir::AsmParser::Delimiter::Square, parseAxis)) return {};
  if (mlir::succeeded(parser.parseOptionalComma())) {
    auto parseId = [&]() { return parser.parseInteger(deviceIds.emplace_back()); };
    if (parser.parseKeyword("device_ids") || parser.parseEqual() ||
        parser.parseCommaSeparatedList(mlir::AsmParser::Delimiter::Square, parseId)) {
      return {};
    }
  }
  if (parser.parseGreater()) return {};
  return MeshAttr::getChecked([&] { return parser.emitError(loc); }, parser.getContext(),
                              llvm::ArrayRef<MeshAxisAttr>(axes),
                              llvm::ArrayRef<int64_t>(deviceIds));
}

void MeshAttr::print(mlir::AsmPrinter& printer) const {
  printer << "<[";
  llvm::interleaveComma(getAxes(), printer, [&](MeshAxisAttr axis) {
    printer.printString(axis.getName());
    printer << "=" << axis.getSize();
  });
  printer << "]";
  if (!getDeviceIds().empty()) {
    printer << ", device_ids=[";
    llvm::interleaveComma(getDeviceIds(), printer);
    printer << "]";
  }
  printer << ">";
}

//===------------------------------------------------------------------------------------===//
// AxisRefAttr: "x" or "x":(pre)size
//===------------------------------------------------------------------------------------===//

mlir::FailureOr<AxisRefAttr> AxisRefAttr::parseBody(mlir::AsmParser& parser) {
  llvm::SMLoc loc = parser.getCurrentLocation();
  std::string name;
  if (parser.parseString(&name)) return mlir::failure();
  int64_t preSize = 0, subSize = 0;
  if (mlir::succeeded(parser.parseOptionalColon())) {
    if (parser.parseLParen() || parser.parseInteger(preSize) || parser.parseRParen() ||
        parser.parseInteger(subSize)) {
      return mlir::failure();
    }
  }
  // Explicit StringRef: the generated getChecked then wins over the base-class template.
  AxisRefAttr axis = AxisRefAttr::getChecked([&] { return parser.emitError(loc); },
                                             parser.getContext(), llvm::StringRef(name),
                                             preSize, subSize);
  if (!axis) return mlir::failure();
  return axis;
}

void AxisRefAttr::printBody(mlir::AsmPrinter& printer) const {
  printer.printString(getName());
  if (isSubAxis()) printer << ":(" << getPreSize() << ")" << getSubSize();
}

mlir::Attribute AxisRefAttr::parse(mlir::AsmParser& parser, mlir::Type) {
  mlir::FailureOr<AxisRefAttr> axis;
  if (parser.parseLess() || mlir::failed(axis = parseBody(parser)) || parser.parseGreater()) {
    return {};
  }
  return *axis;
}

void AxisRefAttr::print(mlir::AsmPrinter& printer) const {
  printer << "<";
  printBody(printer);
  printer << ">";
}

//===------------------------------------------------------------------------------------===//
// DimShardingAttr: {"x", "y"}, {"x", ?}, {?}, {}, with an optional priority suffix p<N>
//===------------------------------------------------------------------------------------===//

mlir::FailureOr<DimShardingAttr> DimShardingAttr::parseBody(mlir::AsmParser& parser) {
  llvm::SMLoc loc = parser.getCurrentLocation();
  llvm::SmallVector<AxisRefAttr> axes;
  bool isClosed = true;
  if (parser.parseLBrace()) return mlir::failure();
  if (mlir::failed(parser.parseOptionalRBrace())) {
    while (true) {
      if (mlir::succeeded(parser.parseOptionalQuestion())) {
        // `?` marks the dimension open and must come last.
        isClosed = false;
        if (parser.parseRBrace()) return mlir::failure();
        break;
      }
      mlir::FailureOr<AxisRefAttr> axis = AxisRefAttr::parseBody(parser);
      if (mlir::failed(axis)) return mlir::failure();
      axes.push_back(*axis);
      if (mlir::succeeded(parser.parseOptionalRBrace())) break;
      if (parser.parseComma()) return mlir::failure();
    }
  }
  std::optional<int64_t> priority;
  llvm::SMLoc priorityLoc = parser.getCurrentLocation();
  llvm::StringRef keyword;
  if (mlir::succeeded(parser.parseOptionalKeyword(&keyword))) {
    int64_t value = 0;
    if (!keyword.consume_front("p") || keyword.getAsInteger(10, value)) {
      return parser.emitError(priorityLoc, "expected a priority like 'p0'");
    }
    priority = value;
  }
  DimShardingAttr dim =
      DimShardingAttr::getChecked([&] { return parser.emitError(loc); }, parser.getContext(),
                                  llvm::ArrayRef<AxisRefAttr>(axes), isClosed, priority);
  if (!dim) return mlir::failure();
  return dim;
}

void DimShardingAttr::printBody(mlir::AsmPrinter& printer) const {
  printer << "{";
  llvm::interleaveComma(getAxes(), printer, [&](AxisRefAttr axis) { axis.printBody(printer); });
  if (!getIsClosed()) printer << (getAxes().empty() ? "?" : ", ?");
  printer << "}";
  if (getPriority()) printer << "p" << *getPriority();
}

mlir::Attribute DimShardingAttr::parse(mlir::AsmParser& parser, mlir::Type) {
  mlir::FailureOr<DimShardingAttr> dim;
  if (parser.parseLess() || mlir::failed(dim = parseBody(parser)) || parser.parseGreater()) {
    return {};
  }
  return *dim;
}

void DimShardingAttr::print(mlir::AsmPrinter& printer) const {
  printer << "<";
  printBody(printer);
  printer << ">";
}

//===------------------------------------------------------------------------------------===//
// ShardingAttr: <@mesh, [dims...], replicated={...}, unreduced={...}>
//===------------------------------------------------------------------------------------===//

mlir::FailureOr<ShardingAttr> ShardingAttr::parseBody(mlir::AsmParser& parser) {
  mlir::StringAttr meshName;
  llvm::SmallVector<DimShardingAttr> dims;
  llvm::SmallVector<AxisRefAttr> replicated, unreduced;
  if (parser.parseSymbolName(meshName) || parser.parseComma()) return mlir::failure();
  auto parseDim = [&]() -> mlir::ParseResult {
    mlir::FailureOr<DimShardingAttr> dim = DimShardingAttr::parseBody(parser);
    if (mlir::failed(dim)) return mlir::failure();
    dims.push_back(*dim);
    return mlir::success();
  };
  if (parser.parseCommaSeparatedList(mlir::AsmParser::Delimiter::Square, parseDim)) {
    return mlir::failure();
  }
  // The optional sets come in this order, each at most once, as the printer writes them.
  if (mlir::succeeded(parser.parseOptionalComma())) {
    bool parsedReplicated = false;
    if (mlir::succeeded(parser.parseOptionalKeyword("replicated"))) {
      parsedReplicated = true;
      if (parser.parseEqual() || parseAxisRefSet(parser, replicated)) return mlir::failure();
    }
    if (!parsedReplicated || mlir::succeeded(parser.parseOptionalComma())) {
      if (parser.parseKeyword("unreduced") || parser.parseEqual() ||
          parseAxisRefSet(parser, unreduced)) {
        return mlir::failure();
      }
    }
  }
  return ShardingAttr::get(parser.getContext(), mlir::FlatSymbolRefAttr::get(meshName), dims,
                           replicated, unreduced);
}

void ShardingAttr::printBody(mlir::AsmPrinter& printer) const {
  printer.printAttributeWithoutType(getMeshName());
  printer << ", [";
  llvm::interleaveComma(getDimShardings(), printer,
                        [&](DimShardingAttr dim) { dim.printBody(printer); });
  printer << "]";
  if (!getReplicatedAxes().empty()) {
    printer << ", replicated=";
    printAxisRefSet(printer, getReplicatedAxes());
  }
  if (!getUnreducedAxes().empty()) {
    printer << ", unreduced=";
    printAxisRefSet(printer, getUnreducedAxes());
  }
}

mlir::Attribute ShardingAttr::parse(mlir::AsmParser& parser, mlir::Type) {
  mlir::FailureOr<ShardingAttr> sharding;
  if (parser.parseLess() || mlir::failed(sharding = parseBody(parser)) ||
      parser.parseGreater()) {
    return {};
  }
  return *sharding;
}

void ShardingAttr::print(mlir::AsmPrinter& printer) const {
  printer << "<";
  printBody(printer);
  printer << ">";
}

//===------------------------------------------------------------------------------------===//
// ShardingPerValueAttr: <[<@mesh, ...>, <@mesh, ...>]>
//===------------------------------------------------------------------------------------===//

mlir::Attribute ShardingPerValueAttr::parse(mlir::AsmParser& parser, mlir::Type) {
  llvm::SmallVector<ShardingAttr> shardings;
  auto parseOne = [&]() -> mlir::ParseResult {
    auto sharding = llvm::dyn_cast_or_null<ShardingAttr>(ShardingAttr::parse(parser, {}));
    if (!sharding) return mlir::failure();
    shardings.push_back(sharding);
    return mlir::success();
  };
  if (parser.parseLess() ||
      parser.parseCommaSeparatedList(mlir::AsmParser::Delimiter::Square, parseOne) ||
      parser.parseGreater()) {
    return {};
  }
  return ShardingPerValueAttr::get(parser.getContext(), shardings);
}

void ShardingPerValueAttr::print(mlir::AsmPrinter& printer) const {
  printer << "<[";
  llvm::interleaveComma(getShardings(), printer,
                        [&](ShardingAttr sharding) { sharding.print(printer); });
  printer << "]>";
}

}  // namespace tessel::ir
