// Import of XLA HLO text (as dumped by JAX, TensorFlow or PyTorch/XLA) into a module of the
// `hlo`, `tessel` and `func` dialects. See docs/hlo.md for the supported subset.
//
//   mlir::MLIRContext context;
//   TESSEL_ASSIGN_OR_RETURN(mlir::OwningOpRef<mlir::ModuleOp> module,
//                           ImportHloTextToModule(text, "model.hlo", context));
//
// The ENTRY computation becomes `func.func @main`; tuple parameters and results are
// flattened; computations used by `call`/`fusion` become private functions, and those used
// by reduce, sort, while, ... become the regions of those ops. Each instruction's
// `sharding={...}` text is kept verbatim in the string attribute `tessel.hlo_sharding` (on
// the op, or on the function argument/result for parameters and the root), and frontend
// attributes named `xla.sdy.*` in the dictionary `tessel.hlo_frontend_attributes`.
#ifndef TESSEL_PARTITIONER_HLO_TEXT_HLO_IMPORT_H_
#define TESSEL_PARTITIONER_HLO_TEXT_HLO_IMPORT_H_

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "llvm/ADT/StringRef.h"
#include <string>
#include <vector>

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"

namespace tessel::hlo_text {

// Imports and verifies `text`; `bufferName` names it in locations. Loads the func, hlo and
// tessel dialects. On failure emits located diagnostics through `context` and returns null.
mlir::OwningOpRef<mlir::ModuleOp> ImportHloText(llvm::StringRef text, llvm::StringRef bufferName,
                                                mlir::MLIRContext* context);

// As above, but collects the diagnostics ("model.hlo:3:5: error: ...") into an
// InvalidArgument status.
absl::StatusOr<mlir::OwningOpRef<mlir::ModuleOp>> ImportHloTextToModule(
    absl::string_view text, absl::string_view bufferName, mlir::MLIRContext& context);

// The XLA opcodes the importer reads, sorted (docs/ops.md lists every XLA opcode with
// Tessel's status; a test keeps the two in step).
std::vector<std::string> ImportedHloOpcodes();

}  // namespace tessel::hlo_text

#endif  // TESSEL_PARTITIONER_HLO_TEXT_HLO_IMPORT_H_
