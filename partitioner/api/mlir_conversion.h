// Conversions between the API's value types (TensorType, Mesh, Sharding) and their MLIR
// forms. Internal to partitioner/api: the public headers carry no MLIR types.
#ifndef TESSEL_PARTITIONER_API_MLIR_CONVERSION_H_
#define TESSEL_PARTITIONER_API_MLIR_CONVERSION_H_

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "llvm/ADT/StringRef.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"
#include "partitioner/api/mesh.h"
#include "partitioner/api/sharding.h"
#include "partitioner/api/tensor_type.h"
#include "partitioner/ir/tessel/tessel_ops.h"

namespace tessel::api_internal {

// The installed Abseil's string_view is its own type, not std::string_view.
inline llvm::StringRef ToStringRef(absl::string_view text) {
  return llvm::StringRef(text.data(), text.size());
}

mlir::RankedTensorType ToMlirType(const TensorType& type, mlir::MLIRContext* context);

// Fails with InvalidArgument for anything but a statically shaped tensor of an ElementType.
absl::StatusOr<TensorType> FromMlirType(mlir::Type type);

ir::MeshAttr ToMeshAttr(const Mesh& mesh, mlir::MLIRContext* context);
ir::ShardingAttr ToShardingAttr(const Sharding& sharding, mlir::MLIRContext* context);

// The mesh declared by `tessel.mesh @<name> = <attr>`.
absl::StatusOr<Mesh> FromMeshAttr(absl::string_view name, ir::MeshAttr attr);

// The sharding `attr` denotes on `mesh` (the mesh its symbol names), sub-axes included.
// Fails with InvalidArgument if it does not fit the mesh (Sharding::Create).
absl::StatusOr<Sharding> FromShardingAttr(ir::ShardingAttr attr, const Mesh& mesh);

}  // namespace tessel::api_internal

#endif  // TESSEL_PARTITIONER_API_MLIR_CONVERSION_H_
