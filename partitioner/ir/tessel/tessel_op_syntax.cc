// Custom directives of the tessel ops' assembly formats (see tessel_op_syntax.h).
#include "partitioner/ir/tessel/tessel_op_syntax.h"

#include "llvm/ADT/STLExtras.h"

namespace tessel::ir {

mlir::ParseResult parseAxisRefList(mlir::OpAsmParser& parser, mlir::ArrayAttr& axes) {
  llvm::SmallVector<mlir::Attribute> parsed;
  auto parseOne = [&]() -> mlir::ParseResult {
    mlir::FailureOr<AxisRefAttr> axis = AxisRefAttr::parseBody(parser);
    if (mlir::failed(axis)) return mlir::failure();
    parsed.push_back(*axis);
    return mlir::success();
  };
  if (parser.parseCommaSeparatedList(mlir::AsmParser::Delimiter::Square, parseOne)) {
    return mlir::failure();
  }
  axes = parser.getBuilder().getArrayAttr(parsed);
  return mlir::success();
}

void printAxisRefList(mlir::OpAsmPrinter& printer, mlir::Operation*, mlir::ArrayAttr axes) {
  printer << "[";
  llvm::interleaveComma(axes, printer, [&](mlir::Attribute axis) {
    llvm::cast<AxisRefAttr>(axis).printBody(printer);
  });
  printer << "]";
}

mlir::ParseResult parseReductionKind(mlir::OpAsmParser& parser, ReductionKindAttr& kind) {
  llvm::SMLoc loc = parser.getCurrentLocation();
  llvm::StringRef keyword;
  if (parser.parseKeyword(&keyword)) return mlir::failure();
  std::optional<ReductionKind> value = symbolizeReductionKind(keyword);
  if (!value) {
    return parser.emitError(loc) << "unknown reduction kind '" << keyword
                                 << "', expected sum, prod, max or min";
  }
  kind = ReductionKindAttr::get(parser.getContext(), *value);
  return mlir::success();
}

void printReductionKind(mlir::OpAsmPrinter& printer, mlir::Operation*, ReductionKindAttr kind) {
  printer << stringifyReductionKind(kind.getValue());
}

mlir::ParseResult parsePermuteRule(mlir::OpAsmParser& parser, mlir::IntegerAttr& shift,
                                   mlir::UnitAttr& cyclic, mlir::DenseI64ArrayAttr& pairs) {
  mlir::Builder& builder = parser.getBuilder();
  if (mlir::succeeded(parser.parseOptionalKeyword("shift"))) {
    int64_t value = 0;
    if (parser.parseEqual() || parser.parseInteger(value)) return mlir::failure();
    shift = builder.getI64IntegerAttr(value);
    if (mlir::succeeded(parser.parseOptionalKeyword("cyclic"))) cyclic = builder.getUnitAttr();
    return mlir::success();
  }
  if (parser.parseKeyword("pairs", " or 'shift'") || parser.parseEqual()) {
    return mlir::failure();
  }
  llvm::SmallVector<int64_t> flat;
  auto parsePair = [&]() -> mlir::ParseResult {
    int64_t source = 0, target = 0;
    if (parser.parseLSquare() || parser.parseInteger(source) || parser.parseComma() ||
        parser.parseInteger(target) || parser.parseRSquare()) {
      return mlir::failure();
    }
    flat.append({source, target});
    return mlir::success();
  };
  if (parser.parseCommaSeparatedList(mlir::AsmParser::Delimiter::Square, parsePair)) {
    return mlir::failure();
  }
  pairs = builder.getDenseI64ArrayAttr(flat);
  return mlir::success();
}

void printPermuteRule(mlir::OpAsmPrinter& printer, mlir::Operation*, mlir::IntegerAttr shift,
                      mlir::UnitAttr cyclic, mlir::DenseI64ArrayAttr pairs) {
  if (shift) {
    printer << "shift = " << shift.getInt();
    if (cyclic) printer << " cyclic";
    return;
  }
  if (!pairs) return;
  printer << "pairs = [";
  llvm::ArrayRef<int64_t> flat = pairs.asArrayRef();
  for (size_t i = 0; i + 1 < flat.size(); i += 2) {
    if (i != 0) printer << ", ";
    printer << "[" << flat[i] << ", " << flat[i + 1] << "]";
  }
  printer << "]";
}

}  // namespace tessel::ir
