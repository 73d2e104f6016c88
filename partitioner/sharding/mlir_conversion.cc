// Conversions between sharding values and tessel attributes (see mlir_conversion.h).
#include "partitioner/sharding/mlir_conversion.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "mlir/IR/BuiltinAttributes.h"

namespace tessel::sharding {
namespace {

absl::StatusOr<ir::AxisRefAttr> AxisRefToAttr(mlir::MLIRContext* context, const AxisRef& axis) {
  if (axis.name.empty()) return absl::InvalidArgumentError("axis name must not be empty");
  if (axis.IsSubAxis() && (axis.pre_size < 1 || axis.size < 2)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "sub-axis ", axis.ToString(), " needs a pre-size of at least 1 and a size of at least 2"));
  }
  if (!axis.IsSubAxis() && axis.pre_size != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("axis \"", axis.name, "\" has a pre-size but no sub-axis size"));
  }
  return ir::AxisRefAttr::get(context, axis.name, axis.pre_size, axis.size);
}

absl::StatusOr<llvm::SmallVector<ir::AxisRefAttr>> AxisRefsToAttrs(
    mlir::MLIRContext* context, const std::vector<AxisRef>& axes) {
  llvm::SmallVector<ir::AxisRefAttr> attrs;
  for (const AxisRef& axis : axes) {
    absl::StatusOr<ir::AxisRefAttr> attr = AxisRefToAttr(context, axis);
    if (!attr.ok()) return attr.status();
    attrs.push_back(*attr);
  }
  return attrs;
}

std::vector<AxisRef> AxisRefsFromAttrs(llvm::ArrayRef<ir::AxisRefAttr> attrs) {
  std::vector<AxisRef> axes;
  for (ir::AxisRefAttr attr : attrs) {
    axes.push_back(AxisRef(attr.getName().str(), attr.getPreSize(), attr.getSubSize()));
  }
  return axes;
}

}  // namespace

absl::StatusOr<ir::MeshAttr> MeshToAttr(mlir::MLIRContext* context, const Mesh& mesh) {
  absl::Status status = mesh.Validate();
  if (!status.ok()) return status;
  llvm::SmallVector<ir::MeshAxisAttr> axes;
  for (const MeshAxis& axis : mesh.axes) {
    axes.push_back(ir::MeshAxisAttr::get(context, axis.name, axis.size));
  }
  return ir::MeshAttr::get(context, axes, mesh.device_ids);
}

Mesh MeshFromAttr(ir::MeshAttr mesh) {
  Mesh result;
  for (ir::MeshAxisAttr axis : mesh.getAxes()) {
    result.axes.push_back({axis.getName().str(), axis.getSize()});
  }
  result.device_ids.assign(mesh.getDeviceIds().begin(), mesh.getDeviceIds().end());
  return result;
}

absl::StatusOr<ir::ShardingAttr> TensorShardingToAttr(mlir::MLIRContext* context,
                                                      const TensorSharding& sharding) {
  if (sharding.mesh_name.empty()) return absl::InvalidArgumentError("mesh name must not be empty");
  llvm::SmallVector<ir::DimShardingAttr> dims;
  for (const DimSharding& dim : sharding.dims) {
    if (dim.priority && *dim.priority < 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("priority must not be negative, got ", *dim.priority));
    }
    absl::StatusOr<llvm::SmallVector<ir::AxisRefAttr>> axes = AxisRefsToAttrs(context, dim.axes);
    if (!axes.ok()) return axes.status();
    dims.push_back(ir::DimShardingAttr::get(context, *axes, dim.is_closed, dim.priority));
  }
  absl::StatusOr<llvm::SmallVector<ir::AxisRefAttr>> replicated =
      AxisRefsToAttrs(context, sharding.replicated_axes);
  if (!replicated.ok()) return replicated.status();
  absl::StatusOr<llvm::SmallVector<ir::AxisRefAttr>> unreduced =
      AxisRefsToAttrs(context, sharding.unreduced_axes);
  if (!unreduced.ok()) return unreduced.status();
  return ir::ShardingAttr::get(context, mlir::FlatSymbolRefAttr::get(context, sharding.mesh_name),
                               dims, *replicated, *unreduced);
}

TensorSharding TensorShardingFromAttr(ir::ShardingAttr sharding) {
  TensorSharding result;
  result.mesh_name = sharding.getMeshName().getValue().str();
  for (ir::DimShardingAttr dim : sharding.getDimShardings()) {
    result.dims.push_back(
        DimSharding(AxisRefsFromAttrs(dim.getAxes()), dim.getIsClosed(), dim.getPriority()));
  }
  result.replicated_axes = AxisRefsFromAttrs(sharding.getReplicatedAxes());
  result.unreduced_axes = AxisRefsFromAttrs(sharding.getUnreducedAxes());
  return result;
}

}  // namespace tessel::sharding
