// Layout arithmetic and its conversions to and from the tessel sharding attribute.
#include "partitioner/auto/layout.h"

#include "cost_model/tensor_bytes.h"
#include "llvm/ADT/STLExtras.h"

namespace tessel::auto_sharding {

Layout Layout::replicated(int64_t rank) {
  Layout layout;
  layout.dims.resize(rank);
  return layout;
}

int64_t Layout::shards(int64_t dim, ir::MeshAttr mesh) const {
  int64_t n = 1;
  for (int axis : dims[dim]) n *= mesh.getAxes()[axis].getSize();
  return n;
}

int64_t Layout::totalShards(ir::MeshAttr mesh) const {
  int64_t n = 1;
  for (size_t d = 0; d < dims.size(); ++d) n *= shards(d, mesh);
  return n;
}

int64_t Layout::localElements(mlir::ShapedType type, ir::MeshAttr mesh) const {
  int64_t elements = 1;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    const int64_t n = d < static_cast<int64_t>(dims.size()) ? shards(d, mesh) : 1;
    elements *= (type.getDimSize(d) + n - 1) / n;
  }
  return elements;
}

int64_t Layout::localBytes(mlir::ShapedType type, ir::MeshAttr mesh) const {
  return localElements(type, mesh) * cost_model::ElementBytes(type.getElementType());
}

ir::ShardingAttr Layout::toSharding(mlir::FlatSymbolRefAttr meshName, ir::MeshAttr mesh) const {
  mlir::MLIRContext* context = meshName.getContext();
  llvm::SmallVector<ir::DimShardingAttr> dimShardings;
  for (const auto& axes : dims) {
    llvm::SmallVector<ir::AxisRefAttr> refs;
    for (int axis : axes) {
      refs.push_back(ir::AxisRefAttr::get(context, mesh.getAxes()[axis].getName()));
    }
    dimShardings.push_back(
        ir::DimShardingAttr::get(context, refs, /*is_closed=*/true, std::nullopt));
  }
  return ir::ShardingAttr::get(context, meshName, dimShardings);
}

std::string Layout::toString(ir::MeshAttr mesh) const {
  std::string text = "[";
  for (size_t d = 0; d < dims.size(); ++d) {
    if (d) text += ", ";
    text += "{";
    for (size_t i = 0; i < dims[d].size(); ++i) {
      if (i) text += ", ";
      text += "\"" + mesh.getAxes()[dims[d][i]].getName().str() + "\"";
    }
    text += "}";
  }
  return text + "]";
}

std::optional<Layout> layoutOf(ir::ShardingAttr sharding, ir::MeshAttr mesh) {
  // Axes declared replicated split nothing: the layout is the dimensions' axes alone, and a
  // constraint to it keeps them out as the declaration does. Unreduced axes are a pending
  // sum, which no layout says.
  if (!sharding.getUnreducedAxes().empty()) return std::nullopt;
  Layout layout;
  for (ir::DimShardingAttr dim : sharding.getDimShardings()) {
    auto& axes = layout.dims.emplace_back();
    for (ir::AxisRefAttr ref : dim.getAxes()) {
      if (ref.isSubAxis()) return std::nullopt;
      auto it = llvm::find_if(mesh.getAxes(), [&](ir::MeshAxisAttr axis) {
        return axis.getName() == ref.getName();
      });
      if (it == mesh.getAxes().end()) return std::nullopt;
      axes.push_back(static_cast<int>(it - mesh.getAxes().begin()));
    }
  }
  return layout;
}

}  // namespace tessel::auto_sharding
