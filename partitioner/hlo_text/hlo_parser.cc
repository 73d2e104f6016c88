// Parser of XLA HLO text into the syntax tree of hlo_parser.h.
#include "partitioner/hlo_text/hlo_parser.h"

#include <iterator>
#include <optional>
#include <type_traits>
#include <utility>

#include "collectives/data_type.h"
#include "collectives/data_type_mlir.h"
#include "llvm/ADT/CachedHashString.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "mlir/IR/BuiltinTypes.h"
#include "partitioner/hlo_text/instruction_name_hash.h"

namespace tessel::hlo_text {

// A computation's instructions grow one by one; a vector copies them all each time it
// grows unless their moves cannot throw.
static_assert(std::is_nothrow_move_constructible_v<Instruction>);
static_assert(std::is_nothrow_move_constructible_v<Computation>);

namespace {

// Sections of per-frame source information that recent XLA prints after the header.
bool isStackFrameSection(llvm::StringRef word) {
  return word == "FileNames" || word == "FunctionNames" || word == "FileLocations" ||
         word == "StackFrames";
}

// Only the named type is made: every shape of every instruction and operand comes here,
// and making them all (each integer and complex type a lookup in the context's tables)
// cost more than the rest of the shape.
mlir::Type elementTypeFromName(llvm::StringRef name, mlir::MLIRContext* context) {
  std::optional<collectives::DataType> type =
      collectives::DataTypeFromName(absl::string_view(name.data(), name.size()));
  return type ? collectives::DataTypeToMlir(*type, context) : mlir::Type();
}

class Parser {
 public:
  Parser(Lexer& lex, ParsedModule& module) : lex_(lex), module_(module) {}

  mlir::LogicalResult parseModule() {
    lex_.skipSpace();
    module_.pos = lex_.pos();
    if (lex_.lexIdentifier() != "HloModule") {
      return mlir::emitError(lex_.toLoc(module_.pos)) << "expected 'HloModule' header";
    }
    lex_.skipSpaceInLine();
    module_.name = lex_.lexName().str();
    if (module_.name.empty()) return lex_.error() << "expected a module name after HloModule";
    while (true) {
      lex_.skipSpaceInLine();
      if (!lex_.consume(',')) break;
      if (failed(parseAttribute(module_.headerAttrs.emplace_back()))) return mlir::failure();
    }
    numbering_ = GuessNameNumbering(lex_.rest());
    while (true) {
      lex_.skipSpace();
      if (lex_.atEnd()) break;
      if (failed(parseTopLevelItem())) return mlir::failure();
    }
    if (module_.computations.empty()) {
      return mlir::emitError(lex_.toLoc(module_.pos))
             << "module '" << module_.name << "' has no computations";
    }
    if (module_.entryIndex < 0) module_.entryIndex = module_.computations.size() - 1;
    return mlir::success();
  }

 private:
  mlir::LogicalResult parseTopLevelItem() {
    SourcePos start = lex_.pos();
    bool isEntry = false;
    if (lex_.rest().starts_with("ENTRY") && !llvm::isAlnum(lex_.peek(5))) {
      lex_.advance(5);
      lex_.skipSpace();
      isEntry = true;
    }
    llvm::StringRef name = lex_.lexName();
    if (name.empty()) return lex_.error() << "expected a computation";
    lex_.skipSpace();
    if (!isEntry && isStackFrameSection(name) && llvm::isDigit(lex_.peek())) {
      return skipStackFrameSection();
    }
    Computation comp;
    indexOf_.clear();
    comp.name = name.str();
    comp.isEntry = isEntry;
    comp.pos = start;
    // The signature `(p: shape, ...) -> shape` repeats what the parameters say.
    if (lex_.peek() == '(') {
      if (!lex_.lexBalanced()) return mlir::failure();
      lex_.skipSpace();
    }
    if (lex_.consume("->")) {
      lex_.skipSpace();
      Shape ignored;
      if (failed(ParseShape(lex_, ignored))) return mlir::failure();
      lex_.skipSpace();
    }
    if (failed(lex_.expect('{', llvm::Twine("to open computation '") + comp.name + "'"))) {
      return mlir::failure();
    }
    // The entry holds most instructions, one per line as XLA prints them, and XLA prints it
    // last: sizing its vector and name table from the lines left spares moving every
    // instruction parsed so far each time the vector grows, and hashing every name again
    // (reading its text, far back in the file) each time the table does. Done once per
    // module, so the count stays linear.
    if (isEntry) {
      const size_t lines = lex_.rest().count('\n');
      comp.instructions.reserve(lines);
      indexOf_.reserve(lines);
    }
    while (true) {
      lex_.skipSpace();
      if (lex_.consume('}')) break;
      if (lex_.atEnd()) {
        return mlir::emitError(lex_.toLoc(start))
               << "computation '" << comp.name << "' is never closed";
      }
      if (failed(parseInstruction(comp))) return mlir::failure();
    }
    // Attributes of the computation itself (e.g. execution_thread) do not matter here.
    lex_.skipSpaceInLine();
    if (lex_.peek() == ',') {
      while (!lex_.atEnd() && lex_.peek() != '\n') lex_.advance();
    }
    if (comp.instructions.empty()) {
      return mlir::emitError(lex_.toLoc(start))
             << "computation '" << comp.name << "' has no instructions";
    }
    if (comp.rootIndex < 0) comp.rootIndex = comp.instructions.size() - 1;
    if (failed(inferShapes(comp))) return mlir::failure();
    if (isEntry) {
      if (module_.entryIndex >= 0) {
        return mlir::emitError(lex_.toLoc(start)) << "second ENTRY computation '"
                                                  << comp.name << "'";
      }
      module_.entryIndex = module_.computations.size();
    }
    module_.computations.push_back(std::move(comp));
    return mlir::success();
  }

