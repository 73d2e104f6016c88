// Registration of the sharding layer's passes and of the dialects their input uses.
#include "partitioner/sharding/transforms/passes.h"

#include "mlir/Dialect/Mesh/IR/MeshDialect.h"

namespace tessel::sharding {

void registerShardingPassesAndDialects(mlir::DialectRegistry& registry) {
  registerTesselShardingPasses();
  registry.insert<mlir::mesh::MeshDialect>();
}

}  // namespace tessel::sharding
