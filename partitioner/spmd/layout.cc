// Layout queries (see layout.h).
#include "partitioner/spmd/layout.h"

#include <utility>

#include "partitioner/ir/tessel/collective_groups.h"

namespace tessel::spmd {

Layout Layout::replicated(ir::MeshAttr mesh, mlir::FlatSymbolRefAttr meshName, int64_t rank) {
  Layout layout;
  layout.mesh = mesh;
  layout.meshName = meshName;
  layout.dims.resize(rank);
  return layout;
}

Layout Layout::fromSharding(ir::ShardingAttr sharding, ir::MeshAttr mesh, int64_t rank) {
  if (!sharding) return replicated(nullptr, nullptr, rank);
  Layout layout = replicated(mesh, sharding.getMeshName(), rank);
  for (auto [dim, dimSharding] : llvm::enumerate(sharding.getDimShardings())) {
    llvm::ArrayRef<ir::AxisRefAttr> axes = dimSharding.getAxes();
    layout.dims[dim].assign(axes.begin(), axes.end());
  }
  llvm::ArrayRef<ir::AxisRefAttr> unreduced = sharding.getUnreducedAxes();
  layout.unreduced.assign(unreduced.begin(), unreduced.end());
  return layout;
}

int64_t Layout::numShards(int64_t dim) const {
  if (!mesh || dims[dim].empty()) return 1;
  return ir::getGroupSize(mesh, dims[dim]);
}

llvm::SmallVector<int64_t> Layout::localShape(llvm::ArrayRef<int64_t> globalShape) const {
  llvm::SmallVector<int64_t> shape(globalShape);
  for (int64_t d = 0; d < rank(); ++d) {
    int64_t n = numShards(d);
    shape[d] = (globalShape[d] + n - 1) / n;
  }
  return shape;
}

bool Layout::isSplit() const {
  if (!unreduced.empty()) return true;
  for (const AxisList& axes : dims) {
    if (!axes.empty()) return true;
  }
  return false;
}

ir::ShardingAttr Layout::toSharding(mlir::MLIRContext* context) const {
  if (!mesh) return nullptr;
  llvm::SmallVector<ir::DimShardingAttr> dimShardings;
  for (const AxisList& axes : dims) {
    dimShardings.push_back(ir::DimShardingAttr::get(context, axes, /*is_closed=*/true,
                                                    std::nullopt));
  }
  return ir::ShardingAttr::get(context, meshName, dimShardings, {}, unreduced);
}

int64_t Layout::shardIndex(int64_t dim, int64_t linearIndex) const {
  if (!mesh || dims[dim].empty()) return 0;
  return ir::getGroupPosition(mesh, dims[dim], linearIndex).position;
}

bool Layout::operator==(const Layout& other) const {
  if (meshName != other.meshName || dims.size() != other.dims.size()) return false;
  for (size_t d = 0; d < dims.size(); ++d) {
    if (!sameAxes(dims[d], other.dims[d])) return false;
  }
  return sameAxes(unreduced, other.unreduced);
}

bool sameAxes(llvm::ArrayRef<ir::AxisRefAttr> a, llvm::ArrayRef<ir::AxisRefAttr> b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
}

namespace {

// Whether `x` and `y` cannot shard one tensor together: they overlap, or they are sub-axes
// of one axis that no single split of it holds both of (`"x":(1)2` and `"x":(3)2` of
// "x"=6; the later must start at a multiple of where the earlier ends). Devices do not
// form a grid over such a pair, so a layout (or a local op) using both is no tiling.
bool clash(ir::AxisRefAttr x, ir::AxisRefAttr y) {
  if (x.overlaps(y)) return true;
  if (x.getName() != y.getName()) return false;
  // Both are sub-axes here: a whole axis overlaps every part of itself.
  if (x.getPreSize() > y.getPreSize()) std::swap(x, y);
  return y.getPreSize() % (x.getPreSize() * x.getSubSize()) != 0;
}

}  // namespace

bool anyOverlap(llvm::ArrayRef<ir::AxisRefAttr> a, llvm::ArrayRef<ir::AxisRefAttr> b) {
  for (ir::AxisRefAttr x : a) {
    for (ir::AxisRefAttr y : b) {
      if (clash(x, y)) return true;
    }
  }
  return false;
}

}  // namespace tessel::spmd
