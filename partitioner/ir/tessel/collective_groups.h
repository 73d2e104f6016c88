// Device groups of collectives. A collective over mesh axes A groups the devices whose mesh
// coordinates differ only along A; within a group, devices are ordered by their coordinates
// on A, the first listed axis most major. The runtime uses this to find, for each device,
// which group it is in and where in the group it sits.
//
// Example: mesh ["x"=2, "y"=4], the device at linear index 4*x + y.
//   axes ["y"]:        group x, position y.
//   axes ["y", "x"]:   group 0, position 2*y + x.
//   axes ["y":(2)2]:   y = 2*y1 + y2; group 2*x + y1, position y2.
//
//   GroupPosition where = getGroupPosition(mesh, axes, linearIndex);
//   auto groups = getDeviceGroups(mesh, axes);  // groups[where.groupIndex][where.position]
#ifndef TESSEL_PARTITIONER_IR_TESSEL_COLLECTIVE_GROUPS_H_
#define TESSEL_PARTITIONER_IR_TESSEL_COLLECTIVE_GROUPS_H_

#include <cstdint>

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "partitioner/ir/tessel/tessel_ops.h"

namespace tessel::ir {

struct GroupPosition {
  // Which group: devices that agree on every coordinate outside the axes share it. Groups
  // are numbered by those remaining coordinates in mesh order, major to minor.
  int64_t groupIndex;
  // The index within the group: the device's coordinates on the axes as a mixed-radix
  // number, the first axis most major.
  int64_t position;
};

// The number of devices in each group: the product of the axis sizes.
// REQUIRES: verifyAxisRefs(axes, mesh) succeeds.
int64_t getGroupSize(MeshAttr mesh, llvm::ArrayRef<AxisRefAttr> axes);

// Where the device at row-major mesh position `linearIndex` sits.
// REQUIRES: verifyAxisRefs(axes, mesh) succeeds; 0 <= linearIndex < mesh.getTotalSize().
GroupPosition getGroupPosition(MeshAttr mesh, llvm::ArrayRef<AxisRefAttr> axes,
                               int64_t linearIndex);

// The device ids (mesh.getDeviceId, so explicit device_ids apply) of every group, indexed
// [groupIndex][position]. REQUIRES: verifyAxisRefs(axes, mesh) succeeds.
llvm::SmallVector<llvm::SmallVector<int64_t>> getDeviceGroups(
    MeshAttr mesh, llvm::ArrayRef<AxisRefAttr> axes);

}  // namespace tessel::ir

#endif  // TESSEL_PARTITIONER_IR_TESSEL_COLLECTIVE_GROUPS_H_
