// ShardedValue::halos from the propagated module (see value_halos.h).
#include "partitioner/api/value_halos.h"

#include <cstdint>
#include <utility>

#include "absl/status/statusor.h"
#include "mlir/IR/BuiltinTypes.h"
#include "partitioner/ir/tessel/sharding_verification.h"
#include "partitioner/sharding/mlir_conversion.h"
#include "partitioner/sharding/visualize.h"
#include "partitioner/spmd/halo_uses.h"

namespace tessel::api_internal {

std::vector<HaloUse> HalosOf(mlir::Value value, ir::ShardingAttr sharding,
                             mlir::Operation* scope) {
  std::vector<HaloUse> halos;
  // Without a split there is nothing to exchange; only windowed users matter, so a value
  // without uses costs nothing more.
  auto type = llvm::dyn_cast<mlir::RankedTensorType>(value.getType());
  if (!sharding || value.use_empty() || !type || !type.hasStaticShape()) return halos;
  ir::MeshAttr mesh = ir::findMesh(scope, sharding.getMeshName());
  if (!mesh) return halos;
  absl::StatusOr<sharding::ShardingView> view = sharding::ViewSharding(
      sharding::MeshFromAttr(mesh), sharding::TensorShardingFromAttr(sharding),
      std::vector<int64_t>(type.getShape().begin(), type.getShape().end()));
  if (!view.ok()) return halos;
  for (sharding::HaloUse& use : spmd::HaloUsesOf(value, *view, scope)) {
    HaloUse halo;
    halo.user = std::move(use.user);
    halo.note = std::move(use.note);
    for (sharding::DimHalo& dim : use.dims) {
      halo.dims.push_back({dim.dim, std::move(dim.low), std::move(dim.high)});
    }
    halos.push_back(std::move(halo));
  }
  return halos;
}

}  // namespace tessel::api_internal
