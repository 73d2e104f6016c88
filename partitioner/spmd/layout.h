// Layout: how the partitioner sees a value's sharding while it rewrites a function — the
// mesh, the axes that split each dimension (major to minor) and the axes over which the
// local values are partial sums. A layout without a mesh is replicated everywhere. It also
// answers the per-device questions offset tables are built from (shard index, valid length).
#ifndef TESSEL_PARTITIONER_SPMD_LAYOUT_H_
#define TESSEL_PARTITIONER_SPMD_LAYOUT_H_

#include <cstdint>

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "partitioner/ir/tessel/tessel_ops.h"

namespace tessel::spmd {

using AxisList = llvm::SmallVector<ir::AxisRefAttr, 2>;

struct Layout {
  ir::MeshAttr mesh;                  // null: no mesh, the value is whole everywhere
  mlir::FlatSymbolRefAttr meshName;   // null exactly when mesh is
  llvm::SmallVector<AxisList, 4> dims;
  AxisList unreduced;

  // A layout with `rank` unsplit dims on `mesh` (which may be null).
  static Layout replicated(ir::MeshAttr mesh, mlir::FlatSymbolRefAttr meshName, int64_t rank);
  // The layout of `sharding` (null: replicated without mesh, of rank `rank`).
  static Layout fromSharding(ir::ShardingAttr sharding, ir::MeshAttr mesh, int64_t rank);

  int64_t rank() const { return dims.size(); }
  // The number of shards dimension `dim` is split into (1 when unsplit).
  int64_t numShards(int64_t dim) const;
  // ceil(global / numShards) per dimension.
  llvm::SmallVector<int64_t> localShape(llvm::ArrayRef<int64_t> globalShape) const;
  // Whether some dimension is split or some axis unreduced.
  bool isSplit() const;
  // The sharding attribute describing this layout (closed dimensions); null without mesh.
  ir::ShardingAttr toSharding(mlir::MLIRContext* context) const;

  // The index of the shard device `linearIndex` holds along `dim`.
  int64_t shardIndex(int64_t dim, int64_t linearIndex) const;

  bool operator==(const Layout& other) const;
  bool operator!=(const Layout& other) const { return !(*this == other); }
};

// Whether two axis lists name the same axes in the same order.
bool sameAxes(llvm::ArrayRef<ir::AxisRefAttr> a, llvm::ArrayRef<ir::AxisRefAttr> b);
// Whether any axis of `a` overlaps any axis of `b`, or the two hold sub-axes of one axis
// that no split of it holds together ("x":(1)2 and "x":(3)2 of "x"=6): either way the
// axes cannot shard one tensor (or one op's factors) together.
bool anyOverlap(llvm::ArrayRef<ir::AxisRefAttr> a, llvm::ArrayRef<ir::AxisRefAttr> b);

}  // namespace tessel::spmd

#endif  // TESSEL_PARTITIONER_SPMD_LAYOUT_H_
