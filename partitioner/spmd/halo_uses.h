// For sharding pictures (`tessel viz`, the API's ShardingPicture): the halos that the
// windowed ops reading a value (convolution, reduce_window, select_and_scatter) need when a
// dimension they slide a window over is split, per piece of that dimension, with the
// partitioner's own arithmetic (halo_exchange.h), so the picture shows what partitioning
// will exchange. A library of its own so that the CLI and the API draw the same halos.
//
//   view.halos = HaloUsesOf(value.value, view, module);
#ifndef TESSEL_PARTITIONER_SPMD_HALO_USES_H_
#define TESSEL_PARTITIONER_SPMD_HALO_USES_H_

#include <vector>

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "partitioner/sharding/visualize.h"

namespace tessel::spmd {

// One entry per windowed op that reads `value` (laid out as `view` says) along a window
// dimension its result splits: per split window dimension the halo of each piece, or,
// where the value is split otherwise than the op's result along such a dimension, a note
// that the partitioner reshards it first. `scope` finds the meshes of the ops' results.
// Ops with no split window dimension are left out.
std::vector<sharding::HaloUse> HaloUsesOf(mlir::Value value, const sharding::ShardingView& view,
                                          mlir::Operation* scope);

}  // namespace tessel::spmd

#endif  // TESSEL_PARTITIONER_SPMD_HALO_USES_H_
