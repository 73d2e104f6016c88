// The mark a partitioned program carries so that whoever runs it later can feed it global
// inputs and assemble global results: the module attribute
//
//   tessel.partitioned = {num_partitions = 8 : i64,
//                         parameter_types = [tensor<16x64xf32>, ...],
//                         result_types = [tensor<16x64xf32>]}
//
// giving the partition count and the entry function's global (unpartitioned) types. The
// partitioned function keeps a `tessel.sharding` per argument and result, which says which
// piece of each global value a partition holds. The C++ API and the `tessel` CLI write and
// read the same mark, so a file either writes runs through the other.
#ifndef TESSEL_PARTITIONER_IR_PARTITIONED_MARKER_H_
#define TESSEL_PARTITIONER_IR_PARTITIONED_MARKER_H_

#include <cstdint>
#include <optional>

#include "absl/status/statusor.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Types.h"
#include "mlir/IR/Value.h"

namespace tessel::ir {

inline constexpr llvm::StringLiteral kPartitionedAttrName = "tessel.partitioned";

struct PartitionedSignature {
  int64_t num_partitions = 0;
  llvm::SmallVector<mlir::Type> parameter_types;
  llvm::SmallVector<mlir::Type> result_types;
};

// Where the program was partitioned with the global layouts kept (the partitioner's
// recordGlobalLayouts option, `tessel partition --global_layouts`), an op whose results are
// the local pieces of global values says which, one dictionary per result (empty for a
// result that is no global value's piece):
//
//   %3 = hlo.dot_general ... {tessel.global_layouts = [{sharding = #tessel.sharding<@mesh,
//        [{"data"}, {"model"}]>, type = tensor<16x256xf32>}]} : ... -> tensor<4x128xf32>
//
// Only tools read it (`tessel viz` draws such a value's global tiles); the executor and
// the HLO export ignore it.
inline constexpr llvm::StringLiteral kGlobalLayoutsAttrName = "tessel.global_layouts";

struct GlobalLayout {
  mlir::Type type;
  // A #tessel.sharding (kept as a plain attribute: this mark does not depend on the dialect).
  mlir::Attribute sharding;
};

// Records that `result` is the local piece of a global value of `type` laid out by
// `sharding`. Leaves an entry that is already there.
void RecordGlobalLayout(mlir::OpResult result, mlir::Type type, mlir::Attribute sharding);

// The global value `result` is a piece of, or nullopt where none is recorded.
std::optional<GlobalLayout> ReadGlobalLayout(mlir::OpResult result);

// Writes the mark on `module`.
void MarkPartitioned(mlir::ModuleOp module, const PartitionedSignature& signature);

// The mark of `module`, or nullopt if it has none. InvalidArgument, saying what is wrong,
// for a mark that is not of the form above or whose type lists do not have
// `num_parameters` and `num_results` entries.
absl::StatusOr<std::optional<PartitionedSignature>> ReadPartitionedMark(mlir::ModuleOp module,
                                                                        size_t num_parameters,
                                                                        size_t num_results);

}  // namespace tessel::ir

#endif  // TESSEL_PARTITIONER_IR_PARTITIONED_MARKER_H_
