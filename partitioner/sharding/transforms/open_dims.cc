// Reading the unconstrained dimensions of a Sharding call (open_dims.h).
#include "partitioner/sharding/transforms/open_dims.h"

#include <optional>

#include "llvm/ADT/STLExtras.h"
#include "mlir/IR/BuiltinAttributes.h"

namespace tessel::sharding {

namespace {

// The dimension shardings (`{...}` each, in order) of the first value of a Shardy
// annotation `#sdy.sharding_per_value<[<@mesh, [{...}, {...}]...>]>`, and what follows the
// list.
struct ShardyDims {
  llvm::SmallVector<llvm::StringRef> dims;
  llvm::StringRef rest;
};

std::optional<ShardyDims> ReadShardyDims(mlir::Operation* op) {
  auto attrs = op->getAttrOfType<mlir::DictionaryAttr>("tessel.hlo_frontend_attributes");
  auto sdy = attrs ? attrs.getAs<mlir::StringAttr>("xla.sdy.sharding") : nullptr;
  if (!sdy) return std::nullopt;
  llvm::StringRef text = sdy.getValue();
  size_t at = text.find(", [");
  if (at == llvm::StringRef::npos) return std::nullopt;
  llvm::StringRef list = text.drop_front(at + 3);
  ShardyDims result;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < list.size(); ++i) {
    const char c = list[i];
    if (c == ']' && depth == 0) {
      result.rest = list.drop_front(i + 1);
      return result;
    }
    if (c == '{' && depth++ == 0) start = i;
    if (c == '}' && --depth == 0) result.dims.push_back(list.slice(start, i + 1));
  }
  return std::nullopt;
}

}  // namespace

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
  if (std::optional<ShardyDims> sdy = ReadShardyDims(op)) {
    for (auto [dim, text] : llvm::enumerate(sdy->dims)) {
      if (text.contains('?')) open.push_back(static_cast<int64_t>(dim));
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

bool SaysNothing(mlir::Operation* op) {
  std::optional<ShardyDims> sdy = ReadShardyDims(op);
  return sdy && sdy->rest.trim() == ">]>" &&
         llvm::all_of(sdy->dims, [](llvm::StringRef dim) { return dim == "{?}"; });
}

}  // namespace tessel::sharding
