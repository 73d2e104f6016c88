// How many devices a module's program runs on, read from its meshes. A module may hold
// several meshes over the same devices (a device order per mesh) and one-device meshes
// for values placed on a single device (`{maximal device=3}`); all of them index one set
// of devices, numbered from 0.
#ifndef TESSEL_PARTITIONER_IR_MODULE_DEVICES_H_
#define TESSEL_PARTITIONER_IR_MODULE_DEVICES_H_

#include <cstdint>

#include "mlir/IR/BuiltinOps.h"
#include "partitioner/ir/tessel/tessel_ops.h"

namespace tessel::ir {

// The devices `mesh` uses: its size, or one past its largest explicit device id.
int64_t DevicesSpanned(MeshAttr mesh);

// The devices the module runs on: the most any of its meshes spans; 1 without meshes.
int64_t ModuleDeviceCount(mlir::ModuleOp module);

}  // namespace tessel::ir

#endif  // TESSEL_PARTITIONER_IR_MODULE_DEVICES_H_
