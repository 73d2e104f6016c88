// Parses MLIR text with Tessel's dialects into a verified module, turning MLIR diagnostics
// into an absl::Status that carries every message with its location.
//
//   mlir::MLIRContext context;
//   TESSEL_ASSIGN_OR_RETURN(mlir::OwningOpRef<mlir::ModuleOp> module,
//                           ParseModule(text, "program.mlir", context));
#ifndef TESSEL_PARTITIONER_IR_PARSE_MODULE_H_
#define TESSEL_PARTITIONER_IR_PARSE_MODULE_H_

#include "absl/strings/string_view.h"

#include "absl/status/statusor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"

namespace tessel {

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
