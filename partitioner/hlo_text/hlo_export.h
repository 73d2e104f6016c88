// Export of a module of the `hlo`, `tessel` and `func` dialects to XLA HLO text.
//
//   std::string text;
//   llvm::raw_string_ostream os(text);
//   if (failed(ExportHloText(module, os))) ...;  // diagnostics say which op could not be
//                                                 // expressed
//
// `func.func @main` (or the only public function) becomes the ENTRY computation; other
// functions and the regions of hlo ops become computations. Several results become a
// ROOT tuple. Shapes are printed with the default (row-major) layout. `tessel.hlo_sharding`
// and `tessel.hlo_frontend_attributes` are printed back as `sharding=` and
// `frontend_attributes=`. Tessel collectives become XLA collectives with explicit replica
// groups computed from their mesh; the header then carries num_partitions.
#ifndef TESSEL_PARTITIONER_HLO_TEXT_HLO_EXPORT_H_
#define TESSEL_PARTITIONER_HLO_TEXT_HLO_EXPORT_H_

#include <string>

#include "absl/status/statusor.h"
#include "llvm/Support/raw_ostream.h"
#include "mlir/IR/BuiltinOps.h"

namespace tessel::hlo_text {

// Writes `module` as HLO text to `os`. On failure emits a diagnostic at the offending op
// and writes nothing.
mlir::LogicalResult ExportHloText(mlir::ModuleOp module, llvm::raw_ostream& os);

// As above, returning the text, or InvalidArgument with the diagnostics.
absl::StatusOr<std::string> ExportHloTextToString(mlir::ModuleOp module);

}  // namespace tessel::hlo_text

#endif  // TESSEL_PARTITIONER_HLO_TEXT_HLO_EXPORT_H_
