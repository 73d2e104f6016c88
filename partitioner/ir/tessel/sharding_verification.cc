// Checks of shardings and axis lists against their mesh (see sharding_verification.h).
#include "partitioner/ir/tessel/sharding_verification.h"

#include "llvm/ADT/STLExtras.h"

namespace tessel::ir {
namespace {

// Returns a callback that emits through `emitError` and starts the message with `prefix`.
auto withPrefix(EmitErrorFn emitError, const std::string& prefix) {
  return [emitError, prefix]() {
    mlir::InFlightDiagnostic diag = emitError();
    diag << prefix;
    return diag;
  };
}

}  // namespace

std::string axisRefToString(AxisRefAttr axis) {
  std::string text = "\"" + axis.getName().str() + "\"";
  if (axis.isSubAxis()) {
    text += ":(" + std::to_string(axis.getPreSize()) + ")" + std::to_string(axis.getSubSize());
  }
  return text;
}

MeshAttr findMesh(mlir::Operation* from, mlir::FlatSymbolRefAttr meshName) {
  // Meshes usually open the module, so the linear symbol lookup stops early.
  auto meshOp = mlir::SymbolTable::lookupNearestSymbolFrom<MeshOp>(from, meshName);
  return meshOp ? meshOp.getMesh() : MeshAttr();
}

mlir::FailureOr<MeshAttr> lookupMesh(EmitErrorFn emitError, mlir::Operation* from,
                                     mlir::FlatSymbolRefAttr meshName) {
  MeshAttr mesh = findMesh(from, meshName);
  if (!mesh) return emitError() << "unknown mesh " << meshName;
  return mesh;
}

mlir::LogicalResult verifyAxisRef(EmitErrorFn emitError, AxisRefAttr axis, MeshAttr mesh) {
  std::optional<int64_t> axisSize = mesh.findAxisSize(axis.getName());
  if (!axisSize) return emitError() << "axis \"" << axis.getName() << "\" is not in the mesh";
  if (!axis.isSubAxis()) return mlir::success();
  int64_t end = axis.getPreSize() * axis.getSubSize();
  if (*axisSize % end != 0) {
    return emitError() << "sub-axis " << axisRefToString(axis) << ": " << axis.getPreSize()
                       << " * " << axis.getSubSize() << " does not divide the size "
                       << *axisSize << " of axis \"" << axis.getName() << "\"";
  }
  if (axis.getPreSize() == 1 && end == *axisSize) {
    return emitError() << "sub-axis " << axisRefToString(axis) << " is all of axis \""
                       << axis.getName() << "\"; write the axis instead";
  }
  return mlir::success();
}

mlir::LogicalResult verifyAxisRefs(EmitErrorFn emitError, llvm::ArrayRef<AxisRefAttr> axes,
                                   MeshAttr mesh) {
  for (auto [i, axis] : llvm::enumerate(axes)) {
    if (mlir::failed(verifyAxisRef(emitError, axis, mesh))) return mlir::failure();
    for (AxisRefAttr earlier : axes.take_front(i)) {
      if (earlier == axis) {
        return emitError() << "axis " << axisRefToString(axis) << " is used twice";
      }
      if (earlier.overlaps(axis)) {
        return emitError() << "axis " << axisRefToString(earlier) << " overlaps axis "
                           << axisRefToString(axis);
      }
      if (earlier.getName() != axis.getName()) continue;
      // Two disjoint sub-axes of one axis: the later one must start at a multiple of where
      // the earlier one ends, or no split of the axis contains both.
      auto [first, second] = earlier.getPreSize() < axis.getPreSize()
                                 ? std::make_pair(earlier, axis)
                                 : std::make_pair(axis, earlier);
      if (second.getPreSize() % (first.getPreSize() * first.getSubSize()) != 0) {
        return emitError() << "sub-axes " << axisRefToString(earlier) << " and "
                           << axisRefToString(axis) << " do not split axis \""
                           << axis.getName() << "\" compatibly";
      }
    }
  }
  return mlir::success();
}

mlir::LogicalResult verifyShardingForMesh(EmitErrorFn emitError, ShardingAttr sharding,
                                          mlir::Type type, MeshAttr mesh) {
  auto tensorType = llvm::dyn_cast<mlir::RankedTensorType>(type);
  if (!tensorType) return emitError() << "a sharding needs a ranked tensor, got " << type;
  if (sharding.getRank() != tensorType.getRank()) {
    return emitError() << "sharding has rank " << sharding.getRank() << " but type " << type
                       << " has rank " << tensorType.getRank();
  }
  llvm::SmallVector<AxisRefAttr> used = sharding.getShardedAxes();
  llvm::append_range(used, sharding.getReplicatedAxes());
  llvm::append_range(used, sharding.getUnreducedAxes());
  return verifyAxisRefs(emitError, used, mesh);
}

mlir::LogicalResult verifySharding(EmitErrorFn emitError, ShardingAttr sharding,
                                   mlir::Type type, mlir::Operation* from) {
  mlir::FailureOr<MeshAttr> mesh = lookupMesh(emitError, from, sharding.getMeshName());
  if (mlir::failed(mesh)) return mlir::failure();
  return verifyShardingForMesh(emitError, sharding, type, *mesh);
}

mlir::LogicalResult verifyShardingPerValue(EmitErrorFn emitError,
                                           ShardingPerValueAttr shardings,
                                           mlir::TypeRange resultTypes,
                                           mlir::Operation* from) {
  llvm::ArrayRef<ShardingAttr> entries = shardings.getShardings();
  if (entries.size() != resultTypes.size()) {
    return emitError() << "expects " << resultTypes.size()
                       << " shardings (one per result), got " << entries.size();
  }
  for (auto [i, entry] : llvm::enumerate(entries)) {
    auto emitForResult = withPrefix(emitError, "result " + std::to_string(i) + ": ");
    if (mlir::failed(verifySharding(emitForResult, entry, resultTypes[i], from))) {
      return mlir::failure();
    }
  }
  return mlir::success();
}

}  // namespace tessel::ir
