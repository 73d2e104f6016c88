// What the gather and scatter handlers share: rewriting the index vectors of a local
// indices tensor for an operand split along dimensions those vectors index. Each device
// gathers from (or scatters into) its own shard, so an index is shifted down by the offset
// of that shard, and a gather learns which index vectors fall in the shard at all.
#ifndef TESSEL_PARTITIONER_SPMD_INDEX_SHIFT_H_
#define TESSEL_PARTITIONER_SPMD_INDEX_SHIFT_H_

#include <cstdint>

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "mlir/IR/Value.h"
#include "partitioner/spmd/layout.h"
#include "partitioner/spmd/spmd_builder.h"

namespace tessel::spmd {

// The dimensions of a tensor of `rank` that are not in `excluded`, in order (the offset
// dimensions of a gather's result, the window dimensions of a scatter's updates).
llvm::SmallVector<int64_t> dimsExcept(int64_t rank, llvm::ArrayRef<int64_t> excluded);

// The position of `value` in `list` (list.size() when it is not there).
int64_t positionOf(llvm::ArrayRef<int64_t> list, int64_t value);

// How index vectors address an operand: the indices dimension holding them (the rank of
// the indices for an implicit trailing one of size 1) and the operand dimension each entry
// indexes (gather's start_index_map, scatter's scatter_dims_to_operand_dims).
struct IndexVectors {
  int64_t indexVectorDim;
  llvm::ArrayRef<int64_t> operandDims;
};

// `indices` (local, whole along the index vector dimension) with entry k clamped to
// [0, clampHigh[k]] when `clampHigh` is not empty (gather's clamping of global starts,
// done before anything else), then lowered by the offset of the device's shard of operand
// dimension operandDims[k] under `operandLayout` (nothing for unsplit dimensions).
mlir::Value shiftIndices(SpmdBuilder& spmd, mlir::Value indices, const IndexVectors& vectors,
                         const Layout& operandLayout, llvm::ArrayRef<int64_t> operandShape,
                         llvm::ArrayRef<int64_t> clampHigh, mlir::Location loc);

// For shifted indices, a pred tensor over the batch positions (the indices' shape without
// the index vector dimension): true where every entry indexing a split operand dimension
// lies inside the device's shard, [0, valid length). Null when no indexed dim is split.
mlir::Value indicesInShard(SpmdBuilder& spmd, mlir::Value shifted, const IndexVectors& vectors,
                           const Layout& operandLayout, llvm::ArrayRef<int64_t> operandShape,
                           mlir::Location loc);

}  // namespace tessel::spmd

#endif  // TESSEL_PARTITIONER_SPMD_INDEX_SHIFT_H_
