// Small lexing steps shared by the attribute value parsers (hlo_attr_parsers.cc,
// hlo_group_parsers.cc). Each reports its own error naming the attribute.
#ifndef TESSEL_PARTITIONER_HLO_TEXT_HLO_ATTR_LEXING_H_
#define TESSEL_PARTITIONER_HLO_TEXT_HLO_ATTR_LEXING_H_

#include "partitioner/hlo_text/hlo_attr_parsers.h"

namespace tessel::hlo_text::attr_lexing {

Lexer lexerFor(const AttrText& attr, mlir::MLIRContext* context);
// Fails unless the lexer has consumed the whole value.
mlir::LogicalResult expectEnd(Lexer& lex, const AttrText& attr);
mlir::FailureOr<int64_t> lexIntOrError(Lexer& lex, const AttrText& attr);
// `{a,b,...}`.
mlir::FailureOr<IntList> lexIntList(Lexer& lex, const AttrText& attr);
// `a<sep>b<sep>c`, e.g. `2x2`.
mlir::FailureOr<IntList> lexSeparated(Lexer& lex, const AttrText& attr, char sep);
// `[a,b,...]`.
mlir::FailureOr<IntList> lexBracketList(Lexer& lex, const AttrText& attr);

}  // namespace tessel::hlo_text::attr_lexing

#endif  // TESSEL_PARTITIONER_HLO_TEXT_HLO_ATTR_LEXING_H_
