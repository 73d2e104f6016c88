// Conversions between the plain sharding values (Mesh, TensorSharding) and the tessel
// dialect's attributes (#tessel.mesh, #tessel.sharding), for code that has an MLIRContext:
// HLO text import, the CLI, and passes that use the value-level algorithms of conversion.h.
//
//   TESSEL_ASSIGN_OR_RETURN(tessel::ir::ShardingAttr attr, TensorShardingToAttr(&context,
//   sharding)); TensorSharding back = TensorShardingFromAttr(attr);  // == sharding
#ifndef TESSEL_PARTITIONER_SHARDING_MLIR_CONVERSION_H_
#define TESSEL_PARTITIONER_SHARDING_MLIR_CONVERSION_H_

#include "absl/status/statusor.h"
#include "mlir/IR/MLIRContext.h"
#include "partitioner/ir/tessel/tessel_ops.h"
#include "partitioner/sharding/mesh.h"
#include "partitioner/sharding/tensor_sharding.h"

namespace tessel::sharding {

// Errors: the mesh does not validate (the attribute's verifier would reject it).
absl::StatusOr<ir::MeshAttr> MeshToAttr(mlir::MLIRContext* context, const Mesh& mesh);
Mesh MeshFromAttr(ir::MeshAttr mesh);

// Errors: what the attributes reject without a mesh: an empty mesh or axis name, a sub-axis
// with pre-size below 1 or size below 2, a pre-size without a size, a negative priority.
// Checks against the mesh are TensorSharding::Validate's job.
absl::StatusOr<ir::ShardingAttr> TensorShardingToAttr(mlir::MLIRContext* context,
                                                      const TensorSharding& sharding);
TensorSharding TensorShardingFromAttr(ir::ShardingAttr sharding);

}  // namespace tessel::sharding

#endif  // TESSEL_PARTITIONER_SHARDING_MLIR_CONVERSION_H_