  // The shapes of instructions written without one, from their operands' shapes, in order:
  // elementwise ops take their operand's shape (select and clamp their value operand's),
  // compare and is-finite its dimensions in pred, tuple the tuple of its operands, and
  // get-tuple-element its element. Any other opcode needs its shape written.
  mlir::LogicalResult inferShapes(Computation& comp) {
    static const llvm::StringSet<> kSameShape = {
        "abs", "negate", "exponential", "log", "log-plus-one", "exponential-minus-one", "tanh",
        "logistic", "sqrt", "rsqrt", "cbrt", "sine", "cosine", "tan", "floor", "ceil",
        "round-nearest-afz", "round-nearest-even", "sign", "not", "erf", "popcnt",
        "count-leading-zeros", "copy", "add", "subtract", "multiply", "divide", "remainder",
        "maximum", "minimum", "power", "atan2", "and", "or", "xor", "shift-left",
        "shift-right-arithmetic", "shift-right-logical", "reduce-precision", "opt-barrier"};
    for (Instruction& inst : comp.instructions) {
      if (inst.shapeInferred) {
        // Operands were resolved to earlier instructions as they were parsed, and those
        // have their shapes by now (inferred ones included: this goes in order).
        auto operandShape = [&](size_t i) -> const Shape* {
          if (i >= inst.operands.size() || inst.operands[i].definition < 0) return nullptr;
          return &comp.instructions[inst.operands[i].definition].shape;
        };
        auto fail = [&](llvm::StringRef why) {
          return mlir::emitError(lex_.toLoc(inst.pos))
                 << "instruction '" << inst.name << "' has no shape, and " << why;
        };
        if (kSameShape.contains(inst.opcode) || inst.opcode == "select" ||
            inst.opcode == "clamp") {
          const size_t from = inst.opcode == "select" || inst.opcode == "clamp" ? 1 : 0;
          const Shape* shape = operandShape(from);
          if (!shape) return fail("its operands' shapes are not known here");
          inst.shape = *shape;
        } else if (inst.opcode == "compare" || inst.opcode == "is-finite") {
          const Shape* shape = operandShape(0);
          if (!shape || shape->isTuple) return fail("its operands' shapes are not known here");
          inst.shape = *shape;
          inst.shape.elementType = mlir::IntegerType::get(lex_.context(), 1);
        } else if (inst.opcode == "tuple") {
          inst.shape = Shape();
          inst.shape.isTuple = true;
          for (size_t i = 0; i < inst.operands.size(); ++i) {
            const Shape* shape = operandShape(i);
            if (!shape) return fail("its operands' shapes are not known here");
            inst.shape.elements.push_back(*shape);
          }
        } else if (inst.opcode == "get-tuple-element") {
          const Shape* shape = operandShape(0);
          int64_t index = -1;
          const AttrText* indexAttr = inst.peekAttr("index");
          if (indexAttr && indexAttr->value.trim().getAsInteger(10, index)) index = -1;
          if (!shape || !shape->isTuple || index < 0 ||
              index >= static_cast<int64_t>(shape->elements.size())) {
            return fail("its tuple operand or index does not give one");
          }
          inst.shape = shape->elements[index];
        } else {
          return fail("'" + inst.opcode + "' needs its shape written");
        }
      }
    }
    return mlir::success();
  }

