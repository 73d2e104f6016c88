// Character-level lexing of XLA HLO text with line and column tracking.
#include "partitioner/hlo_text/hlo_lexer.h"

#include <limits>

#include "llvm/ADT/StringExtras.h"
#include "mlir/IR/BuiltinAttributes.h"

namespace tessel::hlo_text {
namespace {

// The ASCII classes, inline: the C library's functions consult the locale on every call.
bool isNameChar(char c) {
  return llvm::isAlnum(c) || c == '_' || c == '.' || c == '-';
}

char closerOf(char open) {
  switch (open) {
    case '(': return ')';
    case '[': return ']';
    case '{': return '}';
    default: return '\0';
  }
}

}  // namespace

mlir::Location Lexer::toLoc(SourcePos at) const {
  return mlir::FileLineColLoc::get(at.file, at.line, at.col);
}

void Lexer::advance(size_t n) {
  for (size_t i = 0; i < n && offset_ < text_.size(); ++i) {
    if (text_[offset_] == '\n') {
      ++pos_.line;
      pos_.col = 1;
    } else {
      ++pos_.col;
    }
    ++offset_;
  }
}

void Lexer::skipSpace() {
  while (!atEnd()) {
    char c = peek();
    if (c == ' ') {
      advanceInLine(1);
    } else if (llvm::isSpace(c)) {
      advance();
    } else if (c == '/' && peek(1) == '/') {
      while (!atEnd() && peek() != '\n') advance();
    } else if (c == '/' && peek(1) == '*') {
      advance(2);
      while (!atEnd() && !(peek() == '*' && peek(1) == '/')) advance();
      advance(2);
    } else {
      return;
    }
  }
}

void Lexer::skipSpaceInLine() {
  while (!atEnd()) {
    char c = peek();
    if (c == ' ' || c == '\t' || c == '\r') {
      advanceInLine(1);
    } else if (c == '/' && peek(1) == '*') {
      advance(2);
      while (!atEnd() && !(peek() == '*' && peek(1) == '/')) advance();
      advance(2);
    } else {
      return;
    }
  }
}

bool Lexer::consume(char c) {
  if (peek() != c || atEnd()) return false;
  advance();
  return true;
}

bool Lexer::consume(llvm::StringRef s) {
  if (!rest().starts_with(s)) return false;
  advance(s.size());
  return true;
}

mlir::LogicalResult Lexer::expect(char c, const llvm::Twine& context) {
  if (consume(c)) return mlir::success();
  return error() << "expected '" << c << "' " << context;
}

llvm::StringRef Lexer::lexName() {
  size_t start = offset_;
  if (peek() == '%') {
    advance();
    start = offset_;
  }
  size_t end = offset_;
  while (end < text_.size() && isNameChar(text_[end])) ++end;
  advanceInLine(end - offset_);
  return text_.slice(start, offset_);
}

llvm::StringRef Lexer::lexIdentifier() {
  const size_t start = offset_;
  size_t end = offset_;
  while (end < text_.size() &&
         (llvm::isAlnum(text_[end]) || text_[end] == '_' || text_[end] == '-')) {
    ++end;
  }
  advanceInLine(end - start);
  return text_.slice(start, offset_);
}

std::optional<int64_t> Lexer::lexInt() {
  // Every dimension of every shape is one: the digits are read once, into the magnitude,
  // which may reach one past INT64_MAX for a negative number.
  const bool negative = peek() == '-';
  const size_t firstDigit = negative || peek() == '+' ? 1 : 0;
  const uint64_t limit = static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) + negative;
  uint64_t magnitude = 0;
  bool outOfRange = false;
  size_t len = firstDigit;
  for (char c = peek(len); llvm::isDigit(c); c = peek(++len)) {
    const uint64_t digit = c - '0';
    if (magnitude > (limit - digit) / 10) {
      outOfRange = true;
    } else {
      magnitude = magnitude * 10 + digit;
    }
  }
  if (len == firstDigit || outOfRange) return std::nullopt;
  advanceInLine(len);
  if (!negative) return static_cast<int64_t>(magnitude);
  return magnitude == 0 ? 0 : -static_cast<int64_t>(magnitude - 1) - 1;
}

std::optional<std::string> Lexer::lexString() {
  if (peek() != '"') return std::nullopt;
  SourcePos start = pos_;
  advance();
  std::string out;
  while (!atEnd() && peek() != '"') {
    char c = peek();
    if (c == '\\') {
      char e = peek(1);
      advance(2);
      switch (e) {
        case 'n': out += '\n'; break;
        case 't': out += '\t'; break;
        case '\\': out += '\\'; break;
        case '"': out += '"'; break;
        case '\'': out += '\''; break;
        default: out += e; break;
      }
      continue;
    }
    out += c;
    advance();
  }
  if (!consume('"')) {
    mlir::emitError(toLoc(start)) << "unterminated string";
    return std::nullopt;
  }
  return out;
}

std::optional<llvm::StringRef> Lexer::lexBalanced() {
  SourcePos start = pos_;
  size_t begin = offset_;
  std::string stack;
  do {
    char c = peek();
    if (atEnd()) {
      mlir::emitError(toLoc(start)) << "'" << text_[begin] << "' is never closed";
      return std::nullopt;
    }
    if (c == '"') {
      if (!lexString()) return std::nullopt;
      continue;
    }
    if (char closer = closerOf(c)) {
      stack.push_back(closer);
    } else if (!stack.empty() && c == stack.back()) {
      stack.pop_back();
    }
    advance();
  } while (!stack.empty());
  return text_.slice(begin, offset_);
}

llvm::StringRef Lexer::lexAttributeValue() {
  size_t begin = offset_;
  int depth = 0;
  while (!atEnd()) {
    char c = peek();
    if (c == '"') {
      if (!lexString()) break;
      continue;
    }
    if (c == '(' || c == '[' || c == '{') ++depth;
    if (c == ')' || c == ']' || c == '}') {
      if (depth == 0) break;
      --depth;
    }
    if (depth == 0 && (c == ',' || c == '\n')) break;
    advance();
  }
  return text_.slice(begin, offset_).rtrim();
}

}  // namespace tessel::hlo_text
