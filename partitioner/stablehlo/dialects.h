// The `stablehlo`, `chlo` and `sdy` dialects as far as importing JAX's default output needs
// them: parsers for their textual forms and nothing else.
//
// Their ops exist only between parsing and the import into `hlo` + `tessel` (import.h), so
// they are not defined op by op: each dialect allows unknown ops and supplies a parse hook
// for every pretty form it knows. The hook records the op's operands, types, regions and
// attributes, spelled as the matching `hlo`/`tessel` op names them; the generic form
// ("stablehlo.gather"(...) <{...}>) needs no hook. Dialect attributes are parsed straight
// into Tessel's own attributes where the syntax is shared (#sdy.sharding → #tessel.sharding,
// #stablehlo.gather → #hlo.gather, ...). The `hlo` and `tessel` verifiers check the ops once
// they are imported.
#ifndef TESSEL_PARTITIONER_STABLEHLO_DIALECTS_H_
#define TESSEL_PARTITIONER_STABLEHLO_DIALECTS_H_

#include <optional>
#include <string>

#include "mlir/IR/Dialect.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Support/TypeID.h"

namespace tessel::stablehlo {

class StablehloDialect : public mlir::Dialect {
 public:
  explicit StablehloDialect(mlir::MLIRContext* context);
  static constexpr llvm::StringLiteral getDialectNamespace() { return "stablehlo"; }
  mlir::Attribute parseAttribute(mlir::DialectAsmParser& parser, mlir::Type type) const override;
  void printAttribute(mlir::Attribute, mlir::DialectAsmPrinter&) const override {}
  std::optional<ParseOpHook> getParseOperationHook(llvm::StringRef opName) const override;
};

// CHLO: the "client" ops JAX leaves unexpanded (erf, erfc, square, top_k, ...).
class ChloDialect : public mlir::Dialect {
 public:
  explicit ChloDialect(mlir::MLIRContext* context);
  static constexpr llvm::StringLiteral getDialectNamespace() { return "chlo"; }
  std::optional<ParseOpHook> getParseOperationHook(llvm::StringRef opName) const override;
};

class SdyDialect : public mlir::Dialect {
 public:
  explicit SdyDialect(mlir::MLIRContext* context);
  static constexpr llvm::StringLiteral getDialectNamespace() { return "sdy"; }
  mlir::Attribute parseAttribute(mlir::DialectAsmParser& parser, mlir::Type type) const override;
  void printAttribute(mlir::Attribute, mlir::DialectAsmPrinter&) const override {}
  std::optional<ParseOpHook> getParseOperationHook(llvm::StringRef opName) const override;
};

// Adds the three dialects (and `hlo`, `tessel`, whose attributes they produce).
void registerStablehloDialects(mlir::DialectRegistry& registry);

// The `hlo` op a `stablehlo` or `chlo` elementwise op becomes ("multiply" → "mul"), or ""
// if `name` (without the dialect prefix) is not one.
llvm::StringRef hloElementwiseName(llvm::StringRef dialect, llvm::StringRef name);

// The StableHLO (or CHLO) op, with its dialect, that the elementwise `hlo` op `hloName`
// ("hlo.mul") is written as ("stablehlo.multiply"), or "" if it is none.
std::string stablehloElementwiseName(llvm::StringRef hloName);

}  // namespace tessel::stablehlo

MLIR_DECLARE_EXPLICIT_TYPE_ID(tessel::stablehlo::StablehloDialect)
MLIR_DECLARE_EXPLICIT_TYPE_ID(tessel::stablehlo::ChloDialect)
MLIR_DECLARE_EXPLICIT_TYPE_ID(tessel::stablehlo::SdyDialect)

#endif  // TESSEL_PARTITIONER_STABLEHLO_DIALECTS_H_
