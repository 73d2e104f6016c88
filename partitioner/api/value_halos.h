// Internal to partitioner/api: the halos recorded in ShardedValue::halos, worked out on the
// propagated module by the same code `tessel viz` uses (partitioner/spmd/halo_uses.h).
#ifndef TESSEL_PARTITIONER_API_VALUE_HALOS_H_
#define TESSEL_PARTITIONER_API_VALUE_HALOS_H_

#include <vector>

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "partitioner/api/partition.h"
#include "partitioner/ir/tessel/tessel_ops.h"

namespace tessel::api_internal {

// The windowed ops reading `value` (sharded as `sharding`, a null attribute for none) along
// split window dimensions and their halos; empty when there are none or the value has no
// sharding. `scope` finds the meshes.
std::vector<HaloUse> HalosOf(mlir::Value value, ir::ShardingAttr sharding,
                             mlir::Operation* scope);

}  // namespace tessel::api_internal

#endif  // TESSEL_PARTITIONER_API_VALUE_HALOS_H_
