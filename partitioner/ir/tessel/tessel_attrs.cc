// Meaning of the tessel attributes: mesh geometry, axis-reference algebra, sharding queries,
// and the checks each attribute can make without knowing its mesh.
#include <cassert>

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"
#include "partitioner/ir/tessel/tessel_ops.h"
#include "support/mesh_limits.h"

namespace tessel::ir {

//===------------------------------------------------------------------------------------===//
// MeshAttr
//===------------------------------------------------------------------------------------===//

mlir::LogicalResult MeshAttr::verify(llvm::function_ref<mlir::InFlightDiagnostic()> emitError,
                                     llvm::ArrayRef<MeshAxisAttr> axes,
                                     llvm::ArrayRef<int64_t> deviceIds) {
  llvm::SmallSet<llvm::StringRef, 8> names;
  int64_t total = 1;
  for (MeshAxisAttr axis : axes) {
    if (axis.getName().empty()) return emitError() << "mesh axis name must not be empty";
    if (axis.getSize() < 1) {
      return emitError() << "mesh axis \"" << axis.getName() << "\" has size "
                         << axis.getSize() << ", must be at least 1";
    }
    if (!names.insert(axis.getName()).second) {
      return emitError() << "mesh axis \"" << axis.getName() << "\" appears twice";
    }
    if (axis.getSize() > kMaxMeshDevices / total) {
      return emitError() << "mesh has more than " << kMaxMeshDevices
                         << " devices (at axis \"" << axis.getName() << "\" of size "
                         << axis.getSize() << ")";
    }
    total *= axis.getSize();
  }
  if (deviceIds.empty()) return mlir::success();
  if (axes.empty()) {
    // A maximal mesh: one device, which may have any id.
    if (deviceIds.size() != 1) {
      return emitError() << "a mesh without axes takes exactly one device id, got "
                         << deviceIds.size();
    }
    if (deviceIds.front() < 0) {
      return emitError() << "device id " << deviceIds.front() << " must not be negative";
    }
    return mlir::success();
  }
  if (static_cast<int64_t>(deviceIds.size()) != total) {
    return emitError() << "device_ids must have " << total << " entries (the mesh size), has "
                       << deviceIds.size();
  }
  llvm::SmallVector<bool> seen(total, false);
  for (int64_t id : deviceIds) {
    if (id < 0 || id >= total) {
      return emitError() << "device id " << id << " is out of range [0, " << total << ")";
    }
    if (seen[id]) return emitError() << "device id " << id << " appears twice";
    seen[id] = true;
  }
  return mlir::success();
}

std::optional<int64_t> MeshAttr::findAxisSize(llvm::StringRef name) const {
  for (MeshAxisAttr axis : getAxes()) {
    if (axis.getName() == name) return axis.getSize();
  }
  return std::nullopt;
}

int64_t MeshAttr::getAxisSize(llvm::StringRef name) const {
  std::optional<int64_t> size = findAxisSize(name);
  assert(size && "axis is not in the mesh");
  return *size;
}

int64_t MeshAttr::getTotalSize() const {
  int64_t total = 1;
  for (MeshAxisAttr axis : getAxes()) total *= axis.getSize();
  return total;
}

int64_t MeshAttr::getDeviceId(int64_t linearIndex) const {
  assert(linearIndex >= 0 && linearIndex < getTotalSize() && "linear index out of range");
  if (getDeviceIds().empty()) return linearIndex;
  return getDeviceIds()[linearIndex];
}

std::optional<int64_t> MeshAttr::findLinearIndex(int64_t deviceId) const {
  llvm::ArrayRef<int64_t> ids = getDeviceIds();
  if (ids.empty()) {
    if (deviceId >= 0 && deviceId < getTotalSize()) return deviceId;
    return std::nullopt;
  }
  const int64_t* it = llvm::find(ids, deviceId);
  if (it == ids.end()) return std::nullopt;
  return it - ids.begin();
}

llvm::SmallVector<int64_t> MeshAttr::getCoordinates(int64_t linearIndex) const {
  llvm::ArrayRef<MeshAxisAttr> axes = getAxes();
  llvm::SmallVector<int64_t> coordinates(axes.size());
  for (int64_t i = static_cast<int64_t>(axes.size()) - 1; i >= 0; --i) {
    coordinates[i] = linearIndex % axes[i].getSize();
    linearIndex /= axes[i].getSize();
  }
  return coordinates;
}

//===------------------------------------------------------------------------------------===//
// AxisRefAttr
//===------------------------------------------------------------------------------------===//

mlir::LogicalResult AxisRefAttr::verify(
    llvm::function_ref<mlir::InFlightDiagnostic()> emitError, llvm::StringRef name,
    int64_t preSize, int64_t subSize) {
  if (name.empty()) return emitError() << "axis name must not be empty";
  if (preSize == 0 && subSize == 0) return mlir::success();
  if (preSize < 1) {
    return emitError() << "sub-axis of \"" << name << "\" must have pre-size at least 1, got "
                       << preSize;
  }
  if (subSize <= 1) {
    return emitError() << "sub-axis of \"" << name << "\" must have size greater than 1, got "
                       << subSize;
  }
  return mlir::success();
}

int64_t AxisRefAttr::getSize(MeshAttr mesh) const {
  return isSubAxis() ? getSubSize() : mesh.getAxisSize(getName());
}

std::pair<int64_t, int64_t> AxisRefAttr::getRange(MeshAttr mesh) const {
  if (isSubAxis()) return {getPreSize(), getPreSize() * getSubSize()};
  return {1, mesh.getAxisSize(getName())};
}

bool AxisRefAttr::overlaps(AxisRefAttr other) const {
  if (getName() != other.getName()) return false;
  if (!isSubAxis() || !other.isSubAxis()) return true;
  return getPreSize() < other.getPreSize() * other.getSubSize() &&
         other.getPreSize() < getPreSize() * getSubSize();
}

bool AxisRefAttr::contains(AxisRefAttr other) const {
  if (getName() != other.getName()) return false;
  if (!isSubAxis()) return true;
  // A verified sub-axis is never the whole axis, so it cannot contain the full axis.
  if (!other.isSubAxis()) return false;
  int64_t begin = getPreSize(), end = getPreSize() * getSubSize();
  int64_t otherBegin = other.getPreSize(), otherEnd = other.getPreSize() * other.getSubSize();
  return begin <= otherBegin && otherEnd <= end && otherBegin % begin == 0 &&
         end % otherEnd == 0;
}

//===------------------------------------------------------------------------------------===//
// DimShardingAttr
//===------------------------------------------------------------------------------------===//

mlir::LogicalResult DimShardingAttr::verify(
    llvm::function_ref<mlir::InFlightDiagnostic()> emitError, llvm::ArrayRef<AxisRefAttr>,
    bool, std::optional<int64_t> priority) {
  if (priority && *priority < 0) {
    return emitError() << "priority must not be negative, got " << *priority;
  }
  return mlir::success();
}

int64_t DimShardingAttr::getNumShards(MeshAttr mesh) const {
  int64_t shards = 1;
  for (AxisRefAttr axis : getAxes()) shards *= axis.getSize(mesh);
  return shards;
}

//===------------------------------------------------------------------------------------===//
// ShardingAttr
//===------------------------------------------------------------------------------------===//

int64_t ShardingAttr::getNumShards(int64_t dim, MeshAttr mesh) const {
  return getDimShardings()[dim].getNumShards(mesh);
}

llvm::SmallVector<int64_t> ShardingAttr::getLocalShape(llvm::ArrayRef<int64_t> globalShape,
                                                       MeshAttr mesh) const {
  assert(static_cast<int64_t>(globalShape.size()) == getRank() && "rank mismatch");
  llvm::SmallVector<int64_t> local(globalShape);
  for (auto [dim, size] : llvm::enumerate(local)) {
    if (mlir::ShapedType::isDynamic(size)) continue;
    int64_t shards = getNumShards(dim, mesh);
    size = (size + shards - 1) / shards;
  }
  return local;
}

bool ShardingAttr::isFullyReplicated() const {
  return getUnreducedAxes().empty() &&
         llvm::all_of(getDimShardings(),
                      [](DimShardingAttr dim) { return dim.getAxes().empty(); });
}

llvm::SmallVector<AxisRefAttr> ShardingAttr::getShardedAxes() const {
  llvm::SmallVector<AxisRefAttr> axes;
  for (DimShardingAttr dim : getDimShardings()) llvm::append_range(axes, dim.getAxes());
  return axes;
}

}  // namespace tessel::ir
