// Layout: how auto-sharding describes one tensor's split while it searches, as the mesh axes
// (by their index in the mesh) that split each dimension, major to minor. It is cheaper to
// compare and hash than a ShardingAttr and is turned into one only for the chosen plan.
//
//   Layout rows{{{0}, {}}};                    // dim 0 split over mesh axis 0 ("data")
//   rows.toSharding(meshName, mesh)            // #tessel.sharding<@mesh, [{"data"}, {}]>
//   rows.localBytes(type, mesh)                // the bytes each device holds
#ifndef TESSEL_PARTITIONER_AUTO_LAYOUT_H_
#define TESSEL_PARTITIONER_AUTO_LAYOUT_H_

#include <cstdint>
#include <optional>
#include <string>

#include "llvm/ADT/SmallVector.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "partitioner/ir/tessel/tessel_ops.h"

namespace tessel::auto_sharding {

struct Layout {
  // Per dimension, the indices of the mesh axes that split it, major to minor.
  llvm::SmallVector<llvm::SmallVector<int, 2>, 4> dims;

  // A rank-`rank` layout with no dimension split.
  static Layout replicated(int64_t rank);

  bool operator==(const Layout& other) const { return dims == other.dims; }
  bool operator!=(const Layout& other) const { return !(*this == other); }

  // The product of the sizes of the axes that split dimension `dim`.
  int64_t shards(int64_t dim, ir::MeshAttr mesh) const;
  // The product over all dimensions: how many distinct pieces the tensor is cut into.
  int64_t totalShards(ir::MeshAttr mesh) const;
  // The elements of one device's piece of `type`: each dimension rounded up (padded).
  int64_t localElements(mlir::ShapedType type, ir::MeshAttr mesh) const;
  int64_t localBytes(mlir::ShapedType type, ir::MeshAttr mesh) const;

  // A closed sharding of `meshName` with these axes.
  ir::ShardingAttr toSharding(mlir::FlatSymbolRefAttr meshName, ir::MeshAttr mesh) const;
  // `[{"data"}, {}]`, the dimension list as a sharding writes it.
  std::string toString(ir::MeshAttr mesh) const;
};

// The layout a user's sharding gives, or nullopt when it uses what a Layout cannot say (a
// sub-axis or unreduced axes) or axes `mesh` lacks. Explicitly replicated axes are dropped:
// the layout leaves them out anyway.
std::optional<Layout> layoutOf(ir::ShardingAttr sharding, ir::MeshAttr mesh);

}  // namespace tessel::auto_sharding

#endif  // TESSEL_PARTITIONER_AUTO_LAYOUT_H_
