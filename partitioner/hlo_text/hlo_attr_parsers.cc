// Parsers of HLO attribute values; see hlo_attr_parsers.h for the forms each accepts.
#include "partitioner/hlo_text/hlo_attr_parsers.h"
#include "partitioner/hlo_text/hlo_attr_lexing.h"

#include <cctype>
#include <map>
#include <numeric>

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"

namespace tessel::hlo_text {
namespace attr_lexing {

Lexer lexerFor(const AttrText& attr, mlir::MLIRContext* context) {
  return Lexer(attr.value, attr.pos, context);
}

// Fails unless the lexer has consumed the whole value.
mlir::LogicalResult expectEnd(Lexer& lex, const AttrText& attr) {
  lex.skipSpace();
  if (lex.atEnd()) return mlir::success();
  return lex.error() << "unexpected '" << lex.rest() << "' in attribute '" << attr.name
                     << "'";
}

mlir::FailureOr<int64_t> lexIntOrError(Lexer& lex, const AttrText& attr) {
  lex.skipSpace();
  std::optional<int64_t> value = lex.lexInt();
  if (!value) return lex.error() << "expected an integer in attribute '" << attr.name << "'";
  return *value;
}

// `{a,b,...}` at the lexer's position.
mlir::FailureOr<IntList> lexIntList(Lexer& lex, const AttrText& attr) {
  lex.skipSpace();
  if (failed(lex.expect('{', llvm::Twine("to open a list in attribute '") + attr.name + "'"))) {
    return mlir::failure();
  }
  IntList values;
  lex.skipSpace();
  if (lex.consume('}')) return values;
  while (true) {
    mlir::FailureOr<int64_t> value = lexIntOrError(lex, attr);
    if (failed(value)) return mlir::failure();
    values.push_back(*value);
    lex.skipSpace();
    if (lex.consume('}')) return values;
    if (failed(lex.expect(',', llvm::Twine("or '}' in attribute '") + attr.name + "'"))) {
      return mlir::failure();
    }
  }
}

// `a<sep>b<sep>c` of integers, e.g. `2x2`.
mlir::FailureOr<IntList> lexSeparated(Lexer& lex, const AttrText& attr, char sep) {
  IntList values;
  while (true) {
    std::optional<int64_t> value = lex.lexInt();
    if (!value) return lex.error() << "expected an integer in attribute '" << attr.name << "'";
    values.push_back(*value);
    if (!lex.consume(sep)) return values;
  }
}

// `[a,b,...]` at the lexer's position.
mlir::FailureOr<IntList> lexBracketList(Lexer& lex, const AttrText& attr) {
  if (failed(lex.expect('[', llvm::Twine("in attribute '") + attr.name + "'"))) {
    return mlir::failure();
  }
  IntList values;
  while (true) {
    mlir::FailureOr<int64_t> value = lexIntOrError(lex, attr);
    if (failed(value)) return mlir::failure();
    values.push_back(*value);
    lex.skipSpace();
    if (lex.consume(']')) return values;
    if (failed(lex.expect(',', llvm::Twine("or ']' in attribute '") + attr.name + "'"))) {
      return mlir::failure();
    }
  }
}

}  // namespace attr_lexing

using namespace attr_lexing;


mlir::FailureOr<IntList> ParseIntList(const AttrText& attr, mlir::MLIRContext* context) {
  Lexer lex = lexerFor(attr, context);
  mlir::FailureOr<IntList> values = lexIntList(lex, attr);
  if (failed(values) || failed(expectEnd(lex, attr))) return mlir::failure();
  return values;
}

mlir::FailureOr<std::vector<IntList>> ParseIntListList(const AttrText& attr,
                                                       mlir::MLIRContext* context) {
  Lexer lex = lexerFor(attr, context);
  if (failed(lex.expect('{', llvm::Twine("to open attribute '") + attr.name + "'"))) {
    return mlir::failure();
  }
  std::vector<IntList> lists;
  lex.skipSpace();
  if (lex.consume('}')) return lists;
  while (true) {
    mlir::FailureOr<IntList> list = lexIntList(lex, attr);
    if (failed(list)) return mlir::failure();
    lists.push_back(*list);
    lex.skipSpace();
    if (lex.consume('}')) break;
    if (failed(lex.expect(',', llvm::Twine("or '}' in attribute '") + attr.name + "'"))) {
      return mlir::failure();
    }
  }
  if (failed(expectEnd(lex, attr))) return mlir::failure();
  return lists;
}

mlir::FailureOr<int64_t> ParseIntAttr(const AttrText& attr, mlir::MLIRContext* context) {
  Lexer lex = lexerFor(attr, context);
  mlir::FailureOr<int64_t> value = lexIntOrError(lex, attr);
  if (failed(value) || failed(expectEnd(lex, attr))) return mlir::failure();
  return value;
}

mlir::FailureOr<bool> ParseBoolAttr(const AttrText& attr, mlir::MLIRContext* context) {
  if (attr.value == "true") return true;
  if (attr.value == "false") return false;
  return mlir::emitError(Lexer("", attr.pos, context).loc())
         << "attribute '" << attr.name << "' must be true or false";
}

mlir::FailureOr<std::string> ParseStringAttr(const AttrText& attr,
                                             mlir::MLIRContext* context) {
  if (attr.value.starts_with("{")) return attr.value.str();
  Lexer lex = lexerFor(attr, context);
  std::optional<std::string> value = lex.lexString();
  if (!value) {
    return mlir::emitError(lex.loc()) << "attribute '" << attr.name
                                      << "' must be a quoted string";
  }
  if (failed(expectEnd(lex, attr))) return mlir::failure();
  return *value;
}

mlir::FailureOr<std::string> ParseWordAttr(const AttrText& attr, mlir::MLIRContext* context) {
  Lexer lex = lexerFor(attr, context);
  std::string word = lex.lexIdentifier().str();
  if (word.empty()) return lex.error() << "expected a word in attribute '" << attr.name << "'";
  if (failed(expectEnd(lex, attr))) return mlir::failure();
  return word;
}

mlir::FailureOr<std::string> ParseComputationRef(const AttrText& attr,
                                                 mlir::MLIRContext* context) {
  Lexer lex = lexerFor(attr, context);
  std::string name = lex.lexName().str();
  if (name.empty()) return lex.error() << "expected a computation name in '" << attr.name << "'";
  if (failed(expectEnd(lex, attr))) return mlir::failure();
  return name;
}

mlir::FailureOr<std::vector<std::string>> ParseComputationList(const AttrText& attr,
                                                               mlir::MLIRContext* context) {
  Lexer lex = lexerFor(attr, context);
  if (failed(lex.expect('{', llvm::Twine("to open attribute '") + attr.name + "'"))) {
    return mlir::failure();
  }
  std::vector<std::string> names;
  while (true) {
    lex.skipSpace();
    std::string name = lex.lexName().str();
    if (name.empty()) return lex.error() << "expected a computation name in '" << attr.name << "'";
    names.push_back(name);
    lex.skipSpace();
    if (lex.consume('}')) break;
    if (failed(lex.expect(',', llvm::Twine("or '}' in attribute '") + attr.name + "'"))) {
      return mlir::failure();
    }
  }
  if (failed(expectEnd(lex, attr))) return mlir::failure();
  return names;
}

mlir::FailureOr<SliceRanges> ParseSliceRanges(const AttrText& attr, mlir::MLIRContext* context) {
  Lexer lex = lexerFor(attr, context);
  if (failed(lex.expect('{', "to open attribute 'slice'"))) return mlir::failure();
  SliceRanges ranges;
  lex.skipSpace();
  if (lex.consume('}')) return ranges;
  while (true) {
    lex.skipSpace();
    if (failed(lex.expect('[', "to open a slice range"))) return mlir::failure();
    mlir::FailureOr<int64_t> start = lexIntOrError(lex, attr);
    if (failed(start) || failed(lex.expect(':', "in slice range"))) return mlir::failure();
    mlir::FailureOr<int64_t> limit = lexIntOrError(lex, attr);
    if (failed(limit)) return mlir::failure();
    int64_t stride = 1;
    lex.skipSpace();
    if (lex.consume(':')) {
      mlir::FailureOr<int64_t> s = lexIntOrError(lex, attr);
      if (failed(s)) return mlir::failure();
      stride = *s;
    }
    lex.skipSpace();
    if (failed(lex.expect(']', "to close a slice range"))) return mlir::failure();
    ranges.starts.push_back(*start);
    ranges.limits.push_back(*limit);
    ranges.strides.push_back(stride);
    lex.skipSpace();
    if (lex.consume('}')) break;
    if (failed(lex.expect(',', "or '}' between slice ranges"))) return mlir::failure();
  }
  if (failed(expectEnd(lex, attr))) return mlir::failure();
  return ranges;
}

mlir::FailureOr<PaddingConfig> ParsePaddingConfig(const AttrText& attr,
                                                  mlir::MLIRContext* context) {
  Lexer lex = lexerFor(attr, context);
  PaddingConfig config;
  while (!lex.atEnd()) {
    mlir::FailureOr<IntList> dim = lexSeparated(lex, attr, '_');
    if (failed(dim)) return mlir::failure();
    if (dim->size() != 2 && dim->size() != 3) {
      return lex.error() << "padding of a dimension is low_high or low_high_interior";
    }
    config.low.push_back((*dim)[0]);
    config.high.push_back((*dim)[1]);
    config.interior.push_back(dim->size() == 3 ? (*dim)[2] : 0);
    if (!lex.consume('x')) break;
  }
  if (failed(expectEnd(lex, attr))) return mlir::failure();
  return config;
}

mlir::FailureOr<Window> ParseWindow(const AttrText& attr, mlir::MLIRContext* context) {
  Lexer lex = lexerFor(attr, context);
  if (failed(lex.expect('{', "to open attribute 'window'"))) return mlir::failure();
  Window window;
  while (true) {
    lex.skipSpace();
    if (lex.consume('}')) break;
    SourcePos keyPos = lex.pos();
    std::string key = lex.lexIdentifier().str();
    if (failed(lex.expect('=', llvm::Twine("after window field '") + key + "'"))) {
      return mlir::failure();
    }
    if (key == "pad") {
      while (true) {
        mlir::FailureOr<IntList> dim = lexSeparated(lex, attr, '_');
        if (failed(dim)) return mlir::failure();
        if (dim->size() != 2) return lex.error() << "window padding of a dimension is low_high";
        window.padLow.push_back((*dim)[0]);
        window.padHigh.push_back((*dim)[1]);
        if (!lex.consume('x')) break;
      }
      continue;
    }
    mlir::FailureOr<IntList> values = lexSeparated(lex, attr, 'x');
    if (failed(values)) return mlir::failure();
    if (key == "rhs_reversal") {
      if (llvm::any_of(*values, [](int64_t v) { return v != 0 && v != 1; })) {
        return mlir::emitError(lex.toLoc(keyPos))
               << "window rhs_reversal takes 0 or 1 per dimension";
      }
      window.rhsReversal = *values;
      window.rhsReversalPos = keyPos;
      continue;
    }
    IntList* field = llvm::StringSwitch<IntList*>(key)
                         .Case("size", &window.size)
                         .Case("stride", &window.stride)
                         .Case("lhs_dilate", &window.lhsDilate)
                         .Case("rhs_dilate", &window.rhsDilate)
                         .Default(nullptr);
    if (!field) {
      return mlir::emitError(lex.toLoc(keyPos)) << "unknown window field '" << key << "'";
    }
    *field = *values;
  }
  if (failed(expectEnd(lex, attr))) return mlir::failure();
  return window;
}

mlir::FailureOr<ConvLabels> ParseConvLabels(const AttrText& attr, mlir::MLIRContext* context) {
  // `b01f_01io->b01f`: one letter or digit per dimension, in dimension order.
  llvm::StringRef text = attr.value;
  auto error = [&]() {
    return mlir::emitError(Lexer("", attr.pos, context).loc())
           << "dim_labels '" << text << "' must look like b01f_01io->b01f";
  };
  size_t underscore = text.find('_');
  size_t arrow = text.find("->");
  if (underscore == llvm::StringRef::npos || arrow == llvm::StringRef::npos ||
      arrow < underscore) {
    return error();
  }
  llvm::StringRef parts[3] = {text.slice(0, underscore), text.slice(underscore + 1, arrow),
                              text.drop_front(arrow + 2)};
  const char* letters[3] = {"bf", "io", "bf"};
  ConvLabels labels;
  int64_t* majors[3][2] = {{&labels.inputBatch, &labels.inputFeature},
                           {&labels.kernelInput, &labels.kernelOutput},
                           {&labels.outputBatch, &labels.outputFeature}};
  IntList* spatial[3] = {&labels.inputSpatial, &labels.kernelSpatial, &labels.outputSpatial};
  size_t numSpatial = parts[0].size() - 2;
  for (int p = 0; p < 3; ++p) {
    if (parts[p].size() < 2 || parts[p].size() - 2 != numSpatial || numSpatial > 10) {
      return error();
    }
    spatial[p]->assign(numSpatial, -1);
    for (size_t d = 0; d < parts[p].size(); ++d) {
      char c = parts[p][d];
      if (c == letters[p][0] && *majors[p][0] < 0) {
        *majors[p][0] = d;
      } else if (c == letters[p][1] && *majors[p][1] < 0) {
        *majors[p][1] = d;
      } else if (std::isdigit(static_cast<unsigned char>(c)) && size_t(c - '0') < numSpatial &&
                 (*spatial[p])[c - '0'] < 0) {
        (*spatial[p])[c - '0'] = d;
      } else {
        return error();
      }
    }
    if (*majors[p][0] < 0 || *majors[p][1] < 0) return error();
  }
  return labels;
}

}  // namespace tessel::hlo_text
