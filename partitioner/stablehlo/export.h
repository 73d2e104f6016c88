// Export of `hlo` + `tessel` programs as StableHLO + Shardy MLIR text: the form JAX prints
// and XLA, Shardy and stablehlo tools read.
//
//   TESSEL_ASSIGN_OR_RETURN(std::string text, stablehlo::ExportStablehloText(module));
//
// Every `hlo` op becomes the `stablehlo` op of the same meaning (`chlo` for erf and top_k),
// written in MLIR's generic form with StableHLO's attribute spellings; meshes, shardings
// (`#sdy.sharding` on arguments and results, `#sdy.sharding_per_value` on ops), sharding
// constraints, reshards, sharding groups and manual computations become their `sdy`
// counterparts; collectives become StableHLO collectives over explicit device groups. So a
// propagated program reads as what Shardy's own propagation leaves, and a partitioned one
// as a per-device StableHLO program (with the partitioned mark, which the import reads back).
#ifndef TESSEL_PARTITIONER_STABLEHLO_EXPORT_H_
#define TESSEL_PARTITIONER_STABLEHLO_EXPORT_H_

#include <string>

#include "absl/status/statusor.h"
#include "mlir/IR/BuiltinOps.h"

namespace tessel::stablehlo {

// The text of `module` (left unchanged) in StableHLO + Shardy form. Fails with
// InvalidArgument naming each op that has no StableHLO form (a smallest-first top_k),
// located "file:line:col: error: ...".
absl::StatusOr<std::string> ExportStablehloText(mlir::ModuleOp module);

}  // namespace tessel::stablehlo

#endif  // TESSEL_PARTITIONER_STABLEHLO_EXPORT_H_
