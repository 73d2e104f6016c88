// Parse hooks of the `stablehlo`, `chlo` and `sdy` dialects. A hook that knows the op's
// `hlo` or `tessel` counterpart renames the op state before the parser creates the op, so
// the parser builds the counterpart directly; where the syntax is the same it hands over to
// the counterpart's own parser. Ops in the generic form stay unregistered until import.cc.
#include "partitioner/stablehlo/dialects.h"

#include <string>

#include "llvm/ADT/StringSwitch.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/ir/tessel/tessel_ops.h"

MLIR_DEFINE_EXPLICIT_TYPE_ID(tessel::stablehlo::StablehloDialect)
MLIR_DEFINE_EXPLICIT_TYPE_ID(tessel::stablehlo::ChloDialect)
MLIR_DEFINE_EXPLICIT_TYPE_ID(tessel::stablehlo::SdyDialect)

namespace tessel::stablehlo {
namespace {

using Parser = mlir::OpAsmParser;
using State = mlir::OperationState;
using Operands = llvm::SmallVector<Parser::UnresolvedOperand>;

// The op name without its dialect prefix.
llvm::StringRef shortName(const State& state) {
  return state.name.getStringRef().split('.').second;
}

void rename(State& state, llvm::StringRef name) {
  state.name = mlir::OperationName(name, state.getContext());
}

// Hands the rest of the op to the parser of registered op `name`, which then is the op made.
mlir::ParseResult delegate(Parser& parser, State& state, llvm::StringRef name) {
  std::optional<mlir::RegisteredOperationName> op =
      mlir::RegisteredOperationName::lookup(name, state.getContext());
  if (!op) return parser.emitError(parser.getCurrentLocation()) << "no op " << name;
  rename(state, name);
  return op->getParseAssemblyFn()(parser, state);
}

mlir::ParseResult parseIntList(Parser& parser, llvm::SmallVectorImpl<int64_t>& values) {
  return parser.parseCommaSeparatedList(Parser::Delimiter::Square, [&]() {
    return parser.parseInteger(values.emplace_back());
  });
}

mlir::DenseI64ArrayAttr i64Array(Parser& parser, llvm::ArrayRef<int64_t> values) {
  return parser.getBuilder().getDenseI64ArrayAttr(values);
}

// Types after `:` in StableHLO's forms: `(T, ...) -> R` or `(T, ...) -> (R, ...)`; `T -> R`
// and `T -> (R, ...)` (CHLO); or one type `T` shared by `numOperands` operands and the
// single result.
mlir::ParseResult parseOpTypes(Parser& parser, size_t numOperands,
                               llvm::SmallVectorImpl<mlir::Type>& operandTypes,
                               llvm::SmallVectorImpl<mlir::Type>& resultTypes) {
  mlir::Type type;
  if (parser.parseColonType(type)) return mlir::failure();
  if (auto function = llvm::dyn_cast<mlir::FunctionType>(type)) {
    operandTypes.append(function.getInputs().begin(), function.getInputs().end());
    resultTypes.append(function.getResults().begin(), function.getResults().end());
    return mlir::success();
  }
  operandTypes.assign(numOperands, type);
  if (mlir::succeeded(parser.parseOptionalArrow())) {
    if (mlir::succeeded(parser.parseOptionalLParen())) {
      return mlir::failure(parser.parseTypeList(resultTypes) || parser.parseRParen());
    }
    return parser.parseType(resultTypes.emplace_back());
  }
  resultTypes.push_back(type);
  return mlir::success();
}

mlir::ParseResult resolve(Parser& parser, State& state, llvm::SMLoc loc, const Operands& operands,
                          llvm::ArrayRef<mlir::Type> operandTypes,
                          llvm::ArrayRef<mlir::Type> resultTypes) {
  if (operandTypes.size() != operands.size()) {
    return parser.emitError(loc) << "expected " << operands.size() << " operand types, got "
                                 << operandTypes.size();
  }
  state.addTypes(resultTypes);
  return parser.resolveOperands(operands, operandTypes, loc, state.operands);
}

// Unary and binary elementwise ops: `%a, %b attr-dict : types`.
mlir::ParseResult parseElementwise(Parser& parser, State& state) {
  llvm::StringRef dialect = state.name.getDialectNamespace();
  llvm::StringRef target = hloElementwiseName(dialect, shortName(state));
  Operands operands;
  llvm::SmallVector<mlir::Type> operandTypes, resultTypes;
  llvm::SMLoc loc = parser.getCurrentLocation();
  if (parser.parseOperandList(operands) || parser.parseOptionalAttrDict(state.attributes) ||
      parseOpTypes(parser, operands.size(), operandTypes, resultTypes) ||
      resolve(parser, state, loc, operands, operandTypes, resultTypes)) {
    return mlir::failure();
  }
  // x² is x·x; chlo ops without a single hlo op (erfc) stay for the import to expand.
  if (dialect == "chlo" && shortName(state) == "square") {
    state.operands.push_back(state.operands.front());
  }
  if (!target.empty()) rename(state, target);
  return mlir::success();
}

// `stablehlo.compare GT, %a, %b, FLOAT : types`
mlir::ParseResult parseCompare(Parser& parser, State& state) {
  std::string direction;
  Operands operands(2);
  llvm::SMLoc loc = parser.getCurrentLocation();
  if (parser.parseKeywordOrString(&direction) || parser.parseComma() ||
      parser.parseOperand(operands[0]) || parser.parseComma() ||
      parser.parseOperand(operands[1])) {
    return mlir::failure();
  }
  std::optional<hlo::ComparisonDirection> dir = hlo::symbolizeComparisonDirection(direction);
  if (!dir) return parser.emitError(loc) << "unknown comparison direction '" << direction << "'";
  mlir::MLIRContext* context = state.getContext();
  state.addAttribute("comparison_direction", hlo::ComparisonDirectionAttr::get(context, *dir));
  if (mlir::succeeded(parser.parseOptionalComma())) {
    std::string kind;
    llvm::SMLoc kindLoc = parser.getCurrentLocation();
    if (parser.parseKeywordOrString(&kind)) return mlir::failure();
    if (kind != "NOTYPE") {
      std::optional<hlo::ComparisonType> type = hlo::symbolizeComparisonType(kind);
      if (!type) return parser.emitError(kindLoc) << "unknown comparison type '" << kind << "'";
      state.addAttribute("compare_type", hlo::ComparisonTypeAttr::get(context, *type));
    }
  }
  llvm::SmallVector<mlir::Type> operandTypes, resultTypes;
  if (parser.parseOptionalAttrDict(state.attributes) ||
      parseOpTypes(parser, 2, operandTypes, resultTypes)) {
    return mlir::failure();
  }
  if (resultTypes.size() != 1 || operandTypes.size() != 2) {
    return parser.emitError(loc) << "expected two operand types and one result type";
  }
  // The one-type form names the operands' type; the result is pred of their shape.
  if (auto shaped = llvm::dyn_cast<mlir::RankedTensorType>(resultTypes.front());
      shaped && resultTypes.front() == operandTypes.front()) {
    resultTypes[0] = shaped.clone(parser.getBuilder().getI1Type());
  }
  rename(state, "hlo.compare");
  return resolve(parser, state, loc, operands, operandTypes, resultTypes);
}

// `stablehlo.select %p, %a, %b : Tp, T` or with a functional type.
mlir::ParseResult parseSelect(Parser& parser, State& state) {
  Operands operands;
  llvm::SMLoc loc = parser.getCurrentLocation();
  mlir::Type first;
  if (parser.parseOperandList(operands, 3) || parser.parseOptionalAttrDict(state.attributes) ||
      parser.parseColonType(first)) {
    return mlir::failure();
  }
  llvm::SmallVector<mlir::Type> operandTypes, resultTypes;
  if (auto function = llvm::dyn_cast<mlir::FunctionType>(first)) {
    operandTypes.append(function.getInputs().begin(), function.getInputs().end());
    resultTypes.append(function.getResults().begin(), function.getResults().end());
  } else {
    mlir::Type value;
    if (parser.parseComma() || parser.parseType(value)) return mlir::failure();
    operandTypes = {first, value, value};
    resultTypes = {value};
  }
  rename(state, "hlo.select");
  return resolve(parser, state, loc, operands, operandTypes, resultTypes);
}

// `stablehlo.transpose %x, dims = [1, 0] : (T) -> R`
mlir::ParseResult parseTranspose(Parser& parser, State& state) {
  Operands operands(1);
  llvm::SmallVector<int64_t> dims;
  llvm::SmallVector<mlir::Type> operandTypes, resultTypes;
  llvm::SMLoc loc = parser.getCurrentLocation();
  if (parser.parseOperand(operands[0]) || parser.parseComma() || parser.parseKeyword("dims") ||
      parser.parseEqual() || parseIntList(parser, dims) ||
      parser.parseOptionalAttrDict(state.attributes) ||
      parseOpTypes(parser, 1, operandTypes, resultTypes)) {
    return mlir::failure();
  }
  state.addAttribute("permutation", i64Array(parser, dims));
  rename(state, "hlo.transpose");
  return resolve(parser, state, loc, operands, operandTypes, resultTypes);
}

// `precision = [DEFAULT, HIGHEST]`: XLA's CPU arithmetic is the same for every setting.
mlir::ParseResult skipPrecision(Parser& parser) {
  return parser.parseCommaSeparatedList(Parser::Delimiter::Square, [&]() {
    std::string ignored;
    return parser.parseKeywordOrString(&ignored);
  });
}

// `%a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [...] : ...`
// and `stablehlo.dot %a, %b, precision = [...] : ...` (contracting the last dimension of
// %a with the first of %b).
mlir::ParseResult parseDot(Parser& parser, State& state) {
  bool plainDot = shortName(state) == "dot";
  Operands operands(2);
  llvm::SmallVector<int64_t> lhsBatch, rhsBatch, lhsContract, rhsContract;
  llvm::SMLoc loc = parser.getCurrentLocation();
  if (parser.parseOperand(operands[0]) || parser.parseComma() || parser.parseOperand(operands[1]))
    return mlir::failure();
  while (mlir::succeeded(parser.parseOptionalComma())) {
    llvm::SMLoc keyLoc = parser.getCurrentLocation();
    std::string key;
    if (parser.parseKeywordOrString(&key) || parser.parseEqual()) return mlir::failure();
    if (key == "precision") {
      if (skipPrecision(parser)) return mlir::failure();
    } else if (key == "batching_dims" && !plainDot) {
      if (parseIntList(parser, lhsBatch) || parser.parseKeyword("x") ||
          parseIntList(parser, rhsBatch)) {
        return mlir::failure();
      }
    } else if (key == "contracting_dims" && !plainDot) {
      if (parseIntList(parser, lhsContract) || parser.parseKeyword("x") ||
          parseIntList(parser, rhsContract)) {
        return mlir::failure();
      }
    } else {
      return parser.emitError(keyLoc) << "'" << key << "' is not supported on stablehlo."
                                      << shortName(state);
    }
  }
  llvm::SmallVector<mlir::Type> operandTypes, resultTypes;
  if (parser.parseOptionalAttrDict(state.attributes) ||
      parseOpTypes(parser, 2, operandTypes, resultTypes)) {
    return mlir::failure();
  }
  state.attributes.erase("precision_config");
  if (plainDot) {
    auto lhs = operandTypes.empty() ? nullptr
                                    : llvm::dyn_cast<mlir::RankedTensorType>(operandTypes[0]);
    if (!lhs || lhs.getRank() < 1) return parser.emitError(loc) << "expected a ranked lhs";
    lhsContract = {lhs.getRank() - 1};
    rhsContract = {0};
  }
  state.addAttribute("dot_dimension_numbers",
                     hlo::DotDimensionNumbersAttr::get(state.getContext(), lhsBatch, rhsBatch,
                                                       lhsContract, rhsContract));
  rename(state, "hlo.dot_general");
  return resolve(parser, state, loc, operands, operandTypes, resultTypes);
}

// `stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
//  window = {stride = [..], pad = [[..], ..], lhs_dilate = [..], rhs_dilate = [..],
//  reverse = [..]} {feature_group_count = 1 : i64, ...} : (...) -> ...`
mlir::ParseResult parseConvolution(Parser& parser, State& state) {
  Operands operands;
  llvm::SMLoc loc = parser.getCurrentLocation();
  if (parser.parseOperandList(operands, 2, Parser::Delimiter::Paren) ||
      parser.parseKeyword("dim_numbers") || parser.parseEqual()) {
    return mlir::failure();
  }
  mlir::Attribute dims = hlo::ConvDimensionNumbersAttr::parseInline(parser);
  if (!dims) return mlir::failure();
  state.addAttribute("dimension_numbers", dims);
  mlir::Builder& b = parser.getBuilder();
  if (mlir::succeeded(parser.parseOptionalComma())) {
    if (parser.parseKeyword("window") || parser.parseEqual()) return mlir::failure();
    auto parseField = [&]() -> mlir::ParseResult {
      llvm::SMLoc keyLoc = parser.getCurrentLocation();
      std::string key;
      if (parser.parseKeywordOrString(&key) || parser.parseEqual()) return mlir::failure();
      if (key == "pad") {
        llvm::SmallVector<int64_t> flat;
        if (parser.parseCommaSeparatedList(Parser::Delimiter::Square, [&]() -> mlir::ParseResult {
              llvm::SmallVector<int64_t> pair;
              if (parseIntList(parser, pair)) return mlir::failure();
              if (pair.size() != 2) {
                return mlir::ParseResult(parser.emitError(keyLoc) << "expected [low, high] pairs");
              }
              flat.append(pair);
              return mlir::success();
            })) {
          return mlir::failure();
        }
        auto type = mlir::RankedTensorType::get({static_cast<int64_t>(flat.size() / 2), 2},
                                                b.getI64Type());
        state.addAttribute("padding", mlir::DenseIntElementsAttr::get(type, flat));
        return mlir::success();
      }
      if (key == "reverse") {
        return parser.parseCommaSeparatedList(Parser::Delimiter::Square, [&]() -> mlir::ParseResult {
          llvm::SMLoc flagLoc = parser.getCurrentLocation();
          std::string flag;
          if (parser.parseKeywordOrString(&flag)) return mlir::failure();
          if (flag == "true" || flag == "1") {
            return mlir::ParseResult(parser.emitError(flagLoc)
                                     << "window reversal is not supported");
          }
          return mlir::success();
        });
      }
      llvm::StringRef name = llvm::StringSwitch<llvm::StringRef>(key)
                                 .Case("stride", "window_strides")
                                 .Case("lhs_dilate", "lhs_dilation")
                                 .Case("rhs_dilate", "rhs_dilation")
                                 .Default("");
      if (name.empty()) return parser.emitError(keyLoc) << "unknown window field '" << key << "'";
      llvm::SmallVector<int64_t> values;
      if (parseIntList(parser, values)) return mlir::failure();
      state.addAttribute(name, i64Array(parser, values));
      return mlir::success();
    };
    if (parser.parseCommaSeparatedList(Parser::Delimiter::Braces, parseField))
      return mlir::failure();
  }
  llvm::SmallVector<mlir::Type> operandTypes, resultTypes;
  if (parser.parseOptionalAttrDict(state.attributes) ||
      parseOpTypes(parser, 2, operandTypes, resultTypes)) {
    return mlir::failure();
  }
  state.attributes.erase("precision_config");
  rename(state, "hlo.convolution");
  return resolve(parser, state, loc, operands, operandTypes, resultTypes);
}

// `stablehlo.reduce(%x init: %c), (%y init: %d) applies stablehlo.add across dimensions = [1]
//  : (...) -> ...`, or the same without `applies ...` followed by
//  `reducer(%acc0: T, %e0: T) (%acc1: U, %e1: U) { ... }`.
mlir::ParseResult parseReduce(Parser& parser, State& state) {
  Operands inputs, inits;
  llvm::SMLoc loc = parser.getCurrentLocation();
  if (parser.parseCommaSeparatedList([&]() {
        return mlir::failure(parser.parseLParen() || parser.parseOperand(inputs.emplace_back()) ||
                             parser.parseKeyword("init") || parser.parseColon() ||
                             parser.parseOperand(inits.emplace_back()) || parser.parseRParen());
      })) {
    return mlir::failure();
  }
  std::string applies;
  llvm::SMLoc appliesLoc = parser.getCurrentLocation();
  if (mlir::succeeded(parser.parseOptionalKeyword("applies")) &&
      parser.parseKeywordOrString(&applies)) {
    return mlir::failure();
  }
  llvm::SmallVector<int64_t> dims;
  llvm::SmallVector<mlir::Type> operandTypes, resultTypes;
  if (parser.parseKeyword("across") || parser.parseKeyword("dimensions") || parser.parseEqual() ||
      parseIntList(parser, dims) || parser.parseOptionalAttrDict(state.attributes) ||
      parseOpTypes(parser, 2 * inputs.size(), operandTypes, resultTypes)) {
    return mlir::failure();
  }
  size_t n = inputs.size();
  if (operandTypes.size() != 2 * n) {
    return parser.emitError(loc) << "expected " << 2 * n << " operand types, got "
                                 << operandTypes.size();
  }
  mlir::Region* body = state.addRegion();
  if (!applies.empty()) {
    auto [dialect, name] = llvm::StringRef(applies).split('.');
    llvm::StringRef target = dialect == "stablehlo" ? hloElementwiseName(dialect, name) : "";
    if (target.empty() || n != 1 || !llvm::isa<mlir::TensorType>(operandTypes[n])) {
      return parser.emitError(appliesLoc) << "cannot reduce " << n << " inputs with '" << applies
                                          << "'";
    }
    mlir::Location where = parser.getEncodedSourceLoc(appliesLoc);
    mlir::Block* block = new mlir::Block();
    body->push_back(block);
    mlir::Type scalar = operandTypes[n];
    mlir::Value acc = block->addArgument(scalar, where);
    mlir::Value element = block->addArgument(scalar, where);
    // The region has no op yet to take a context from.
    mlir::OpBuilder builder(state.getContext());
    builder.setInsertionPointToEnd(block);
    State combine(where, target);
    combine.addOperands({acc, element});
    combine.addTypes(scalar);
    mlir::Operation* op = builder.create(combine);
    builder.create<hlo::ReturnOp>(where, op->getResults());
  } else {
    // Each group names (accumulator, element) of one input; the block takes all
    // accumulators first, then all elements.
    llvm::SmallVector<Parser::Argument> accs, elements;
    if (parser.parseKeyword("reducer")) return mlir::failure();
    for (size_t i = 0; i < n; ++i) {
      if (parser.parseLParen() || parser.parseArgument(accs.emplace_back(), /*allowType=*/true) ||
          parser.parseComma() ||
          parser.parseArgument(elements.emplace_back(), /*allowType=*/true) ||
          parser.parseRParen()) {
        return mlir::failure();
      }
    }
    accs.append(elements);
    if (parser.parseRegion(*body, accs)) return mlir::failure();
  }
  state.addAttribute("dimensions", i64Array(parser, dims));
  state.addAttribute("operandSegmentSizes",
                     parser.getBuilder().getDenseI32ArrayAttr(
                         {static_cast<int32_t>(n), static_cast<int32_t>(n)}));
  rename(state, "hlo.reduce");
  Operands operands = inputs;
  operands.append(inits);
  return resolve(parser, state, loc, operands, operandTypes, resultTypes);
}

// `stablehlo.rng_bit_generator %s, algorithm = DEFAULT : (T) -> (T, R)`
mlir::ParseResult parseRngBitGenerator(Parser& parser, State& state) {
  Operands operands(1);
  std::string algorithm;
  llvm::SMLoc loc = parser.getCurrentLocation();
  if (parser.parseOperand(operands[0]) || parser.parseComma() ||
      parser.parseKeyword("algorithm") || parser.parseEqual()) {
    return mlir::failure();
  }
  llvm::SMLoc algorithmLoc = parser.getCurrentLocation();
  if (parser.parseKeywordOrString(&algorithm)) return mlir::failure();
  std::optional<hlo::RngAlgorithm> kind =
      hlo::symbolizeRngAlgorithm(llvm::StringRef(algorithm).lower());
  if (!kind) return parser.emitError(algorithmLoc) << "unknown rng algorithm '" << algorithm << "'";
  state.addAttribute("algorithm", hlo::RngAlgorithmAttr::get(state.getContext(), *kind));
  llvm::SmallVector<mlir::Type> operandTypes, resultTypes;
  if (parser.parseOptionalAttrDict(state.attributes) ||
      parseOpTypes(parser, 1, operandTypes, resultTypes)) {
    return mlir::failure();
  }
  rename(state, "hlo.rng_bit_generator");
  return resolve(parser, state, loc, operands, operandTypes, resultTypes);
}

// `chlo.top_k(%x, k = 4) : T -> (V, I)`
mlir::ParseResult parseTopK(Parser& parser, State& state) {
  Operands operands(1);
  int64_t k = 0;
  llvm::SMLoc loc = parser.getCurrentLocation();
  llvm::SmallVector<mlir::Type> operandTypes, resultTypes;
  if (parser.parseLParen() || parser.parseOperand(operands[0]) || parser.parseComma() ||
      parser.parseKeyword("k") || parser.parseEqual() || parser.parseInteger(k) ||
      parser.parseRParen() || parser.parseOptionalAttrDict(state.attributes) ||
      parseOpTypes(parser, 1, operandTypes, resultTypes)) {
    return mlir::failure();
  }
  state.addAttribute("k", parser.getBuilder().getI64IntegerAttr(k));
  rename(state, "hlo.top_k");
  return resolve(parser, state, loc, operands, operandTypes, resultTypes);
}

// `stablehlo.reduce_precision %x, format = e5m10 : T`
mlir::ParseResult parseReducePrecision(Parser& parser, State& state) {
  Operands operands(1);
  std::string format;
  llvm::SMLoc loc = parser.getCurrentLocation();
  if (parser.parseOperand(operands[0]) || parser.parseComma() || parser.parseKeyword("format") ||
      parser.parseEqual()) {
    return mlir::failure();
  }
  llvm::SMLoc formatLoc = parser.getCurrentLocation();
  if (parser.parseKeywordOrString(&format)) return mlir::failure();
  auto [exponent, mantissa] = llvm::StringRef(format).drop_front().split('m');
  int32_t exponentBits = 0, mantissaBits = 0;
  if (!llvm::StringRef(format).starts_with("e") || exponent.getAsInteger(10, exponentBits) ||
      mantissa.getAsInteger(10, mantissaBits)) {
    return parser.emitError(formatLoc) << "expected a format eXmY, got '" << format << "'";
  }
  llvm::SmallVector<mlir::Type> operandTypes, resultTypes;
  if (parser.parseOptionalAttrDict(state.attributes) ||
      parseOpTypes(parser, 1, operandTypes, resultTypes)) {
    return mlir::failure();
  }
  state.addAttribute("exponent_bits", parser.getBuilder().getI32IntegerAttr(exponentBits));
  state.addAttribute("mantissa_bits", parser.getBuilder().getI32IntegerAttr(mantissaBits));
  rename(state, "hlo.reduce_precision");
  return resolve(parser, state, loc, operands, operandTypes, resultTypes);
}

// The ops whose StableHLO form is the form of their `hlo` counterpart of the same name.
mlir::ParseResult parseLikeHlo(Parser& parser, State& state) {
  std::string name = ("hlo." + shortName(state)).str();
  return delegate(parser, state, name);
}

mlir::ParseResult parseLikeTessel(Parser& parser, State& state) {
  std::string name = ("tessel." + shortName(state)).str();
  return delegate(parser, state, name);
}

// `#stablehlo.dot<lhs_batching_dimensions = [0], ...>` (dot_general in the generic form).
mlir::Attribute parseDotAttr(mlir::DialectAsmParser& parser) {
  llvm::SmallVector<int64_t> lhsBatch, rhsBatch, lhsContract, rhsContract;
  if (parser.parseLess()) return {};
  if (mlir::failed(parser.parseOptionalGreater())) {
    do {
      std::string key;
      llvm::SMLoc keyLoc = parser.getCurrentLocation();
      if (parser.parseKeywordOrString(&key) || parser.parseEqual()) return {};
      llvm::SmallVector<int64_t>* field =
          llvm::StringSwitch<llvm::SmallVector<int64_t>*>(key)
              .Case("lhs_batching_dimensions", &lhsBatch)
              .Case("rhs_batching_dimensions", &rhsBatch)
              .Case("lhs_contracting_dimensions", &lhsContract)
              .Case("rhs_contracting_dimensions", &rhsContract)
              .Default(nullptr);
      if (!field) {
        parser.emitError(keyLoc) << "unknown field '" << key << "'";
        return {};
      }
      if (parser.parseCommaSeparatedList(mlir::AsmParser::Delimiter::Square, [&]() {
            return parser.parseInteger(field->emplace_back());
          })) {
        return {};
      }
    } while (mlir::succeeded(parser.parseOptionalComma()));
    if (parser.parseGreater()) return {};
  }
  return hlo::DotDimensionNumbersAttr::get(parser.getContext(), lhsBatch, rhsBatch, lhsContract,
                                           rhsContract);
}

// `<handle = 1, type = 1>`: channels identify collectives in XLA; Tessel names groups by
// mesh axes instead and keeps nothing of them.
mlir::Attribute parseChannelHandle(mlir::DialectAsmParser& parser) {
  if (parser.parseLess()) return {};
  do {
    std::string key;
    int64_t value = 0;
    if (parser.parseKeywordOrString(&key) || parser.parseEqual() || parser.parseInteger(value))
      return {};
  } while (mlir::succeeded(parser.parseOptionalComma()));
  if (parser.parseGreater()) return {};
  return mlir::UnitAttr::get(parser.getContext());
}

// The elementwise ops of StableHLO and CHLO beside their `hlo` names. The first entry
// for an `hlo` op is the one export writes (chlo.square and chlo.tan read as hlo ops
// that StableHLO has too).
struct ElementwiseName {
  llvm::StringLiteral dialect;
  llvm::StringLiteral name;
  llvm::StringLiteral hlo;
};
constexpr ElementwiseName kElementwiseNames[] = {
    {"stablehlo", "abs", "hlo.abs"},
    {"stablehlo", "negate", "hlo.neg"},
    {"stablehlo", "exponential", "hlo.exp"},
    {"stablehlo", "log", "hlo.log"},
    {"stablehlo", "log_plus_one", "hlo.log1p"},
    {"stablehlo", "exponential_minus_one", "hlo.expm1"},
    {"stablehlo", "tanh", "hlo.tanh"},
    {"stablehlo", "logistic", "hlo.logistic"},
    {"stablehlo", "sqrt", "hlo.sqrt"},
    {"stablehlo", "rsqrt", "hlo.rsqrt"},
    {"stablehlo", "cbrt", "hlo.cbrt"},
    {"stablehlo", "sine", "hlo.sin"},
    {"stablehlo", "cosine", "hlo.cos"},
    {"stablehlo", "tan", "hlo.tan"},
    {"stablehlo", "floor", "hlo.floor"},
    {"stablehlo", "ceil", "hlo.ceil"},
    {"stablehlo", "round_nearest_afz", "hlo.round"},
    {"stablehlo", "round_nearest_even", "hlo.round_nearest_even"},
    {"stablehlo", "sign", "hlo.sign"},
    {"stablehlo", "not", "hlo.not"},
    {"stablehlo", "is_finite", "hlo.is_finite"},
    {"stablehlo", "convert", "hlo.convert"},
    {"stablehlo", "bitcast_convert", "hlo.bitcast_convert"},
    {"stablehlo", "popcnt", "hlo.popcnt"},
    {"stablehlo", "count_leading_zeros", "hlo.count_leading_zeros"},
    {"stablehlo", "real", "hlo.real"},
    {"stablehlo", "imag", "hlo.imag"},
    {"stablehlo", "add", "hlo.add"},
    {"stablehlo", "subtract", "hlo.sub"},
    {"stablehlo", "multiply", "hlo.mul"},
    {"stablehlo", "divide", "hlo.div"},
    {"stablehlo", "remainder", "hlo.rem"},
    {"stablehlo", "maximum", "hlo.max"},
    {"stablehlo", "minimum", "hlo.min"},
    {"stablehlo", "power", "hlo.pow"},
    {"stablehlo", "atan2", "hlo.atan2"},
    {"stablehlo", "and", "hlo.and"},
    {"stablehlo", "or", "hlo.or"},
    {"stablehlo", "xor", "hlo.xor"},
    {"stablehlo", "shift_left", "hlo.shift_left"},
    {"stablehlo", "shift_right_arithmetic", "hlo.shift_right_arithmetic"},
    {"stablehlo", "shift_right_logical", "hlo.shift_right_logical"},
    {"stablehlo", "complex", "hlo.complex"},
    {"stablehlo", "clamp", "hlo.clamp"},
    {"chlo", "erf", "hlo.erf"},
    {"chlo", "tan", "hlo.tan"},
    {"chlo", "square", "hlo.mul"},
};

}  // namespace

llvm::StringRef hloElementwiseName(llvm::StringRef dialect, llvm::StringRef name) {
  for (const ElementwiseName& entry : kElementwiseNames) {
    if (entry.dialect == dialect && entry.name == name) return entry.hlo;
  }
  return "";
}

std::string stablehloElementwiseName(llvm::StringRef hloName) {
  for (const ElementwiseName& entry : kElementwiseNames) {
    if (entry.hlo == hloName) return (entry.dialect + "." + entry.name).str();
  }
  return "";
}

//===----------------------------------------------------------------------===//
// stablehlo
//===----------------------------------------------------------------------===//

StablehloDialect::StablehloDialect(mlir::MLIRContext* context)
    : mlir::Dialect(getDialectNamespace(), context, mlir::TypeID::get<StablehloDialect>()) {
  // Parsing builds the hlo and tessel counterparts, so their dialects must be loaded.
  context->loadDialect<hlo::HloDialect, ir::TesselDialect>();
  allowUnknownOperations();
}

std::optional<mlir::Dialect::ParseOpHook> StablehloDialect::getParseOperationHook(
    llvm::StringRef opName) const {
  llvm::StringRef name = opName.split('.').second;
  if (!hloElementwiseName("stablehlo", name).empty()) return ParseOpHook(parseElementwise);
  if (name == "compare") return ParseOpHook(parseCompare);
  if (name == "select") return ParseOpHook(parseSelect);
  if (name == "transpose") return ParseOpHook(parseTranspose);
  if (name == "dot_general" || name == "dot") return ParseOpHook(parseDot);
  if (name == "convolution") return ParseOpHook(parseConvolution);
  if (name == "reduce") return ParseOpHook(parseReduce);
  if (name == "rng_bit_generator") return ParseOpHook(parseRngBitGenerator);
  if (name == "reduce_precision") return ParseOpHook(parseReducePrecision);
  // shard_map's axis_index: Tessel's partition_id has StableHLO's form.
  if (name == "partition_id") return ParseOpHook(parseLikeTessel);
  if (llvm::is_contained({"constant", "iota", "broadcast_in_dim", "reshape", "slice",
                          "dynamic_slice", "dynamic_update_slice", "pad", "concatenate", "reverse",
                          "optimization_barrier", "return", "while", "custom_call",
                          "replica_id"},
                         name)) {
    return ParseOpHook(parseLikeHlo);
  }
  return std::nullopt;
}

mlir::Attribute StablehloDialect::parseAttribute(mlir::DialectAsmParser& parser,
                                                 mlir::Type type) const {
  llvm::SMLoc loc = parser.getCurrentLocation();
  std::string key;
  if (parser.parseKeywordOrString(&key)) return {};
  mlir::MLIRContext* context = getContext();
  if (key == "gather") return hlo::GatherDimensionNumbersAttr::parse(parser, type);
  if (key == "scatter") return hlo::ScatterDimensionNumbersAttr::parse(parser, type);
  if (key == "conv") return hlo::ConvDimensionNumbersAttr::parse(parser, type);
  if (key == "dot") return parseDotAttr(parser);
  if (key == "channel_handle") return parseChannelHandle(parser);
  std::string value;
  llvm::SMLoc valueLoc = parser.getCurrentLocation();
  if (key == "comparison_direction") {
    if (parser.parseKeywordOrString(&value)) return {};
    if (auto dir = hlo::symbolizeComparisonDirection(value))
      return hlo::ComparisonDirectionAttr::get(context, *dir);
  } else if (key == "comparison_type") {
    if (parser.parseKeywordOrString(&value)) return {};
    if (value == "NOTYPE") return mlir::UnitAttr::get(context);
    if (auto kind = hlo::symbolizeComparisonType(value))
      return hlo::ComparisonTypeAttr::get(context, *kind);
  } else if (key == "rng_algorithm") {
    if (parser.parseKeywordOrString(&value)) return {};
    if (auto kind = hlo::symbolizeRngAlgorithm(llvm::StringRef(value).lower()))
      return hlo::RngAlgorithmAttr::get(context, *kind);
  } else if (key == "precision") {
    if (parser.parseKeywordOrString(&value)) return {};
    return mlir::StringAttr::get(context, value);
  } else {
    parser.emitError(loc) << "unknown stablehlo attribute '" << key << "'";
    return {};
  }
  parser.emitError(valueLoc) << "unknown " << key << " '" << value << "'";
  return {};
}

//===----------------------------------------------------------------------===//
// chlo
//===----------------------------------------------------------------------===//

ChloDialect::ChloDialect(mlir::MLIRContext* context)
    : mlir::Dialect(getDialectNamespace(), context, mlir::TypeID::get<ChloDialect>()) {
  // Parsing builds the hlo and tessel counterparts, so their dialects must be loaded.
  context->loadDialect<hlo::HloDialect, ir::TesselDialect>();
  allowUnknownOperations();
}

std::optional<mlir::Dialect::ParseOpHook> ChloDialect::getParseOperationHook(
    llvm::StringRef opName) const {
  llvm::StringRef name = opName.split('.').second;
  if (!hloElementwiseName("chlo", name).empty() || name == "erfc")
    return ParseOpHook(parseElementwise);
  if (name == "top_k") return ParseOpHook(parseTopK);
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// sdy
//===----------------------------------------------------------------------===//

SdyDialect::SdyDialect(mlir::MLIRContext* context)
    : mlir::Dialect(getDialectNamespace(), context, mlir::TypeID::get<SdyDialect>()) {
  // Parsing builds the hlo and tessel counterparts, so their dialects must be loaded.
  context->loadDialect<hlo::HloDialect, ir::TesselDialect>();
  allowUnknownOperations();
}

// Shardy's ops and attributes are written as Tessel's: `sdy.X` reads as `tessel.X`.
std::optional<mlir::Dialect::ParseOpHook> SdyDialect::getParseOperationHook(
    llvm::StringRef opName) const {
  llvm::StringRef name = opName.split('.').second;
  if (llvm::is_contained({"mesh", "sharding_constraint", "reshard", "sharding_group",
                          "manual_computation", "return"},
                         name)) {
    return ParseOpHook(parseLikeTessel);
  }
  return std::nullopt;
}

mlir::Attribute SdyDialect::parseAttribute(mlir::DialectAsmParser& parser, mlir::Type type) const {
  llvm::SMLoc loc = parser.getCurrentLocation();
  std::string key;
  if (parser.parseKeywordOrString(&key)) return {};
  if (key == "sharding") return ir::ShardingAttr::parse(parser, type);
  if (key == "sharding_per_value") return ir::ShardingPerValueAttr::parse(parser, type);
  if (key == "mesh") return ir::MeshAttr::parse(parser, type);
  if (key == "manual_axes") {
    // `#sdy<manual_axes{"x", "y"}>`: the axis names, as tessel.manual_computation keeps them.
    llvm::SmallVector<mlir::Attribute> axes;
    if (parser.parseCommaSeparatedList(mlir::AsmParser::Delimiter::Braces, [&]() {
          std::string axis;
          if (parser.parseString(&axis)) return mlir::failure();
          axes.push_back(mlir::StringAttr::get(getContext(), axis));
          return mlir::success();
        })) {
      return {};
    }
    return mlir::ArrayAttr::get(getContext(), axes);
  }
  parser.emitError(loc) << "unknown sdy attribute '" << key << "'";
  return {};
}

void registerStablehloDialects(mlir::DialectRegistry& registry) {
  registry.insert<StablehloDialect, ChloDialect, SdyDialect, hlo::HloDialect, ir::TesselDialect>();
}

}  // namespace tessel::stablehlo
