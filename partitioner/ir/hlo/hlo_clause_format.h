// Pieces of the custom assembly forms shared by several hlo ops: optional `, name = value`
// clauses (window strides, dilations, padding, group counts) and dimension-number
// attributes spelled inline.
//
//   mlir::Attribute strides, padding;
//   OptionalClause clauses[] = {{"window_strides", ClauseKind::kI64List, &strides},
//                               {"padding", ClauseKind::kPadding, &padding}};
//   if (parseOptionalClauses(parser, clauses)) return mlir::failure();
//   // Accepts e.g. `, padding = [[0, 1], [1, 0]]`; absent clauses stay null.
#ifndef TESSEL_PARTITIONER_IR_HLO_HLO_CLAUSE_FORMAT_H_
#define TESSEL_PARTITIONER_IR_HLO_HLO_CLAUSE_FORMAT_H_

#include <cstdint>
#include <optional>

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "mlir/IR/OpImplementation.h"

namespace tessel::hlo {

enum class ClauseKind {
  kI64List,  // `[1, 2]`, a DenseI64ArrayAttr
  kPadding,  // `[[lo, hi], ...]`, an Nx2 i64 DenseIntElementsAttr
  kI64,      // `3`, an i64 IntegerAttr
};

// One optional `, name = value` clause.
struct OptionalClause {
  llvm::StringRef name;
  ClauseKind kind;
  mlir::Attribute* value;
  // For kI64: a value equal to this is not printed (it is the attribute's default, which
  // the op fills in when the clause is absent).
  std::optional<int64_t> printDefault = std::nullopt;
};

// Parses any number of `, name = value` clauses, each named in `clauses` and given at most
// once, in any order. Stores each parsed value; leaves absent ones untouched.
mlir::ParseResult parseOptionalClauses(mlir::OpAsmParser& parser,
                                       llvm::MutableArrayRef<OptionalClause> clauses);

// Prints the non-null clauses in the order given, each as `, name = value`.
void printOptionalClauses(mlir::OpAsmPrinter& printer,
                          llvm::ArrayRef<OptionalClause> clauses);

// Parses and prints a dimension-numbers attribute through its `parseInline`/`printInline`
// (the fields without `#hlo.name<>`), so it can stand before the `:` of an op's custom form.
template <typename AttrT>
mlir::ParseResult parseInlineAttr(mlir::OpAsmParser& parser, AttrT& attr) {
  attr = llvm::cast_or_null<AttrT>(AttrT::parseInline(parser));
  return mlir::success(static_cast<bool>(attr));
}

template <typename AttrT>
void printInlineAttr(mlir::OpAsmPrinter& printer, AttrT attr) {
  attr.printInline(printer);
}

}  // namespace tessel::hlo

#endif  // TESSEL_PARTITIONER_IR_HLO_HLO_CLAUSE_FORMAT_H_
