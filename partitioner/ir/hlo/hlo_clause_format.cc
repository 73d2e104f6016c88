// Optional `, name = value` clauses of hlo ops' custom assembly forms.
#include "partitioner/ir/hlo/hlo_clause_format.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"

namespace tessel::hlo {
namespace {

mlir::ParseResult parseI64List(mlir::OpAsmParser& parser, llvm::SmallVectorImpl<int64_t>& out) {
  return parser.parseCommaSeparatedList(mlir::AsmParser::Delimiter::Square,
                                        [&] { return parser.parseInteger(out.emplace_back()); });
}

// `[[lo, hi], ...]`; any other attribute (how an ill-shaped padding is printed) is parsed
// as is and left to the op verifier.
mlir::ParseResult parsePadding(mlir::OpAsmParser& parser, mlir::Attribute& value) {
  if (mlir::failed(parser.parseOptionalLSquare())) {
    llvm::SMLoc loc = parser.getCurrentLocation();
    if (parser.parseAttribute(value)) return mlir::failure();
    if (!llvm::isa<mlir::DenseIntElementsAttr>(value)) {
      return parser.emitError(loc) << "padding must be [[low, high], ...] or integer elements";
    }
    return mlir::success();
  }
  llvm::SmallVector<int64_t> flat;
  if (mlir::failed(parser.parseOptionalRSquare())) {
    do {
      llvm::SMLoc loc = parser.getCurrentLocation();
      size_t before = flat.size();
      if (parseI64List(parser, flat)) return mlir::failure();
      if (flat.size() - before != 2) {
        return parser.emitError(loc) << "padding rows must be [low, high] pairs";
      }
    } while (mlir::succeeded(parser.parseOptionalComma()));
    if (parser.parseRSquare()) return mlir::failure();
  }
  auto type = mlir::RankedTensorType::get({static_cast<int64_t>(flat.size() / 2), 2},
                                          parser.getBuilder().getI64Type());
  value = mlir::DenseIntElementsAttr::get(type, llvm::ArrayRef<int64_t>(flat));
  return mlir::success();
}

void printPadding(mlir::OpAsmPrinter& printer, mlir::Attribute value) {
  auto padding = llvm::dyn_cast<mlir::DenseIntElementsAttr>(value);
  if (!padding || padding.getType().getRank() != 2 || padding.getType().getDimSize(1) != 2) {
    printer.printAttribute(value);
    return;
  }
  llvm::SmallVector<int64_t> flat(padding.getValues<int64_t>());
  printer << "[";
  for (size_t row = 0; row < flat.size() / 2; ++row) {
    if (row > 0) printer << ", ";
    printer << "[" << flat[2 * row] << ", " << flat[2 * row + 1] << "]";
  }
  printer << "]";
}

}  // namespace

mlir::ParseResult parseOptionalClauses(mlir::OpAsmParser& parser,
                                       llvm::MutableArrayRef<OptionalClause> clauses) {
  llvm::SmallVector<bool> seen(clauses.size(), false);
  while (mlir::succeeded(parser.parseOptionalComma())) {
    llvm::SMLoc loc = parser.getCurrentLocation();
    llvm::StringRef name;
    if (parser.parseKeyword(&name)) return mlir::failure();
    auto* clause =
        llvm::find_if(clauses, [&](const OptionalClause& c) { return c.name == name; });
    if (clause == clauses.end()) return parser.emitError(loc) << "unknown clause '" << name << "'";
    size_t index = clause - clauses.begin();
    if (seen[index]) return parser.emitError(loc) << "clause '" << name << "' appears twice";
    seen[index] = true;
    if (parser.parseEqual()) return mlir::failure();
    switch (clause->kind) {
      case ClauseKind::kI64List: {
        llvm::SmallVector<int64_t> values;
        if (parseI64List(parser, values)) return mlir::failure();
        *clause->value = parser.getBuilder().getDenseI64ArrayAttr(values);
        break;
      }
      case ClauseKind::kPadding:
        if (parsePadding(parser, *clause->value)) return mlir::failure();
        break;
      case ClauseKind::kI64: {
        int64_t value;
        if (parser.parseInteger(value)) return mlir::failure();
        *clause->value = parser.getBuilder().getI64IntegerAttr(value);
        break;
      }
    }
  }
  return mlir::success();
}

void printOptionalClauses(mlir::OpAsmPrinter& printer,
                          llvm::ArrayRef<OptionalClause> clauses) {
  for (const OptionalClause& clause : clauses) {
    mlir::Attribute value = *clause.value;
    if (!value) continue;
    if (clause.kind == ClauseKind::kI64 && clause.printDefault) {
      auto integer = llvm::dyn_cast<mlir::IntegerAttr>(value);
      if (integer && integer.getInt() == *clause.printDefault) continue;
    }
    printer << ", " << clause.name << " = ";
    switch (clause.kind) {
      case ClauseKind::kI64List:
        // The ops declare these clauses as DenseI64ArrayAttr, so the cast holds.
        printer << "[";
        llvm::interleaveComma(llvm::cast<mlir::DenseI64ArrayAttr>(value).asArrayRef(), printer);
        printer << "]";
        break;
      case ClauseKind::kPadding:
        printPadding(printer, value);
        break;
      case ClauseKind::kI64:
        printer << llvm::cast<mlir::IntegerAttr>(value).getInt();
        break;
    }
  }
}

}  // namespace tessel::hlo
