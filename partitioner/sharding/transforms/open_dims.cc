// Reading the unconstrained dimensions of a Sharding call (open_dims.h).
#include "partitioner/sharding/transforms/open_dims.h"

#include "mlir/IR/BuiltinAttributes.h"

namespace tessel::sharding {

llvm::SmallVector<int64_t> OpenDims(mlir::Operation* op) {
  llvm::SmallVector<int64_t> open;
  if (auto config = op->getAttrOfType<mlir::StringAttr>("backend_config")) {
    llvm::StringRef text = config.getValue();
    size_t at = text.find("unspecified_dims=[");
    if (at != llvm::StringRef::npos) {
      llvm::StringRef list = text.drop_front(at + 18).split(']').first;
      llvm::SmallVector<llvm::StringRef> parts;
      list.split(parts, ',', -1, /*KeepEmpty=*/false);
      for (llvm::StringRef part : parts) {
        int64_t dim = 0;
        if (!part.trim().getAsInteger(10, dim)) open.push_back(dim);
      }
    }
  }
  auto attrs = op->getAttrOfType<mlir::DictionaryAttr>("tessel.hlo_frontend_attributes");
  auto sdy = attrs ? attrs.getAs<mlir::StringAttr>("xla.sdy.sharding") : nullptr;
  if (sdy) {
    // The dimension list of the first (only) value: `[<@mesh, [{...}, {...}]...`.
    llvm::StringRef text = sdy.getValue();
    size_t at = text.find(", [");
    if (at != llvm::StringRef::npos) {
      int depth = 0;
      int64_t dim = 0;
      bool sawOpen = false;
      for (char c : text.drop_front(at + 3)) {
        if (c == ']' && depth == 0) break;
        if (c == '{') ++depth;
        if (c == '?' && depth == 1) sawOpen = true;
        if (c == '}' && --depth == 0) {
          if (sawOpen) open.push_back(dim);
          sawOpen = false;
          ++dim;
        }
      }
    }
  }
  return open;
}

ir::ShardingAttr OpenUp(ir::ShardingAttr sharding, llvm::ArrayRef<int64_t> open) {
  llvm::SmallVector<ir::DimShardingAttr> dims(sharding.getDimShardings());
  for (int64_t dim : open) {
    if (dim < 0 || dim >= static_cast<int64_t>(dims.size())) continue;
    dims[dim] = ir::DimShardingAttr::get(sharding.getContext(), dims[dim].getAxes(),
                                         /*is_closed=*/false, dims[dim].getPriority());
  }
  return ir::ShardingAttr::get(sharding.getContext(), sharding.getMeshName(), dims,
                               sharding.getReplicatedAxes(), sharding.getUnreducedAxes());
}

}  // namespace tessel::sharding
