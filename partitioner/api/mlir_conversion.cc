// Conversions between the API's value types and the hlo/tessel dialects' types and attributes.
#include "partitioner/api/mlir_conversion.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/raw_ostream.h"
#include "partitioner/api/element_type_conversion.h"
#include "partitioner/ir/tessel/sharding_verification.h"
#include "support/status_macros.h"

namespace tessel::api_internal {
namespace {

std::string MlirToString(mlir::Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  return os.str();
}

std::vector<AxisRef> FromAxisRefs(llvm::ArrayRef<ir::AxisRefAttr> axes) {
  std::vector<AxisRef> refs;
  for (ir::AxisRefAttr axis : axes) {
    refs.push_back(axis.isSubAxis()
                       ? AxisRef::Sub(axis.getName().str(), axis.getPreSize(), axis.getSubSize())
                       : AxisRef(axis.getName().str()));
  }
  return refs;
}

llvm::SmallVector<ir::AxisRefAttr> ToAxisRefs(const std::vector<AxisRef>& refs,
                                              mlir::MLIRContext* context) {
  llvm::SmallVector<ir::AxisRefAttr> axes;
  for (const AxisRef& ref : refs) {
    axes.push_back(ir::AxisRefAttr::get(context, ref.name(), ref.pre_size(), ref.sub_size()));
  }
  return axes;
}

}  // namespace

mlir::RankedTensorType ToMlirType(const TensorType& type, mlir::MLIRContext* context) {
  return mlir::RankedTensorType::get(type.dimensions(),
                                     runtime::ElementTypeToMlir(ToRuntime(type.element_type()), context));
}

absl::StatusOr<TensorType> FromMlirType(mlir::Type type) {
  auto tensor = mlir::dyn_cast<mlir::RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape()) {
    return absl::InvalidArgumentError(
        absl::StrCat("type ", MlirToString(type), " is not a statically shaped tensor"));
  }
  TESSEL_ASSIGN_OR_RETURN(runtime::ElementType element_type,
                          runtime::ElementTypeFromMlir(tensor.getElementType()));
  return TensorType(FromRuntime(element_type),
                    std::vector<int64_t>(tensor.getShape().begin(), tensor.getShape().end()));
}

ir::MeshAttr ToMeshAttr(const Mesh& mesh, mlir::MLIRContext* context) {
  llvm::SmallVector<ir::MeshAxisAttr> axes;
  for (const MeshAxis& axis : mesh.axes()) {
    axes.push_back(ir::MeshAxisAttr::get(context, axis.name, axis.size));
  }
  return ir::MeshAttr::get(context, axes,
                           llvm::ArrayRef<int64_t>(mesh.explicit_device_ids().data(),
                                                   mesh.explicit_device_ids().size()));
}

ir::ShardingAttr ToShardingAttr(const Sharding& sharding, mlir::MLIRContext* context) {
  llvm::SmallVector<ir::DimShardingAttr> dims;
  for (const DimSpec& dim : sharding.spec().dims()) {
    dims.push_back(ir::DimShardingAttr::get(context, ToAxisRefs(dim.axes(), context),
                                            /*is_closed=*/!dim.is_open(), dim.priority()));
  }
  return ir::ShardingAttr::get(context,
                               mlir::FlatSymbolRefAttr::get(context, sharding.mesh().name()), dims,
                               ToAxisRefs(sharding.spec().replicated_axes(), context),
                               ToAxisRefs(sharding.spec().unreduced_axes(), context));
}

absl::StatusOr<Mesh> FromMeshAttr(absl::string_view name, ir::MeshAttr attr) {
  std::vector<MeshAxis> axes;
  for (ir::MeshAxisAttr axis : attr.getAxes()) {
    axes.push_back(MeshAxis{axis.getName().str(), axis.getSize()});
  }
  return Mesh::CreateNamed(
      std::string(name), std::move(axes),
      std::vector<int64_t>(attr.getDeviceIds().begin(), attr.getDeviceIds().end()));
}

absl::StatusOr<Sharding> FromShardingAttr(ir::ShardingAttr attr, const Mesh& mesh) {
  std::vector<DimSpec> dims;
  for (ir::DimShardingAttr dim : attr.getDimShardings()) {
    DimSpec spec = Axes(FromAxisRefs(dim.getAxes()));
    if (!dim.getIsClosed()) spec = spec.Open();
    if (dim.getPriority()) spec = spec.WithPriority(*dim.getPriority());
    dims.push_back(std::move(spec));
  }
  return Sharding::Create(mesh, PartitionSpec(std::move(dims))
                                    .WithReplicated(FromAxisRefs(attr.getReplicatedAxes()))
                                    .WithUnreduced(FromAxisRefs(attr.getUnreducedAxes())));
}

}  // namespace tessel::api_internal
