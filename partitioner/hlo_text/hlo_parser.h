// Parses XLA HLO text into a light syntax tree: the module header, computations and
// instructions with their shapes, operand names and raw attribute values. Attribute values
// stay text (with their source position) until the importer asks for them in the form the
// opcode needs, so unknown attributes cost nothing and errors point into the value.
//
//   ParsedModule module;
//   if (failed(ParseHloText(text, "model.hlo", context, module))) return failure();
//   // Diagnostics were emitted through `context`.
#ifndef TESSEL_PARTITIONER_HLO_TEXT_HLO_PARSER_H_
#define TESSEL_PARTITIONER_HLO_TEXT_HLO_PARSER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/TypeRange.h"
#include "mlir/IR/Types.h"
#include "mlir/Support/LogicalResult.h"
#include "partitioner/hlo_text/hlo_lexer.h"

namespace tessel::hlo_text {

// An array shape (element type and dimensions; layouts are dropped), a tuple of shapes, or
// `token[]`. A token orders side effects and carries no data; Tessel runs every op in
// program order and has no side-effecting op a token could order, so a token has no leaf:
// it vanishes from tuples, parameters, loops and results on import.
struct Shape {
  bool isTuple = false;
  bool isToken = false;
  mlir::Type elementType;                 // arrays only
  llvm::SmallVector<int64_t> dims;        // arrays only
  std::vector<Shape> elements;            // tuples only

  // Moves cannot throw (SmallVector's only moves or copies inline elements), and saying so
  // lets vectors of instructions move them when they grow instead of copying each one.
  Shape() = default;
  Shape(const Shape&) = default;
  Shape(Shape&&) noexcept = default;
  Shape& operator=(const Shape&) = default;
  Shape& operator=(Shape&&) noexcept = default;

  // The number of arrays in the flattened (pre-order) tuple tree; tokens count none.
  int64_t numLeaves() const;
  // The leaves XLA counts, tokens included: one per element of a tuple sharding.
  int64_t numShardingLeaves() const;
  // For each of the numShardingLeaves() slots, whether it is a token, in order.
  void appendTokenMask(std::vector<bool>& mask) const;
  // The index of the first leaf of tuple element `i` in the flattened tree.
  int64_t leafOffset(int64_t i) const;
  // The tensor types of the leaves, in order.
  void appendLeafTypes(llvm::SmallVectorImpl<mlir::Type>& types) const;
  // Whether `types` are the leaves' types. An array is compared without building its
  // tensor type, which would hash the shape into the context's type table.
  bool hasLeafTypes(mlir::TypeRange types) const;
};

// `name=value` after an instruction or in the module header; the value is raw text.
struct AttrText {
  std::string name;
  llvm::StringRef value;
  SourcePos pos;        // where the value starts
  bool used = false;    // set once an importer has read it
};

struct OperandRef {
  std::string name;
  SourcePos pos;
  // The index of the instruction it names in its computation, resolved as it is parsed;
  // -1 when no earlier instruction has the name (the importer reports it).
  int32_t definition = -1;
};

struct Instruction {
  std::string name;
  bool isRoot = false;
  Shape shape;
  // Written without a shape (`ROOT t = tuple(a, b)`): the parser infers it from the operands
  // for the opcodes where it follows from them.
  bool shapeInferred = false;
  std::string opcode;
  std::vector<OperandRef> operands;
  // For `constant` and `parameter`: the raw text between the parentheses.
  llvm::StringRef rawOperands;
  SourcePos rawOperandsPos;
  std::vector<AttrText> attrs;
  SourcePos pos;        // where the instruction starts
  SourcePos opcodePos;

  // The attribute `name`, or null; does not mark it as read (Importer::findAttr does).
  const AttrText* peekAttr(llvm::StringRef name) const {
    for (const AttrText& attr : attrs) {
      if (attr.name == name) return &attr;
    }
    return nullptr;
  }
};

struct Computation {
  std::string name;
  bool isEntry = false;
  std::vector<Instruction> instructions;
  int rootIndex = -1;   // the ROOT instruction, or the last one
  SourcePos pos;
};

struct ParsedModule {
  std::string name;
  std::vector<AttrText> headerAttrs;
  std::vector<Computation> computations;
  int entryIndex = -1;  // the ENTRY computation, or the last one
  SourcePos pos;
};

// Parses `text` (named `bufferName` in diagnostics) into `module`. Element types become
// MLIR types of `context` (pred → i1, s32 → i32, u8 → ui8, f32 → f32, bf16, ...). Emits a
// located diagnostic and fails on malformed text or an element type Tessel lacks.
mlir::LogicalResult ParseHloText(llvm::StringRef text, llvm::StringRef bufferName,
                                 mlir::MLIRContext* context, ParsedModule& module);

// Parses a shape (`f32[4,8]{1,0}`, `(s32[], f32[2])`, `pred[]`) at the lexer's position.
// Tuples nest at most this deep (XLA's own are a few levels): the shape and everything that
// walks it recurse per level.
inline constexpr int kMaxTupleDepth = 256;
mlir::LogicalResult ParseShape(Lexer& lex, Shape& shape, int depth = 0);

// The XLA spelling of an MLIR element type (`f32`, `s32`, `pred`, ...), or "" if none.
llvm::StringRef XlaTypeName(mlir::Type elementType);

}  // namespace tessel::hlo_text

#endif  // TESSEL_PARTITIONER_HLO_TEXT_HLO_PARSER_H_