  // Entries are `N "text"` or `N {fields}`; none of them affects the program.
  mlir::LogicalResult skipStackFrameSection() {
    while (llvm::isDigit(lex_.peek())) {
      lex_.lexInt();
      lex_.skipSpaceInLine();
      if (lex_.peek() == '"') {
        if (!lex_.lexString()) return mlir::failure();
      } else if (lex_.peek() == '{') {
        if (!lex_.lexBalanced()) return mlir::failure();
      } else {
        return lex_.error() << "expected a string or '{' in a stack frame entry";
      }
      lex_.skipSpace();
    }
    return mlir::success();
  }

  mlir::LogicalResult parseInstruction(Computation& comp) {
    Instruction inst;
    inst.pos = lex_.pos();
    if (lex_.rest().starts_with("ROOT") && !llvm::isAlnum(lex_.peek(4)) && lex_.peek(4) != '.') {
      lex_.advance(4);
      lex_.skipSpace();
      inst.isRoot = true;
    }
    llvm::StringRef name = lex_.lexName();
    inst.name = name.str();
    if (inst.name.empty()) return lex_.error() << "expected an instruction name";
    lex_.skipSpace();
    if (failed(lex_.expect('=', llvm::Twine("after instruction name '") + inst.name + "'"))) {
      return mlir::failure();
    }
    lex_.skipSpace();
    // `name = opcode(...)` leaves the shape out; a shape starts with `(` or `type[`.
    Lexer ahead = lex_;
    if (!ahead.lexIdentifier().empty() && ahead.peek() == '(') {
      inst.shapeInferred = true;
    } else if (failed(ParseShape(lex_, inst.shape))) {
      return mlir::failure();
    }
    lex_.skipSpace();
    inst.opcodePos = lex_.pos();
    inst.opcode = lex_.lexIdentifier().str();
    if (inst.opcode.empty()) {
      return lex_.error() << "expected an opcode in instruction '" << inst.name << "'";
    }
    lex_.skipSpace();
    if (lex_.peek() != '(') {
      return lex_.error() << "expected '(' after opcode '" << inst.opcode << "'";
    }
    if (inst.opcode == "constant" || inst.opcode == "parameter") {
      lex_.advance();
      inst.rawOperandsPos = lex_.pos();
      SourcePos open = lex_.pos();
      llvm::StringRef rest = lex_.rest();
      // The literal may hold nested braces but never an unbalanced ')'.
      int depth = 0;
      size_t len = 0;
      for (; len < rest.size(); ++len) {
        char c = rest[len];
        if (c == '(') ++depth;
        if (c == ')' && depth-- == 0) break;
      }
      if (len == rest.size()) {
        return mlir::emitError(lex_.toLoc(open)) << "'(' of '" << inst.opcode
                                                 << "' is never closed";
      }
      inst.rawOperands = rest.take_front(len).trim();
      lex_.advance(len + 1);
    } else if (failed(parseOperands(inst))) {
      return mlir::failure();
    }
    attrScratch_.clear();
    while (true) {
      lex_.skipSpaceInLine();
      if (!lex_.consume(',')) break;
      if (failed(parseAttribute(attrScratch_.emplace_back()))) return mlir::failure();
    }
    inst.attrs.assign(std::make_move_iterator(attrScratch_.begin()),
                      std::make_move_iterator(attrScratch_.end()));
    if (!indexOf_
             .try_emplace(llvm::CachedHashStringRef(name, InstructionNameHash(name, numbering_)),
                          static_cast<int32_t>(comp.instructions.size()))
             .second) {
      return mlir::emitError(lex_.toLoc(inst.pos))
             << "instruction name '" << inst.name << "' is used twice";
    }
    if (inst.isRoot) {
      if (comp.rootIndex >= 0) {
        return mlir::emitError(lex_.toLoc(inst.pos))
               << "second ROOT in computation '" << comp.name << "'";
      }
      comp.rootIndex = comp.instructions.size();
    }
    comp.instructions.push_back(std::move(inst));
    return mlir::success();
  }

