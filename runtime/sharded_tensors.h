// Host-side cutting and assembling of sharded tensors, the counterpart of the partitioner's
// local types: partition p (mesh device p) holds, for every dimension split n ways, the
// piece [i*L, (i+1)*L) with L = ceil(D/n) and i its shard index along that dimension's axes;
// pieces that run past D are padded with zeros. Tests use this to feed a partitioned
// program and to rebuild the global results it computes.
//
//   Tensor local = *ShardTensor(global, sharding, mesh, /*partition=*/3);
//   Tensor whole = *AssembleTensor(per_partition_locals, sharding, mesh, global.shape());
#ifndef TESSEL_RUNTIME_SHARDED_TENSORS_H_
#define TESSEL_RUNTIME_SHARDED_TENSORS_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "mlir/IR/BuiltinOps.h"
#include "partitioner/ir/tessel/tessel_ops.h"
#include "runtime/tensor.h"

namespace tessel::runtime {

// The mesh `sharding` names in `module`, or the module's first mesh for a null sharding (a
// value every device holds whole). Fails on an unknown mesh or a module without meshes.
absl::StatusOr<ir::MeshAttr> MeshOfSharding(mlir::ModuleOp module, ir::ShardingAttr sharding);

// Partition `partition`'s local piece of `global` under `sharding` on `mesh`. A null
// sharding means replicated (the whole tensor). A partition outside a mesh of one device
// (a maximal sharding: the value lives on that device alone) gets zeros of the whole shape,
// so a program that reads the value anywhere but its owner cannot pass a check. With
// unreduced axes (a partial sum over them) the first partition along those axes gets the
// piece and the others zeros, which sum to it. Fails if the sharding's rank differs from
// the tensor's, or the mesh has several devices and not `partition`.
absl::StatusOr<Tensor> ShardTensor(const Tensor& global, ir::ShardingAttr sharding,
                                   ir::MeshAttr mesh, int64_t partition);

// The global tensor of shape `global_shape` rebuilt from `locals[p]`, partition p's piece,
// for every device p of the mesh (partitions outside a one-device mesh are ignored: only
// the owner of a maximal value holds it). Padding is dropped. Every element must be the same in all
// pieces that hold it (replicas must agree): a mismatch fails with FailedPrecondition naming
// the partition, so a partitioned program whose replicas diverge cannot pass as correct.
// With unreduced axes, the partitions at each position along them make one value so, and
// the global tensor is the sum of those values.
absl::StatusOr<Tensor> AssembleTensor(absl::Span<const Tensor> locals, ir::ShardingAttr sharding,
                                      ir::MeshAttr mesh, const Shape& global_shape);

}  // namespace tessel::runtime

#endif  // TESSEL_RUNTIME_SHARDED_TENSORS_H_
