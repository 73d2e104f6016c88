// --tessel-import-mesh: upstream MLIR `mesh` annotations (mesh.mesh, mesh.shard) become
// tessel meshes, argument shardings and sharding constraints (see passes.td).
#include <string>
#include <utility>

#include "llvm/ADT/STLExtras.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Mesh/IR/MeshDialect.h"
#include "mlir/Dialect/Mesh/IR/MeshOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/SymbolTable.h"
#include "partitioner/sharding/transforms/passes.h"

namespace tessel::sharding {

#define GEN_PASS_DEF_IMPORTMESHPASS
#include "partitioner/sharding/transforms/passes.h.inc"

namespace {

// The tessel name of axis `index` of an upstream mesh, which has no axis names.
std::string AxisName(int64_t index) { return "axis_" + std::to_string(index); }

// The tessel mesh of `mesh`, or a diagnostic at it when a size is dynamic.
mlir::FailureOr<ir::MeshAttr> ConvertMesh(mlir::mesh::MeshOp mesh) {
  mlir::MLIRContext* context = mesh.getContext();
  llvm::SmallVector<ir::MeshAxisAttr> axes;
  for (auto [index, size] : llvm::enumerate(mesh.getShape())) {
    if (mlir::ShapedType::isDynamic(size)) {
      return mesh.emitOpError() << "has a dynamic size on axis " << index
                                << "; tessel meshes need static sizes";
    }
    axes.push_back(ir::MeshAxisAttr::get(context, AxisName(index), size));
  }
  return ir::MeshAttr::get(context, axes, {});
}

// The tessel form of the sharding of `shard`, or a diagnostic at it.
mlir::FailureOr<ir::ShardingAttr> ConvertSharding(mlir::mesh::ShardOp shard) {
  mlir::MLIRContext* context = shard.getContext();
  mlir::mesh::MeshShardingAttr sharding = shard.getShard();
  auto mesh =
      mlir::SymbolTable::lookupNearestSymbolFrom<mlir::mesh::MeshOp>(shard, sharding.getMesh());
  if (!mesh) return shard.emitOpError() << "refers to unknown mesh " << sharding.getMesh();
  const int64_t mesh_rank = mesh.getRank();
  auto convertAxis = [&](int64_t axis) -> mlir::FailureOr<ir::AxisRefAttr> {
    if (axis < 0 || axis >= mesh_rank) {
      return shard.emitOpError() << "uses axis " << axis << " of mesh " << sharding.getMesh()
                                 << ", which has " << mesh_rank << " axes";
    }
    return ir::AxisRefAttr::get(context, AxisName(axis));
  };

  const int64_t rank = shard.getResult().getType().getRank();
  llvm::ArrayRef<mlir::mesh::MeshAxesAttr> split_axes = sharding.getSplitAxes();
  // Upstream writes at least one (possibly empty) list, even for a scalar: only a list that
  // splits something past the last dimension is an error.
  for (int64_t dim = rank; dim < static_cast<int64_t>(split_axes.size()); ++dim) {
    if (!split_axes[dim].empty()) {
      return shard.emitOpError() << "splits dimension " << dim << " but the tensor has rank "
                                 << rank;
    }
  }
  llvm::SmallVector<ir::DimShardingAttr> dims;
  for (int64_t dim = 0; dim < rank; ++dim) {
    llvm::SmallVector<ir::AxisRefAttr> axes;
    if (dim < static_cast<int64_t>(split_axes.size())) {
      for (int16_t axis : split_axes[dim].asArrayRef()) {
        mlir::FailureOr<ir::AxisRefAttr> ref = convertAxis(axis);
        if (mlir::failed(ref)) return mlir::failure();
        axes.push_back(*ref);
      }
    }
    // Upstream shardings are final: nothing may be added to them.
    dims.push_back(ir::DimShardingAttr::get(context, axes, /*is_closed=*/true, std::nullopt));
  }
  llvm::SmallVector<ir::AxisRefAttr> unreduced;
  if (!sharding.getPartialAxes().empty()) {
    if (sharding.getPartialType() != mlir::mesh::ReductionKind::Sum) {
      return shard.emitOpError()
             << "has partial reduction '"
             << mlir::mesh::stringifyReductionKind(sharding.getPartialType())
             << "', which has no tessel form: tessel's unreduced axes are partial sums";
    }
    for (int16_t axis : sharding.getPartialAxes()) {
      mlir::FailureOr<ir::AxisRefAttr> ref = convertAxis(axis);
      if (mlir::failed(ref)) return mlir::failure();
      unreduced.push_back(*ref);
    }
  }
  return ir::ShardingAttr::get(context, mlir::FlatSymbolRefAttr::get(sharding.getMesh().getAttr()),
                               dims, llvm::ArrayRef<ir::AxisRefAttr>(), unreduced);
}

// Whether `shard` annotates an entry argument of a function that has no sharding yet, so the
// annotation can move onto the argument itself.
bool AnnotatesBareFunctionArgument(mlir::mesh::ShardOp shard) {
  if (shard.getAnnotateForUsers()) return false;
  auto argument = llvm::dyn_cast<mlir::BlockArgument>(shard.getSrc());
  if (!argument) return false;
  auto function = llvm::dyn_cast<mlir::func::FuncOp>(argument.getOwner()->getParentOp());
  if (!function || argument.getOwner() != &function.getBody().front()) return false;
  return !function.getArgAttr(argument.getArgNumber(), ir::TesselDialect::kShardingAttrName);
}

struct ImportMeshPass : public impl::ImportMeshPassBase<ImportMeshPass> {
  void runOnOperation() override {
    mlir::ModuleOp module = getOperation();
    // Check everything before changing anything, so a failure leaves the input as it was
    // and reports every problem at once.
    bool failed = false;
    llvm::SmallVector<std::pair<mlir::mesh::MeshOp, ir::MeshAttr>> meshes;
    llvm::SmallVector<std::pair<mlir::mesh::ShardOp, ir::ShardingAttr>> shards;
    module.walk([&](mlir::Operation* op) {
      if (!llvm::isa<mlir::mesh::MeshDialect>(op->getDialect())) return;
      if (auto mesh = llvm::dyn_cast<mlir::mesh::MeshOp>(op)) {
        mlir::FailureOr<ir::MeshAttr> converted = ConvertMesh(mesh);
        if (mlir::failed(converted)) {
          failed = true;
        } else {
          meshes.push_back({mesh, *converted});
        }
      } else if (auto shard = llvm::dyn_cast<mlir::mesh::ShardOp>(op)) {
        mlir::FailureOr<ir::ShardingAttr> converted = ConvertSharding(shard);
        if (mlir::failed(converted)) {
          failed = true;
        } else {
          shards.push_back({shard, *converted});
        }
      } else {
        op->emitOpError() << "has no tessel form; --tessel-import-mesh imports only mesh.mesh "
                             "and mesh.shard annotations, not partitioned IR";
        failed = true;
      }
    });
    if (failed) return signalPassFailure();

    for (auto [mesh, attr] : meshes) {
      // Both ops hold the symbol for a moment; nothing verifies in between.
      mlir::OpBuilder builder(mesh);
      builder.create<ir::MeshOp>(mesh.getLoc(), mesh.getSymName(), attr);
      mesh.erase();
    }
    for (auto [shard, attr] : shards) {
      mlir::Value source = shard.getSrc();
      if (AnnotatesBareFunctionArgument(shard)) {
        auto argument = llvm::cast<mlir::BlockArgument>(source);
        auto function = llvm::cast<mlir::func::FuncOp>(argument.getOwner()->getParentOp());
        function.setArgAttr(argument.getArgNumber(), ir::TesselDialect::kShardingAttrName, attr);
        shard.getResult().replaceAllUsesWith(source);
      } else {
        mlir::OpBuilder builder(shard);
        auto constraint = builder.create<ir::ShardingConstraintOp>(
            shard.getLoc(), shard.getResult().getType(), source, attr);
        shard.getResult().replaceAllUsesWith(constraint.getResult());
      }
      shard.erase();
    }
  }
};

}  // namespace
}  // namespace tessel::sharding
