// The device count of a module from its meshes (module_devices.h).
#include "partitioner/ir/module_devices.h"

#include <algorithm>

namespace tessel::ir {

int64_t DevicesSpanned(MeshAttr mesh) {
  int64_t spanned = mesh.getTotalSize();
  // Only explicit ids are walked: a mesh without them may be far too large to visit.
  for (int64_t id : mesh.getDeviceIds()) spanned = std::max(spanned, id + 1);
  return spanned;
}

int64_t ModuleDeviceCount(mlir::ModuleOp module) {
  int64_t devices = 1;
  for (MeshOp mesh : module.getOps<MeshOp>()) {
    devices = std::max(devices, DevicesSpanned(mesh.getMesh()));
  }
  return devices;
}

}  // namespace tessel::ir
