// For `tessel viz`: the halos that the windowed ops reading a value (convolution,
// reduce_window, select_and_scatter) need when a dimension they slide a window over is
// split, per piece of that dimension, with the partitioner's own arithmetic
// (partitioner/spmd/halo_exchange.h), so the picture shows what partitioning will exchange.
//
//   view.halos = HaloUsesOf(value.value, view, module);
#ifndef TESSEL_TOOLS_TESSEL_VIZ_HALOS_H_
#define TESSEL_TOOLS_TESSEL_VIZ_HALOS_H_

#include <vector>

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "partitioner/sharding/visualize.h"

namespace tessel::cli {

// One entry per windowed op that reads `value` (laid out as `view` says) along a window
// dimension its result splits: per split window dimension the halo of each piece, or,
// where the value is split otherwise than the op's result along such a dimension, a note
// that the partitioner reshards it first. `scope` finds the meshes of the ops' results.
// Ops with no split window dimension are left out.
std::vector<sharding::HaloUse> HaloUsesOf(mlir::Value value, const sharding::ShardingView& view,
                                          mlir::Operation* scope);

}  // namespace tessel::cli

#endif  // TESSEL_TOOLS_TESSEL_VIZ_HALOS_H_