  // `(a, b)`, `(f32[4]{0} %a, %b)`: an optional shape before each name is skipped.
  mlir::LogicalResult parseOperands(Instruction& inst) {
    lex_.advance();  // '('
    lex_.skipSpace();
    if (lex_.consume(')')) return mlir::success();
    operandScratch_.clear();
    while (true) {
      lex_.skipSpace();
      OperandRef operand;
      operand.pos = lex_.pos();
      Lexer beforeName = lex_;
      llvm::StringRef name = lex_.lexName();
      if (lex_.peek() == '(' || (!name.empty() && lex_.peek() == '[')) {
        // What came first was the operand's shape (`f32[4]{0} %x`, `(f32[], s32[]) %t`).
        lex_ = beforeName;
        Shape ignored;
        if (failed(ParseShape(lex_, ignored))) return mlir::failure();
        lex_.skipSpace();
        operand.pos = lex_.pos();
        name = lex_.lexName();
      }
      if (name.empty()) {
        return lex_.error() << "expected an operand name in '" << inst.opcode << "'";
      }
      operand.name = name.str();
      // Resolved now, while the table holds only the earlier instructions; an operand
      // naming a later one stays unresolved, as HLO text defines names before their uses.
      if (auto it = indexOf_.find(
              llvm::CachedHashStringRef(name, InstructionNameHash(name, numbering_)));
          it != indexOf_.end()) {
        operand.definition = it->second;
      }
      operandScratch_.push_back(std::move(operand));
      lex_.skipSpace();
      if (lex_.consume(')')) {
        inst.operands.assign(std::make_move_iterator(operandScratch_.begin()),
                             std::make_move_iterator(operandScratch_.end()));
        return mlir::success();
      }
      if (failed(
              lex_.expect(',', llvm::Twine("or ')' between operands of '") + inst.opcode + "'"))) {
        return mlir::failure();
      }
    }
  }

  // Fills `attr`, which is freshly constructed.
  mlir::LogicalResult parseAttribute(AttrText& attr) {
    lex_.skipSpace();
    attr.name = lex_.lexIdentifier().str();
    if (attr.name.empty()) return lex_.error() << "expected an attribute name after ','";
    lex_.skipSpaceInLine();
    if (failed(lex_.expect('=', llvm::Twine("after attribute name '") + attr.name + "'"))) {
      return mlir::failure();
    }
    lex_.skipSpaceInLine();
    attr.pos = lex_.pos();
    attr.value = lex_.lexAttributeValue();
    if (attr.value.empty()) {
      return mlir::emitError(lex_.toLoc(attr.pos))
             << "attribute '" << attr.name << "' has no value";
    }
    return mlir::success();
  }

