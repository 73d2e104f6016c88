// What the shape-op handlers (slice, pad, reverse, concatenate, dynamic_slice,
// dynamic_update_slice, reshape) share: small local emitters (static slices, masks against
// per-device bounds) and the window exchange that gives each shard a contiguous window of a
// split dimension from its neighbours with collective_permute.
//
//   // Shard i sees x[a(i), a(i) + len) along `dim`, exact wherever it asked for it.
//   std::optional<Value> w = exchangeWindow(spmd, x, layout, shape, window, loc);
#ifndef TESSEL_PARTITIONER_SPMD_SHAPE_HELPERS_H_
#define TESSEL_PARTITIONER_SPMD_SHAPE_HELPERS_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <utility>

#include "llvm/ADT/ArrayRef.h"
#include "mlir/IR/Value.h"
#include "partitioner/spmd/int_math.h"
#include "partitioner/spmd/layout.h"
#include "partitioner/spmd/spmd_builder.h"

namespace tessel::spmd {

// `layout` with `dims` unsplit.
Layout withWholeDims(const Layout& layout, llvm::ArrayRef<int64_t> dims);

// The static slice [start, start + size) of `value` along `dim` (stride `stride`: then
// `size` counts the elements kept).
mlir::Value sliceDim(SpmdBuilder& spmd, mlir::Value value, int64_t dim, int64_t start,
                     int64_t size, mlir::Location loc, int64_t stride = 1);

// Keeps `value` where, along each listed dimension, the local index lies in the per-device
// range [low(i), high(i)) (i: the device's linear mesh index), and `fill` (a tensor of
// value's type, or a rank-0 tensor) elsewhere.
struct DimRange {
  int64_t dim;
  std::function<int64_t(int64_t)> low;
  std::function<int64_t(int64_t)> high;
};
mlir::Value keepInRanges(SpmdBuilder& spmd, mlir::Value value, ir::MeshAttr mesh,
                         llvm::ArrayRef<DimRange> ranges, mlir::Value fill, mlir::Location loc);

// A window of a split dimension: shard i (its shard index along `dim`) wants the global
// elements [start(i), start(i) + length), and must get exactly those of them in
// needed(i) = [first, last) (clipped to the dimension; empty when first >= last). What it
// gets elsewhere in the window is unspecified.
struct Window {
  int64_t dim;
  int64_t length;
  std::function<int64_t(int64_t)> start;
  std::function<std::pair<int64_t, int64_t>(int64_t)> needed;
};

// The local windows, built from the shard's own data and the edges of the shards around it
// (one collective_permute with a shift per neighbour distance, left and right), an
// hlo.concatenate and a dynamic_slice at an offset from a partition_id table. nullopt
// (having emitted nothing) when the halos would move more bytes, by planBytes, than
// gathering the dimension.
// Whether exchangeWindow would build the window (rather than decline) for a local value of
// `localType`.
bool windowIsCheap(const Layout& layout, llvm::ArrayRef<int64_t> globalShape,
                   const Window& window, mlir::Type localType);
std::optional<mlir::Value> exchangeWindow(SpmdBuilder& spmd, mlir::Value value,
                                          const Layout& layout,
                                          llvm::ArrayRef<int64_t> globalShape,
                                          const Window& window, mlir::Location loc);

}  // namespace tessel::spmd

#endif  // TESSEL_PARTITIONER_SPMD_SHAPE_HELPERS_H_
