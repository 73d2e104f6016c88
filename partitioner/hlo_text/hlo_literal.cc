// Parsing and printing of HLO array literals.
#include "partitioner/hlo_text/hlo_literal.h"

#include <cctype>
#include <complex>
#include <optional>
#include <string>
#include <vector>

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/APInt.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/Format.h"

namespace tessel::hlo_text {
namespace {

class LiteralParser {
 public:
  LiteralParser(Lexer& lex, mlir::RankedTensorType type) : lex_(lex), type_(type) {}

  mlir::LogicalResult parse() {
    if (failed(parseLevel(0))) return mlir::failure();
    lex_.skipSpace();
    if (!lex_.atEnd()) return lex_.error() << "unexpected '" << lex_.rest() << "' after literal";
    return mlir::success();
  }

  std::vector<llvm::APInt> ints;
  std::vector<llvm::APFloat> floats;
  std::vector<std::complex<llvm::APFloat>> complexes;

 private:
  mlir::LogicalResult parseLevel(int64_t dim) {
    lex_.skipSpace();
    if (dim == type_.getRank()) return parseScalar();
    if (failed(lex_.expect(
            '{', llvm::Twine("to open dimension ") + llvm::Twine(dim) + " of the literal"))) {
      return mlir::failure();
    }
    int64_t count = 0;
    lex_.skipSpace();
    if (lex_.rest().starts_with("...")) {
      return lex_.error() << "literal is elided ('...'); dump HLO with large constants printed";
    }
    if (!lex_.consume('}')) {
      while (true) {
        if (failed(parseLevel(dim + 1))) return mlir::failure();
        ++count;
        lex_.skipSpace();
        if (lex_.consume('}')) break;
        if (failed(lex_.expect(',', "or '}' in literal"))) return mlir::failure();
      }
    }
    if (count != type_.getDimSize(dim)) {
      return lex_.error() << "literal has " << count << " elements in dimension " << dim
                          << " but the shape has " << type_.getDimSize(dim);
    }
    return mlir::success();
  }

  // The text up to the next ',', '}', white space or (inside a complex value) ')'.
  llvm::StringRef readToken(bool inComplex) {
    size_t len = 0;
    llvm::StringRef rest = lex_.rest();
    while (len < rest.size() && rest[len] != ',' && rest[len] != '}' &&
           !(inComplex && rest[len] == ')') &&
           !std::isspace(static_cast<unsigned char>(rest[len]))) {
      ++len;
    }
    llvm::StringRef token = rest.take_front(len);
    lex_.advance(len);
    return token;
  }

  // A float token (`1.5`, `-inf`, `nan`, `nan(0x1)`) in `semantics`, or nothing.
  static std::optional<llvm::APFloat> parseFloat(llvm::StringRef token,
                                                 const llvm::fltSemantics& semantics) {
    llvm::APFloat value(semantics);
    // XLA writes a NaN payload as nan(0x...); the payload does not change arithmetic.
    llvm::StringRef number = token.split('(').first;
    auto status = value.convertFromString(number, llvm::APFloat::rmNearestTiesToEven);
    if (!status) {
      llvm::consumeError(status.takeError());
      return std::nullopt;
    }
    return value;
  }

  // A complex value is written `(re, im)`, each part a float of the complex's part type.
  mlir::LogicalResult parseComplex(mlir::ComplexType complexType) {
    SourcePos start = lex_.pos();
    if (!lex_.consume('(')) {
      return mlir::emitError(lex_.toLoc(start))
             << "expected '(' to open a " << complexType << " value written (real, imag)";
    }
    auto& semantics = mlir::cast<mlir::FloatType>(complexType.getElementType()).getFloatSemantics();
    std::optional<llvm::APFloat> parts[2];
    for (int part = 0; part < 2; ++part) {
      lex_.skipSpace();
      SourcePos partStart = lex_.pos();
      llvm::StringRef token = readToken(/*inComplex=*/true);
      parts[part] = parseFloat(token, semantics);
      if (!parts[part]) {
        return mlir::emitError(lex_.toLoc(partStart))
               << "'" << token << "' is not a valid " << complexType.getElementType()
               << " value for the " << (part == 0 ? "real" : "imaginary") << " part of a "
               << complexType;
      }
      lex_.skipSpace();
      if (part == 0 && failed(lex_.expect(',', "between the parts of a complex value"))) {
        return mlir::failure();
      }
    }
    if (failed(lex_.expect(')', "to close a complex value"))) return mlir::failure();
    complexes.emplace_back(*parts[0], *parts[1]);
    return mlir::success();
  }

