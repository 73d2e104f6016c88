// Device groups of collectives (see collective_groups.h).
#include "partitioner/ir/tessel/collective_groups.h"

#include "llvm/ADT/STLExtras.h"

namespace tessel::ir {

int64_t getGroupSize(MeshAttr mesh, llvm::ArrayRef<AxisRefAttr> axes) {
  int64_t size = 1;
  for (AxisRefAttr axis : axes) size *= axis.getSize(mesh);
  return size;
}

GroupPosition getGroupPosition(MeshAttr mesh, llvm::ArrayRef<AxisRefAttr> axes,
                               int64_t linearIndex) {
  llvm::SmallVector<int64_t> coordinates = mesh.getCoordinates(linearIndex);
  // The device's coordinate on each listed (sub-)axis.
  llvm::SmallVector<int64_t> listedDigits(axes.size(), 0);
  int64_t groupIndex = 0;
  for (auto [meshAxis, coordinate] : llvm::zip_equal(mesh.getAxes(), coordinates)) {
    int64_t axisSize = meshAxis.getSize();
    // Cut the axis at every boundary of a listed sub-axis. Verified axis lists split it
    // compatibly, so consecutive boundaries divide each other and every piece is either
    // one listed (sub-)axis or a part the group does not span.
    llvm::SmallVector<int64_t> boundaries = {1, axisSize};
    for (AxisRefAttr axis : axes) {
      if (axis.getName() != meshAxis.getName()) continue;
      auto [begin, end] = axis.getRange(mesh);
      boundaries.append({begin, end});
    }
    llvm::sort(boundaries);
    boundaries.erase(std::unique(boundaries.begin(), boundaries.end()), boundaries.end());
    for (size_t i = 0; i + 1 < boundaries.size(); ++i) {
      int64_t begin = boundaries[i], end = boundaries[i + 1];
      int64_t factor = end / begin;
      // Along an axis split major to minor, the piece [begin, end) has stride n / end.
      int64_t digit = (coordinate / (axisSize / end)) % factor;
      // A named copy: C++17 lambdas cannot capture structured bindings (clang rejects it).
      llvm::StringRef meshAxisName = meshAxis.getName();
      const AxisRefAttr* listed = llvm::find_if(axes, [&](AxisRefAttr axis) {
        if (axis.getName() != meshAxisName) return false;
        auto [axisBegin, axisEnd] = axis.getRange(mesh);
        return axisBegin <= begin && end <= axisEnd;
      });
      if (listed == axes.end()) {
        groupIndex = groupIndex * factor + digit;
      } else {
        int64_t& listedDigit = listedDigits[listed - axes.begin()];
        listedDigit = listedDigit * factor + digit;
      }
    }
  }
  int64_t position = 0;
  for (auto [axis, digit] : llvm::zip_equal(axes, listedDigits)) {
    position = position * axis.getSize(mesh) + digit;
  }
  return {groupIndex, position};
}

llvm::SmallVector<llvm::SmallVector<int64_t>> getDeviceGroups(
    MeshAttr mesh, llvm::ArrayRef<AxisRefAttr> axes) {
  int64_t groupSize = getGroupSize(mesh, axes);
  int64_t total = mesh.getTotalSize();
  llvm::SmallVector<llvm::SmallVector<int64_t>> groups(
      total / groupSize, llvm::SmallVector<int64_t>(groupSize, 0));
  for (int64_t linearIndex = 0; linearIndex < total; ++linearIndex) {
    GroupPosition where = getGroupPosition(mesh, axes, linearIndex);
    groups[where.groupIndex][where.position] = mesh.getDeviceId(linearIndex);
  }
  return groups;
}

}  // namespace tessel::ir