  Lexer& lex_;
  ParsedModule& module_;
  // Operands and attributes are gathered here and then copied to the instruction in one
  // allocation of the right size, where growing its vector would allocate up to three times.
  llvm::SmallVector<OperandRef, 8> operandScratch_;
  llvm::SmallVector<AttrText, 8> attrScratch_;
  // The current computation's instructions by name, as slices of the text, which outlives
  // the parse (no allocation per name): names must be unique, and operands are resolved to
  // the instructions they name. The table of a large computation is far bigger than the
  // caches: its hash keeps names with neighbouring numbers in neighbouring buckets (see
  // instruction_name_hash.h), and keys keep their hash, compared before the text, which
  // lies far back in the file, so a probe reads a name only when it is the one looked for.
  llvm::DenseMap<llvm::CachedHashStringRef, int32_t> indexOf_;
  // How the module numbers its names, which decides the table's hash.
  NameNumbering numbering_ = NameNumbering::kPerStem;
};

}  // namespace

int64_t Shape::numLeaves() const {
  if (isToken) return 0;
  if (!isTuple) return 1;
  int64_t n = 0;
  for (const Shape& e : elements) n += e.numLeaves();
  return n;
}

int64_t Shape::leafOffset(int64_t i) const {
  int64_t n = 0;
  for (int64_t k = 0; k < i; ++k) n += elements[k].numLeaves();
  return n;
}

int64_t Shape::numShardingLeaves() const {
  if (!isTuple) return 1;
  int64_t n = 0;
  for (const Shape& e : elements) n += e.numShardingLeaves();
  return n;
}

void Shape::appendTokenMask(std::vector<bool>& mask) const {
  if (!isTuple) {
    mask.push_back(isToken);
    return;
  }
  for (const Shape& e : elements) e.appendTokenMask(mask);
}

void Shape::appendLeafTypes(llvm::SmallVectorImpl<mlir::Type>& types) const {
  if (isToken) return;
  if (!isTuple) {
    types.push_back(mlir::RankedTensorType::get(dims, elementType));
    return;
  }
  for (const Shape& e : elements) e.appendLeafTypes(types);
}

bool Shape::hasLeafTypes(mlir::TypeRange types) const {
  if (!isTuple && !isToken) {
    if (types.size() != 1) return false;
    auto tensor = llvm::dyn_cast<mlir::RankedTensorType>(types.front());
    return tensor && !tensor.getEncoding() && tensor.getElementType() == elementType &&
           tensor.getShape() == llvm::ArrayRef<int64_t>(dims);
  }
  llvm::SmallVector<mlir::Type> leaves;
  appendLeafTypes(leaves);
  return llvm::equal(leaves, types);
}

mlir::LogicalResult ParseShape(Lexer& lex, Shape& shape, int depth) {
  if (lex.peek() == '(' && depth >= kMaxTupleDepth) {
    return lex.error() << "tuple shape nested deeper than " << kMaxTupleDepth << " levels";
  }
  if (lex.consume('(')) {
    shape.isTuple = true;
    lex.skipSpace();
    if (lex.consume(')')) return mlir::success();
    while (true) {
      lex.skipSpace();
      Shape element;
      if (failed(ParseShape(lex, element, depth + 1))) return mlir::failure();
      shape.elements.push_back(std::move(element));
      lex.skipSpace();
      if (lex.consume(')')) return mlir::success();
      if (failed(lex.expect(',', "or ')' in tuple shape"))) return mlir::failure();
    }
  }
  SourcePos typePos = lex.pos();
  llvm::StringRef typeName = lex.lexIdentifier();
  if (typeName.empty()) return lex.error() << "expected a shape";
  if (typeName == "token") {
    shape.isToken = true;
    if (failed(lex.expect('[', "after 'token'"))) return mlir::failure();
    lex.skipSpace();
    if (!lex.consume(']')) return lex.error() << "a token has no dimensions: write 'token[]'";
    if (lex.peek() == '{' && !lex.lexBalanced()) return mlir::failure();
    return mlir::success();
  }
  shape.elementType = elementTypeFromName(typeName, lex.context());
  if (!shape.elementType) {
    return mlir::emitError(lex.toLoc(typePos))
           << "element type '" << typeName << "' is not supported";
  }
  if (failed(lex.expect('[', llvm::Twine("after element type '") + typeName + "'"))) {
    return mlir::failure();
  }
  lex.skipSpace();
  if (!lex.consume(']')) {
    while (true) {
      lex.skipSpace();
      if (lex.peek() == '<' || lex.peek() == '?') {
        return lex.error() << "dynamic dimensions are not supported";
      }
      std::optional<int64_t> dim = lex.lexInt();
      if (!dim || *dim < 0) return lex.error() << "expected a dimension size";
      shape.dims.push_back(*dim);
      lex.skipSpace();
      if (lex.consume(']')) break;
      if (failed(lex.expect(',', "or ']' in shape dimensions"))) return mlir::failure();
    }
  }
  // The layout (`{1,0}`, `{1,0:T(8,128)}`) says how the array is stored, not what it holds.
  if (lex.peek() == '{' && !lex.lexBalanced()) return mlir::failure();
  return mlir::success();
}

llvm::StringRef XlaTypeName(mlir::Type type) {
  if (type.isInteger(1)) return "pred";
  if (auto intType = mlir::dyn_cast<mlir::IntegerType>(type)) {
    bool isUnsigned = intType.isUnsigned();
    switch (intType.getWidth()) {
      case 8: return isUnsigned ? "u8" : "s8";
      case 16: return isUnsigned ? "u16" : "s16";
      case 32: return isUnsigned ? "u32" : "s32";
      case 64: return isUnsigned ? "u64" : "s64";
      default: return "";
    }
  }
  if (type.isF16()) return "f16";
  if (type.isBF16()) return "bf16";
  if (type.isF32()) return "f32";
  if (type.isF64()) return "f64";
  if (auto complex = mlir::dyn_cast<mlir::ComplexType>(type)) {
    if (complex.getElementType().isF32()) return "c64";
    if (complex.getElementType().isF64()) return "c128";
  }
  return "";
}

mlir::LogicalResult ParseHloText(llvm::StringRef text, llvm::StringRef bufferName,
                                 mlir::MLIRContext* context, ParsedModule& module) {
  Lexer lex(text, SourcePos{mlir::StringAttr::get(context, bufferName), 1, 1}, context);
  return Parser(lex, module).parseModule();
}

}  // namespace tessel::hlo_text
