// Importers of elementwise opcodes: unary and binary arithmetic, compare, select, clamp,
// convert, and the instructions that only rename values (copy, tuple, get-tuple-element,
// opt-barrier) or name the replica (replica-id).
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "partitioner/hlo_text/hlo_importer.h"
#include "partitioner/ir/hlo/hlo_ops.h"

namespace tessel::hlo_text {
namespace {

// XLA opcode → hlo op, for ops whose operands map one to one and whose result type is the
// instruction's shape.
const llvm::StringMap<llvm::StringRef>& elementwiseOps() {
  static const llvm::StringMap<llvm::StringRef> kOps = {
      // unary
      {"abs", "hlo.abs"}, {"negate", "hlo.neg"}, {"exponential", "hlo.exp"},
      {"log", "hlo.log"}, {"log-plus-one", "hlo.log1p"},
      {"exponential-minus-one", "hlo.expm1"}, {"tanh", "hlo.tanh"},
      {"logistic", "hlo.logistic"}, {"sqrt", "hlo.sqrt"}, {"rsqrt", "hlo.rsqrt"},
      {"sine", "hlo.sin"}, {"cosine", "hlo.cos"}, {"floor", "hlo.floor"},
      {"ceil", "hlo.ceil"}, {"round-nearest-afz", "hlo.round"}, {"sign", "hlo.sign"},
      {"not", "hlo.not"}, {"is-finite", "hlo.is_finite"}, {"convert", "hlo.convert"},
      {"round-nearest-even", "hlo.round_nearest_even"}, {"erf", "hlo.erf"},
      {"cbrt", "hlo.cbrt"}, {"tan", "hlo.tan"}, {"popcnt", "hlo.popcnt"},
      {"count-leading-zeros", "hlo.count_leading_zeros"},
      {"bitcast-convert", "hlo.bitcast_convert"},
      // binary
      {"add", "hlo.add"}, {"subtract", "hlo.sub"}, {"multiply", "hlo.mul"},
      {"divide", "hlo.div"}, {"remainder", "hlo.rem"}, {"maximum", "hlo.max"},
      {"minimum", "hlo.min"}, {"power", "hlo.pow"}, {"atan2", "hlo.atan2"},
      {"and", "hlo.and"}, {"or", "hlo.or"}, {"xor", "hlo.xor"},
      {"shift-left", "hlo.shift_left"},
      {"shift-right-arithmetic", "hlo.shift_right_arithmetic"},
      {"shift-right-logical", "hlo.shift_right_logical"},
      {"complex", "hlo.complex"},
      // complex numbers taken apart (unary)
      {"real", "hlo.real"}, {"imag", "hlo.imag"},
      // ternary
      {"select", "hlo.select"}, {"clamp", "hlo.clamp"}};
  return kOps;
}

size_t arityOf(llvm::StringRef opName) {
  if (opName == "hlo.select" || opName == "hlo.clamp") return 3;
  static const llvm::StringSet<> kUnary = {
      "hlo.abs", "hlo.neg", "hlo.exp", "hlo.log", "hlo.log1p", "hlo.expm1", "hlo.tanh",
      "hlo.logistic", "hlo.sqrt", "hlo.rsqrt", "hlo.sin", "hlo.cos", "hlo.floor", "hlo.ceil",
      "hlo.round", "hlo.sign", "hlo.not", "hlo.is_finite", "hlo.convert",
      "hlo.round_nearest_even", "hlo.erf", "hlo.cbrt", "hlo.tan", "hlo.popcnt",
      "hlo.count_leading_zeros", "hlo.bitcast_convert", "hlo.real", "hlo.imag"};
  return kUnary.contains(opName) ? 1 : 2;
}

mlir::FailureOr<Imported> importElementwise(Importer& im, Instruction& inst) {
  llvm::StringRef opName = elementwiseOps().lookup(inst.opcode);
  if (failed(im.expectOperands(inst, arityOf(opName)))) return mlir::failure();
  llvm::SmallVector<mlir::Value> operands;
  for (size_t i = 0; i < inst.operands.size(); ++i) {
    mlir::FailureOr<mlir::Value> v = im.operand(inst, i);
    if (failed(v)) return mlir::failure();
    operands.push_back(*v);
  }
  mlir::FailureOr<mlir::Type> type = im.arrayType(inst);
  if (failed(type)) return mlir::failure();
  return im.single(im.create(inst, opName, operands, *type));
}

mlir::FailureOr<Imported> importCompare(Importer& im, Instruction& inst) {
  if (failed(im.expectOperands(inst, 2))) return mlir::failure();
  mlir::FailureOr<mlir::Value> lhs = im.operand(inst, 0), rhs = im.operand(inst, 1);
  mlir::FailureOr<mlir::Type> type = im.arrayType(inst);
  mlir::FailureOr<AttrText*> dirAttr = im.requireAttr(inst, "direction");
  if (failed(lhs) || failed(rhs) || failed(type) || failed(dirAttr)) return mlir::failure();
  mlir::FailureOr<std::string> dirWord = ParseWordAttr(**dirAttr, im.context());
  if (failed(dirWord)) return mlir::failure();
  std::optional<hlo::ComparisonDirection> direction = hlo::symbolizeComparisonDirection(*dirWord);
  if (!direction) return im.error(**dirAttr) << "unknown comparison direction '" << *dirWord << "'";
  llvm::SmallVector<mlir::NamedAttribute> attrs = {
      im.builder().getNamedAttr("comparison_direction",
                                hlo::ComparisonDirectionAttr::get(im.context(), *direction))};
  if (AttrText* typeAttr = im.findAttr(inst, "type")) {
    mlir::FailureOr<std::string> word = ParseWordAttr(*typeAttr, im.context());
    if (failed(word)) return mlir::failure();
    std::optional<hlo::ComparisonType> compareType = hlo::symbolizeComparisonType(*word);
    if (!compareType) return im.error(*typeAttr) << "unknown comparison type '" << *word << "'";
    attrs.push_back(im.builder().getNamedAttr(
        "compare_type", hlo::ComparisonTypeAttr::get(im.context(), *compareType)));
  }
  return im.single(im.create(inst, "hlo.compare", {*lhs, *rhs}, *type, attrs));
}

mlir::FailureOr<Imported> importReducePrecision(Importer& im, Instruction& inst) {
  if (failed(im.expectOperands(inst, 1))) return mlir::failure();
  mlir::FailureOr<mlir::Value> operand = im.operand(inst, 0);
  mlir::FailureOr<mlir::Type> type = im.arrayType(inst);
  mlir::FailureOr<AttrText*> exponentAttr = im.requireAttr(inst, "exponent_bits");
  mlir::FailureOr<AttrText*> mantissaAttr = im.requireAttr(inst, "mantissa_bits");
  if (failed(operand) || failed(type) || failed(exponentAttr) || failed(mantissaAttr)) {
    return mlir::failure();
  }
  mlir::FailureOr<int64_t> exponent = ParseIntAttr(**exponentAttr, im.context());
  mlir::FailureOr<int64_t> mantissa = ParseIntAttr(**mantissaAttr, im.context());
  if (failed(exponent) || failed(mantissa)) return mlir::failure();
  for (auto [attr, value] : {std::pair{*exponentAttr, *exponent}, {*mantissaAttr, *mantissa}}) {
    if (value < 0 || value > 64) {
      return im.error(*attr) << attr->name << " must be in [0, 64], got " << value;
    }
  }
  mlir::Builder& b = im.builder();
  return im.single(im.create(
      inst, "hlo.reduce_precision", {*operand}, *type,
      {b.getNamedAttr("exponent_bits", b.getI32IntegerAttr(static_cast<int32_t>(*exponent))),
       b.getNamedAttr("mantissa_bits", b.getI32IntegerAttr(static_cast<int32_t>(*mantissa)))}));
}

// copy only changes the layout, which the dialect does not model.
// A sharding written on a copy pins that value (the usual way to constrain an intermediate in
// hand-written HLO): the copy becomes GSPMD's Sharding annotation, which the sharding import
// turns into a sharding constraint, so the sharding is never dropped.
mlir::FailureOr<Imported> importCopy(Importer& im, Instruction& inst) {
  if (failed(im.expectOperands(inst, 1))) return mlir::failure();
  if (inst.peekAttr("sharding") && !inst.shape.isTuple) {
    mlir::FailureOr<mlir::Value> operand = im.operand(inst, 0);
    mlir::FailureOr<mlir::Type> type = im.arrayType(inst);
    if (failed(operand) || failed(type)) return mlir::failure();
    return im.single(im.create(
        inst, "hlo.custom_call", {*operand}, *type,
        {im.builder().getNamedAttr("call_target_name", im.builder().getStringAttr("Sharding"))}));
  }
  return Imported{im.allOperandLeaves(inst), nullptr};
}

// The barrier takes and returns one tuple; in the dialect it takes and returns its leaves.
mlir::FailureOr<Imported> importOptBarrier(Importer& im, Instruction& inst) {
  if (failed(im.expectOperands(inst, 1))) return mlir::failure();
  llvm::SmallVector<mlir::Value> leaves = im.allOperandLeaves(inst);
  // A barrier over tokens alone orders nothing that Tessel does not already run in order.
  if (leaves.empty()) return Imported{};
  return im.all(im.create(inst, "hlo.optimization_barrier", leaves,
                          mlir::ValueRange(leaves).getTypes()));
}

mlir::FailureOr<Imported> importReplicaId(Importer& im, Instruction& inst) {
  if (failed(im.expectOperands(inst, 0))) return mlir::failure();
  mlir::FailureOr<mlir::Type> type = im.arrayType(inst);
  if (failed(type)) return mlir::failure();
  return im.single(im.create(inst, "hlo.replica_id", {}, *type));
}

// `(u64[2], u32[4,6]) rng-bit-generator(state), algorithm=rng_philox`: the state and the
// bits, as two results.
mlir::FailureOr<Imported> importRngBitGenerator(Importer& im, Instruction& inst) {
  if (failed(im.expectOperands(inst, 1))) return mlir::failure();
  mlir::FailureOr<mlir::Value> state = im.operand(inst, 0);
  mlir::FailureOr<AttrText*> algorithmAttr = im.requireAttr(inst, "algorithm");
  if (failed(state) || failed(algorithmAttr)) return mlir::failure();
  mlir::FailureOr<std::string> word = ParseWordAttr(**algorithmAttr, im.context());
  if (failed(word)) return mlir::failure();
  std::optional<hlo::RngAlgorithm> algorithm;
  llvm::StringRef name = *word;
  if (name.consume_front("rng_")) algorithm = hlo::symbolizeRngAlgorithm(name);
  if (!algorithm) {
    return im.error(**algorithmAttr) << "unknown rng algorithm '" << *word
                                     << "' (rng_default, rng_three_fry or rng_philox)";
  }
  llvm::SmallVector<mlir::Type> types = im.leafTypes(inst);
  if (!inst.shape.isTuple || types.size() != 2) {
    return im.error(inst) << "'rng-bit-generator' must return a (state, bits) tuple";
  }
  return im.all(im.create(
      inst, "hlo.rng_bit_generator", {*state}, types,
      {im.builder().getNamedAttr("algorithm",
                                 hlo::RngAlgorithmAttr::get(im.context(), *algorithm))}));
}

mlir::FailureOr<Imported> importTuple(Importer& im, Instruction& inst) {
  return Imported{im.allOperandLeaves(inst), nullptr};
}

mlir::FailureOr<Imported> importGetTupleElement(Importer& im, Instruction& inst) {
  if (failed(im.expectOperands(inst, 1))) return mlir::failure();
  mlir::FailureOr<AttrText*> indexAttr = im.requireAttr(inst, "index");
  if (failed(indexAttr)) return mlir::failure();
  mlir::FailureOr<int64_t> index = ParseIntAttr(**indexAttr, im.context());
  if (failed(index)) return mlir::failure();
  const Shape& shape = im.operandShape(inst, 0);
  if (!shape.isTuple || *index < 0 || *index >= int64_t(shape.elements.size())) {
    return im.error(**indexAttr) << "index " << *index << " is out of range for operand '"
                                 << inst.operands[0].name << "'";
  }
  llvm::SmallVector<mlir::Value> leaves = im.allOperandLeaves(inst);
  int64_t begin = shape.leafOffset(*index);
  int64_t count = shape.elements[*index].numLeaves();
  return Imported{llvm::SmallVector<mlir::Value>(leaves.begin() + begin,
                                                 leaves.begin() + begin + count),
                  nullptr};
}

}  // namespace

void RegisterElementwiseImporters(ImporterTable& table) {
  for (const auto& entry : elementwiseOps()) table[entry.getKey()] = importElementwise;
  table["compare"] = importCompare;
  table["reduce-precision"] = importReducePrecision;
  table["copy"] = importCopy;
  table["tuple"] = importTuple;
  table["opt-barrier"] = importOptBarrier;
  table["replica-id"] = importReplicaId;
  table["rng-bit-generator"] = importRngBitGenerator;
  table["get-tuple-element"] = importGetTupleElement;
}

}  // namespace tessel::hlo_text
