// Import of StableHLO + Shardy MLIR (what `jax.jit(f).lower(...).as_text()` prints) into the
// `hlo` and `tessel` dialects.
//
//   mlir::MLIRContext context;
//   TESSEL_ASSIGN_OR_RETURN(mlir::OwningOpRef<mlir::ModuleOp> module,
//                           stablehlo::ParseStablehloModule(text, "model.mlir", context));
//
// Parsing already builds most ops as their `hlo`/`tessel` counterparts (dialects.h);
// importStablehlo converts the rest: ops in MLIR's generic form, CHLO ops that take several
// `hlo` ops, and the `sdy.sharding`/`mhlo.sharding` attributes of functions and ops.
#ifndef TESSEL_PARTITIONER_STABLEHLO_IMPORT_H_
#define TESSEL_PARTITIONER_STABLEHLO_IMPORT_H_

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"

namespace tessel::stablehlo {

// Whether `text` uses the stablehlo, chlo or sdy dialects (an op or attribute of theirs
// outside comments): such MLIR goes through ParseStablehloModule.
bool LooksLikeStablehlo(absl::string_view text);

// Converts what parsing left of StableHLO, CHLO and Shardy in `module` into `hlo` and
// `tessel` ops and attributes; `mhlo.sharding` strings become `tessel.hlo_sharding` (for the
// HLO sharding import). Fails with an error at every op it cannot import, naming it.
mlir::LogicalResult importStablehlo(mlir::ModuleOp module);

// Registers --tessel-import-stablehlo, the pass form of importStablehlo for tessel-opt (which
// registers the dialects with registerStablehloDialects).
void registerImportStablehloPass();

// Parses `text` with the StableHLO, CHLO and Shardy dialects besides Tessel's, imports it and
// verifies the result. Fails with InvalidArgument holding the located diagnostics
// ("model.mlir:3:5: error: ...").
absl::StatusOr<mlir::OwningOpRef<mlir::ModuleOp>> ParseStablehloModule(
    absl::string_view text, absl::string_view buffer_name, mlir::MLIRContext& context);

}  // namespace tessel::stablehlo

#endif  // TESSEL_PARTITIONER_STABLEHLO_IMPORT_H_
