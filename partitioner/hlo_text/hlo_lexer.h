// Character-level lexer for XLA HLO text. A Lexer walks one piece of the source (the whole
// file, or the text of one attribute value) and knows the line and column of every
// character, so each error points at the construct that caused it.
//
//   Lexer lex(text, {"model.hlo", 1, 1}, context);
//   lex.skipSpace();
//   llvm::StringRef name = lex.lexName();   // "add.3" from "%add.3"
//   if (!lex.consume('=')) return lex.error() << "expected '=' after " << name;
#ifndef TESSEL_PARTITIONER_HLO_TEXT_HLO_LEXER_H_
#define TESSEL_PARTITIONER_HLO_TEXT_HLO_LEXER_H_

#include <cstdint>
#include <optional>
#include <string>

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/MLIRContext.h"

namespace tessel::hlo_text {

// A position in the source buffer (1-based line and column) with the buffer's name. The
// parser keeps several per instruction; the name as an attribute is half the size of its
// text and makes each op's location without looking the name up.
struct SourcePos {
  mlir::StringAttr file;
  int line = 1;
  int col = 1;
};

class Lexer {
 public:
  // Lexes `text`, whose first character sits at `start` in the source.
  Lexer(llvm::StringRef text, SourcePos start, mlir::MLIRContext* context)
      : text_(text), pos_(start), context_(context) {}

  bool atEnd() const { return offset_ >= text_.size(); }
  // The character `ahead` places on, or '\0' past the end.
  char peek(size_t ahead = 0) const {
    return offset_ + ahead < text_.size() ? text_[offset_ + ahead] : '\0';
  }
  llvm::StringRef rest() const { return text_.drop_front(offset_); }
  SourcePos pos() const { return pos_; }
  mlir::MLIRContext* context() const { return context_; }

  // The location of the next character, and an error reported there or at `at`.
  mlir::Location loc() const { return toLoc(pos_); }
  mlir::Location toLoc(SourcePos at) const;
  mlir::InFlightDiagnostic error() const { return mlir::emitError(loc()); }

  // Skips spaces, newlines and comments (`// ...` to the end of the line, `/* ... */`).
  void skipSpace();
  // Skips spaces, tabs and `/* */` comments but stops at a newline.
  void skipSpaceInLine();
  // Advances over `n` characters, keeping line and column up to date.
  void advance(size_t n = 1);

  // After skipSpace: consumes `c` or the string `s` if it comes next.
  bool consume(char c);
  bool consume(llvm::StringRef s);
  // After skipSpace: consumes `c` or reports "expected 'c' <context>".
  // The context is a Twine so that callers naming the instruction or attribute build the
  // text only when it is reported.
  mlir::LogicalResult expect(char c, const llvm::Twine& context);

  // After skipSpace: a name, optionally preceded by '%' (not part of the result), made of
  // letters, digits and `_ . -`; empty if none comes next.
  llvm::StringRef lexName();
  // After skipSpace: an identifier of letters, digits, '_' and '-' (opcodes, keywords).
  llvm::StringRef lexIdentifier();
  // After skipSpace: an optionally signed decimal integer.
  std::optional<int64_t> lexInt();
  // After skipSpace: a double-quoted string with C escapes, returned unescaped.
  std::optional<std::string> lexString();
  // The text of a balanced group that starts at the next character, which must be one of
  // `({[`; brackets inside strings do not count. Includes the delimiters. Reports an
  // error (at the opening bracket) and returns nullopt if it is not closed.
  std::optional<llvm::StringRef> lexBalanced();
  // The raw text of an attribute value: everything up to a ',' or ')' outside brackets and
  // strings, a newline outside brackets, or the end. Trailing spaces are dropped.
  llvm::StringRef lexAttributeValue();

 private:
  // Advances over the `n` characters from the current one on, none of them a newline: the
  // column moves by `n`, without advance()'s test of each character.
  void advanceInLine(size_t n) {
    offset_ += n;
    pos_.col += static_cast<int>(n);
  }

  llvm::StringRef text_;
  size_t offset_ = 0;
  SourcePos pos_;
  mlir::MLIRContext* context_;
};

}  // namespace tessel::hlo_text

#endif  // TESSEL_PARTITIONER_HLO_TEXT_HLO_LEXER_H_