  mlir::LogicalResult parseScalar() {
    mlir::Type element = type_.getElementType();
    if (auto complexType = mlir::dyn_cast<mlir::ComplexType>(element)) {
      return parseComplex(complexType);
    }
    SourcePos start = lex_.pos();
    llvm::StringRef token = readToken(/*inComplex=*/false);
    auto bad = [&]() {
      return mlir::emitError(lex_.toLoc(start))
             << "'" << token << "' is not a valid " << element << " value";
    };
    if (element.isInteger(1)) {
      if (token != "true" && token != "false" && token != "1" && token != "0") return bad();
      ints.emplace_back(1, token == "true" || token == "1");
      return mlir::success();
    }
    if (auto intType = mlir::dyn_cast<mlir::IntegerType>(element)) {
      unsigned width = intType.getWidth();
      llvm::APInt value;
      bool negative = token.starts_with("-");
      llvm::StringRef digits = negative ? token.drop_front() : token;
      if (digits.empty() || digits.getAsInteger(10, value)) return bad();
      // One spare bit keeps the sign check exact.
      value = value.zextOrTrunc(std::max(value.getBitWidth(), width) + 1);
      if (negative) value.negate();
      bool fits = intType.isUnsigned()
                      ? !negative && value.getActiveBits() <= width
                      : value.getSignificantBits() <= width;
      if (!fits) return bad();
      ints.push_back(value.trunc(width));
      return mlir::success();
    }
    auto floatType = mlir::cast<mlir::FloatType>(element);
    std::optional<llvm::APFloat> value = parseFloat(token, floatType.getFloatSemantics());
    if (!value) return bad();
    floats.push_back(*value);
    return mlir::success();
  }

  Lexer& lex_;
  mlir::RankedTensorType type_;
};

void printFloat(const llvm::APFloat& v, llvm::raw_ostream& os);

void printScalar(mlir::DenseElementsAttr value, int64_t index, llvm::raw_ostream& os) {
  mlir::Type element = value.getElementType();
  if (element.isInteger(1)) {
    os << ((value.getValues<bool>()[index]) ? "true" : "false");
    return;
  }
  if (auto intType = mlir::dyn_cast<mlir::IntegerType>(element)) {
    llvm::APInt v = value.getValues<llvm::APInt>()[index];
    os << (intType.isUnsigned() ? llvm::toString(v, 10, false) : llvm::toString(v, 10, true));
    return;
  }
  if (mlir::isa<mlir::ComplexType>(element)) {
    std::complex<llvm::APFloat> v = value.getValues<std::complex<llvm::APFloat>>()[index];
    os << "(";
    printFloat(v.real(), os);
    os << ", ";
    printFloat(v.imag(), os);
    os << ")";
    return;
  }
  printFloat(value.getValues<llvm::APFloat>()[index], os);
}

void printFloat(const llvm::APFloat& v, llvm::raw_ostream& os) {
  if (v.isNaN()) {
    os << (v.isNegative() ? "-nan" : "nan");
    return;
  }
  if (v.isInfinity()) {
    os << (v.isNegative() ? "-inf" : "inf");
    return;
  }
  // The shortest %g form that reads back to the same value.
  bool lost = false;
  llvm::APFloat wide = v;
  wide.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven, &lost);
  llvm::SmallString<32> text;
  for (int digits = 1; digits <= 17; ++digits) {
    text.clear();
    llvm::raw_svector_ostream(text) << llvm::format("%.*g", digits, wide.convertToDouble());
    llvm::APFloat back(v.getSemantics());
    auto status = back.convertFromString(text, llvm::APFloat::rmNearestTiesToEven);
    if (!status) {
      llvm::consumeError(status.takeError());
      continue;
    }
    if (back.bitwiseIsEqual(v)) break;
  }
  os << text;
}

void printLevel(mlir::DenseElementsAttr value, llvm::ArrayRef<int64_t> shape, int64_t dim,
                int64_t& index, llvm::raw_ostream& os) {
  if (dim == int64_t(shape.size())) {
    printScalar(value, value.isSplat() ? 0 : index, os);
    ++index;
    return;
  }
  os << "{";
  for (int64_t i = 0; i < shape[dim]; ++i) {
    if (i) os << ", ";
    printLevel(value, shape, dim + 1, index, os);
  }
  os << "}";
}

}  // namespace

mlir::FailureOr<mlir::DenseElementsAttr> ParseLiteral(llvm::StringRef text, SourcePos pos,
                                                      mlir::RankedTensorType type,
                                                      mlir::MLIRContext* context) {
  Lexer lex(text, pos, context);
  LiteralParser parser(lex, type);
  if (failed(parser.parse())) return mlir::failure();
  if (mlir::isa<mlir::FloatType>(type.getElementType())) {
    return mlir::DenseElementsAttr::get(type, parser.floats);
  }
  if (mlir::isa<mlir::ComplexType>(type.getElementType())) {
    return mlir::DenseElementsAttr::get(type, parser.complexes);
  }
  return mlir::DenseElementsAttr::get(type, parser.ints);
}

void PrintLiteral(mlir::DenseElementsAttr value, llvm::raw_ostream& os) {
  int64_t index = 0;
  printLevel(value, value.getType().getShape(), 0, index, os);
}

}  // namespace tessel::hlo_text
