// Parses MLIR text with Tessel's dialects into a verified module, turning MLIR diagnostics
// into an absl::Status that carries every message with its location.
//
//   mlir::MLIRContext context;
//   TESSEL_ASSIGN_OR_RETURN(mlir::OwningOpRef<mlir::ModuleOp> module,
//                           ParseModule(text, "program.mlir", context));
#ifndef TESSEL_PARTITIONER_IR_PARSE_MODULE_H_
#define TESSEL_PARTITIONER_IR_PARSE_MODULE_H_

#include "absl/strings/string_view.h"

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"

namespace tessel {

// The deepest nesting of brackets ((), [], {}, <>) that MLIR text may have. MLIR's parser
// descends recursively, one set of stack frames per level, and overflows the stack somewhere
// past a few thousand levels (nested regions) or tens of thousands (nested types and dense
// literals): a crash, not a diagnostic. Real programs nest a few dozen levels; HLO text has
// the same limit for tuple shapes.
inline constexpr int kMaxNesting = 256;

// Fails with InvalidArgument ("program.mlir:3:5: error: brackets nested deeper than 256
// levels", at the bracket that goes too deep) if `text` nests brackets more than
// kMaxNesting levels. Every tool checks MLIR text with this before MLIR's parser sees it.
absl::Status CheckMlirNesting(absl::string_view text, absl::string_view buffer_name);

// Adds the dialects a Tessel program may use (func, hlo, tessel) to `registry`.
void RegisterTesselDialects(mlir::DialectRegistry& registry);

// Parses and verifies `text`; `buffer_name` names it in diagnostics. Loads the dialects
// into `context`. Fails with InvalidArgument holding the diagnostics
// ("program.mlir:3:5: error: ...").
absl::StatusOr<mlir::OwningOpRef<mlir::ModuleOp>> ParseModule(absl::string_view text,
                                                              absl::string_view buffer_name,
                                                              mlir::MLIRContext& context);

// Reads `path` and parses it as above; fails with NotFound if it cannot be read.
absl::StatusOr<mlir::OwningOpRef<mlir::ModuleOp>> ParseModuleFile(absl::string_view path,
                                                                  mlir::MLIRContext& context);

}  // namespace tessel

#endif  // TESSEL_PARTITIONER_IR_PARSE_MODULE_H_
