// Loading the program a `tessel` subcommand works on: MLIR text, StableHLO + Shardy MLIR (what
// JAX prints) or XLA HLO text, told apart by the file's extension and content, and the
// function in it that the user named.
//
//   mlir::MLIRContext context;
//   TESSEL_ASSIGN_OR_RETURN(mlir::OwningOpRef<mlir::ModuleOp> module,
//                           LoadProgram("model.hlo", context));
//   TESSEL_ASSIGN_OR_RETURN(mlir::func::FuncOp main, FindFunction(*module, "main", "model.hlo"));
#ifndef TESSEL_TOOLS_TESSEL_PROGRAM_H_
#define TESSEL_TOOLS_TESSEL_PROGRAM_H_

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"

namespace tessel::cli {

enum class ProgramFormat { kMlir, kStablehlo, kHlo };

// ".hlo" → HLO; any other name is sniffed: text whose first word, after blank space and `//`
// comment lines, is `HloModule` is HLO (unless the name ends in ".mlir"). MLIR that uses the
// stablehlo, chlo or sdy dialects is StableHLO; upstream `mesh` dialect input is plain MLIR.
ProgramFormat DetectProgramFormat(absl::string_view path, absl::string_view text);

// Reads `path` ("-" for standard input), parses it in the detected format and verifies it.
// Fails with NotFound if the file cannot be read and InvalidArgument with the parser's
// located diagnostics ("path:line:col: error: ...") if it does not parse or verify. The
// detected format goes to `format` when it is not null.
absl::StatusOr<mlir::OwningOpRef<mlir::ModuleOp>> LoadProgram(absl::string_view path,
                                                              mlir::MLIRContext& context,
                                                              ProgramFormat* format = nullptr);

// Parses `text` in `format` and verifies it, as LoadProgram does with a file's text; `name`
// stands for the file in diagnostics.
absl::StatusOr<mlir::OwningOpRef<mlir::ModuleOp>> ParseProgramText(absl::string_view text,
                                                                   absl::string_view name,
                                                                   ProgramFormat format,
                                                                   mlir::MLIRContext& context);

// The function `name` of `module`, which must have a body. Fails with NotFound naming `path`
// and listing the module's functions otherwise.
absl::StatusOr<mlir::func::FuncOp> FindFunction(mlir::ModuleOp module, absl::string_view name,
                                                absl::string_view path);

// Whether `module` is per-device code already: it has `partition_id` or collectives outside
// manual computations (whose bodies are per-device code inside a global program), or its
// values were all manual in HLO. Such ops have no meaning in a global program; the
// partitioner rejects them there.
bool LooksPartitioned(mlir::ModuleOp module);

}  // namespace tessel::cli

#endif  // TESSEL_TOOLS_TESSEL_PROGRAM_H_
