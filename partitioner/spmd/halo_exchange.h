// Halo exchange: the machinery windowed ops (convolution, reduce_window, select_and_scatter)
// share when a dimension they slide a window over is split. Each shard needs a contiguous
// range of the global dimension that reaches into its neighbours' shards; the neighbours
// send those edges with tessel.collective_permute (one permute per hop when a window spans
// more than one neighbour, or one all_gather of the dimension when the halos would cover
// nearly everything), the pieces are concatenated, and each shard cuts its exact range with
// a dynamic_slice whose offset comes from a table indexed by partition_id. Elements outside
// the global dimension (the op's padding, and the padding of uneven shards) are masked with
// a fill value, so the local op can run without padding of its own.
//
//   WindowDim window = ...;                           // the op's window along `dim`
//   Value in = haloForWindow(spmd, local, layout, shape, dim, window, outputSize, init, loc);
//   // `in` holds exactly what the local op needs to produce ceil(outputSize / n) windows
//   // along `dim` with padding 0 and base dilation 1.
#ifndef TESSEL_PARTITIONER_SPMD_HALO_EXCHANGE_H_
#define TESSEL_PARTITIONER_SPMD_HALO_EXCHANGE_H_

#include <cstdint>
#include <optional>

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Value.h"
#include "partitioner/spmd/int_math.h"
#include "partitioner/spmd/layout.h"
#include "partitioner/spmd/spmd_builder.h"

namespace tessel::spmd {

// One dimension of a window. Padding may be negative (convolution crops).
struct WindowDim {
  int64_t size = 1;
  int64_t stride = 1;
  int64_t padLow = 0;
  int64_t padHigh = 0;
  int64_t baseDilation = 1;
  int64_t windowDilation = 1;

  // (size - 1) * windowDilation + 1.
  int64_t dilatedSize() const { return (size - 1) * windowDilation + 1; }
  // The number of window positions over `inputSize` elements (0 when none fits).
  int64_t outputSize(int64_t inputSize) const;
  // Output position p reads input position p only: nothing crosses a shard boundary.
  bool isTrivial() const;
};

// Reads the window of an op from its optional attributes: per dimension the size, and
// strides, dilations (1 when absent) and padding ([rank, 2] rows, 0 when absent).
llvm::SmallVector<WindowDim> windowDims(llvm::ArrayRef<int64_t> sizes,
                                        std::optional<llvm::ArrayRef<int64_t>> strides,
                                        std::optional<llvm::ArrayRef<int64_t>> baseDilations,
                                        std::optional<llvm::ArrayRef<int64_t>> windowDilations,
                                        std::optional<mlir::DenseIntElementsAttr> padding);

// The `[rank, 2]` i64 padding attribute holding each window dimension's (low, high).
mlir::DenseIntElementsAttr paddingAttr(mlir::MLIRContext* context,
                                       llvm::ArrayRef<WindowDim> window);

// What each shard of a split dimension wants to hold: on the shard of index i (along the
// dimension's axes) the `length` global elements from starts[i] on. Of those, only
// [needBegin[i], needEnd[i]) must hold the right data (an empty range: nothing of this
// shard's result is used); the rest may hold anything.
struct ShardRanges {
  int64_t dim = 0;
  int64_t length = 0;
  llvm::SmallVector<int64_t> starts;
  llvm::SmallVector<int64_t> needBegin;
  llvm::SmallVector<int64_t> needEnd;
};

// How many elements of the global dimension (of size `size`, in n = starts.size() pieces of
// ceil(size / n)) each shard of `ranges` needs from the shards before it (low) and after it
// (high): the halos exchangeHalo brings. Needed positions outside [0, size) come from the
// fill, not from a neighbour, and count in neither; shards that need nothing get 0 and 0.
struct HaloSizes {
  llvm::SmallVector<int64_t> low;
  llvm::SmallVector<int64_t> high;
};
HaloSizes haloSizes(const ShardRanges& ranges, int64_t size);

// The ranges haloForWindow asks for along a dimension split n ways whose windowed op
// produces `outputSize` windows, ceil(outputSize / n) per shard. Emits nothing: viz shows
// the same halos the partitioner exchanges.
ShardRanges windowShardRanges(int64_t dim, const WindowDim& window, int64_t n,
                              int64_t outputSize);

// The operand ranges hlo.select_and_scatter asks for along a dimension of size `size`
// split n ways with `windows` windows (select_and_scatter_partition.cc): each shard
// recomputes every window that touches a position it owns.
ShardRanges selectAndScatterOperandRanges(int64_t dim, int64_t n, int64_t size,
                                          int64_t windows, const WindowDim& window);

// `local` (the local value of `layout`, global shape `globalShape`) with dimension
// ranges.dim replaced by the ranges each shard asked for. Needed elements outside
// [0, globalShape[dim]) hold `fill` (a rank-0 tensor) when it is given; without a fill
// they are arbitrary. Other dimensions are unchanged.
mlir::Value exchangeHalo(SpmdBuilder& spmd, mlir::Value local, const Layout& layout,
                         llvm::ArrayRef<int64_t> globalShape, const ShardRanges& ranges,
                         mlir::Value fill, mlir::Location loc);

// For a windowed op whose output dimension `dim` is split like its input dimension (both
// over layout.dims[dim], the output into ceil(outputSize / n) windows per shard): the
// local input the op needs on each shard, with the op's padding and base dilation along
// `dim` already applied (holes and padding hold `fill`), so that the local op, run with
// padding 0 and base dilation 1 along `dim` and the same stride and window dilation,
// yields exactly the shard's windows.
mlir::Value haloForWindow(SpmdBuilder& spmd, mlir::Value local, const Layout& layout,
                          llvm::ArrayRef<int64_t> globalShape, int64_t dim,
                          const WindowDim& window, int64_t outputSize, mlir::Value fill,
                          mlir::Location loc);

// `value` cut along `dim` to `size` elements from offsets[shard index along splitDim]: a
// dynamic_slice, or a static slice when every shard has the same offset.
mlir::Value sliceAtShardOffsets(SpmdBuilder& spmd, mlir::Value value, const Layout& layout,
                                int64_t dim, int64_t splitDim, llvm::ArrayRef<int64_t> offsets,
                                int64_t size, mlir::Location loc);

// `value` cut to [begin, end) along `dim` (an hlo.slice; nothing when that is all of it).
mlir::Value sliceAlong(mlir::OpBuilder& builder, mlir::Value value, int64_t dim, int64_t begin,
                       int64_t end, mlir::Location loc);
// `value` padded along `dim` with `padValue` (an hlo.pad; nothing when all amounts are 0).
mlir::Value padAlong(mlir::OpBuilder& builder, mlir::Value value, mlir::Value padValue,
                     int64_t dim, int64_t low, int64_t high, int64_t interior,
                     mlir::Location loc);

}  // namespace tessel::spmd

#endif  // TESSEL_PARTITIONER_SPMD_HALO_EXCHANGE_H_
