// Local emitters and the window exchange shared by the shape-op handlers (shape_helpers.h).
#include "partitioner/spmd/shape_helpers.h"

#include <algorithm>
#include <vector>

#include "mlir/IR/BuiltinTypes.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/spmd/halo_exchange.h"
#include "partitioner/spmd/plan_cost.h"

namespace tessel::spmd {
namespace {

mlir::RankedTensorType withShape(mlir::Value value, llvm::ArrayRef<int64_t> shape) {
  auto type = llvm::cast<mlir::RankedTensorType>(value.getType());
  return mlir::RankedTensorType::get(shape, type.getElementType());
}

llvm::SmallVector<int64_t> shapeOfValue(mlir::Value value) {
  return llvm::to_vector(llvm::cast<mlir::RankedTensorType>(value.getType()).getShape());
}

}  // namespace

Layout withWholeDims(const Layout& layout, llvm::ArrayRef<int64_t> dims) {
  Layout whole = layout;
  for (int64_t d : dims) whole.dims[d].clear();
  return whole;
}

mlir::Value sliceDim(SpmdBuilder& spmd, mlir::Value value, int64_t dim, int64_t start,
                     int64_t size, mlir::Location loc, int64_t stride) {
  llvm::SmallVector<int64_t> shape = shapeOfValue(value);
  if (start == 0 && size == shape[dim] && stride == 1) return value;
  const int64_t rank = shape.size();
  llvm::SmallVector<int64_t> starts(rank, 0), limits = shape, strides(rank, 1);
  starts[dim] = start;
  limits[dim] = size == 0 ? start : start + (size - 1) * stride + 1;
  strides[dim] = stride;
  shape[dim] = size;
  mlir::OpBuilder& b = spmd.builder();
  return b.create<hlo::SliceOp>(loc, withShape(value, shape), value,
                                b.getDenseI64ArrayAttr(starts), b.getDenseI64ArrayAttr(limits),
                                b.getDenseI64ArrayAttr(strides));
}

mlir::Value keepInRanges(SpmdBuilder& spmd, mlir::Value value, ir::MeshAttr mesh,
                         llvm::ArrayRef<DimRange> ranges, mlir::Value fill, mlir::Location loc) {
  mlir::OpBuilder& b = spmd.builder();
  auto type = llvm::cast<mlir::RankedTensorType>(value.getType());
  auto predType = mlir::RankedTensorType::get(type.getShape(), b.getI1Type());
  auto indexType = mlir::RankedTensorType::get(type.getShape(), b.getI32Type());
  auto compare = [&](mlir::Value lhs, mlir::Value rhs, hlo::ComparisonDirection direction) {
    return b.create<hlo::CompareOp>(loc, predType, lhs, rhs,
                                    hlo::ComparisonDirectionAttr::get(b.getContext(), direction),
                                    nullptr)
        .getResult();
  };
  mlir::Value mask;
  for (const DimRange& range : ranges) {
    mlir::Value iota = b.create<hlo::IotaOp>(loc, indexType, b.getI64IntegerAttr(range.dim));
    for (bool isLow : {true, false}) {
      mlir::Value bound = spmd.lookupPerDevice(mesh, isLow ? range.low : range.high, loc);
      bound = b.create<hlo::BroadcastInDimOp>(loc, indexType, bound, b.getDenseI64ArrayAttr({}));
      mlir::Value inside = compare(iota, bound, isLow ? hlo::ComparisonDirection::GE
                                                      : hlo::ComparisonDirection::LT);
      mask = mask ? b.create<hlo::AndOp>(loc, predType, mask, inside).getResult() : inside;
    }
  }
  if (!mask) return value;
  if (llvm::cast<mlir::RankedTensorType>(fill.getType()).getRank() == 0 && type.getRank() != 0) {
    fill = b.create<hlo::BroadcastInDimOp>(loc, type, fill, b.getDenseI64ArrayAttr({}));
  }
  return b.create<hlo::SelectOp>(loc, type, mask, value, fill);
}

namespace {

// How far the needy shards reach past their own elements.
struct Halo {
  int64_t shards, local;    // n, ceil(D/n)
  int64_t maxLeft = 0, maxRight = 0;
  std::vector<bool> needy;  // per shard index: needs some element
  bool cheap = false;       // by planBytes, against gathering the dimension
};

Halo measure(const Layout& layout, llvm::ArrayRef<int64_t> globalShape, const Window& window,
             int64_t bytes) {
  Halo halo;
  const int64_t size = globalShape[window.dim];
  const int64_t n = layout.numShards(window.dim), s = ceilDiv(size, n);
  halo.shards = n;
  halo.local = s;
  halo.needy.assign(n, false);
  for (int64_t i = 0; i < n; ++i) {
    auto [first, last] = window.needed(i);
    first = std::max<int64_t>(first, 0);
    last = std::min(last, size);
    if (first >= last) continue;
    halo.needy[i] = true;
    halo.maxLeft = std::max(halo.maxLeft, s * i - first);
    halo.maxRight = std::max(halo.maxRight, last - s * (i + 1));
  }
  const int64_t rowBytes = s == 0 ? 0 : bytes / s;
  llvm::SmallVector<PlanStep> steps;
  for (int64_t k = 1; k <= ceilDiv(halo.maxLeft, s); ++k) {
    steps.push_back({PlanStepKind::kCollectivePermute, n,
                     std::min(halo.maxLeft - (k - 1) * s, s) * rowBytes});
  }
  for (int64_t k = 1; k <= ceilDiv(halo.maxRight, s); ++k) {
    steps.push_back({PlanStepKind::kCollectivePermute, n,
                     std::min(halo.maxRight - (k - 1) * s, s) * rowBytes});
  }
  // Ties go to the gather (one collective instead of several) unless one permute does.
  const int64_t haloBytes = planBytes(steps);
  const int64_t gatherBytes = planBytes({{PlanStepKind::kAllGather, n, bytes}});
  halo.cheap = static_cast<int64_t>(steps.size()) < n &&
               (haloBytes < gatherBytes || (haloBytes == gatherBytes && steps.size() <= 1));
  return halo;
}

}  // namespace

bool windowIsCheap(const Layout& layout, llvm::ArrayRef<int64_t> globalShape,
                   const Window& window, mlir::Type localType) {
  return measure(layout, globalShape, window, tensorBytes(localType)).cheap;
}

std::optional<mlir::Value> exchangeWindow(SpmdBuilder& spmd, mlir::Value value,
                                          const Layout& layout,
                                          llvm::ArrayRef<int64_t> globalShape,
                                          const Window& window, mlir::Location loc) {
  if (!measure(layout, globalShape, window, tensorBytes(value.getType())).cheap) {
    return std::nullopt;
  }
  // The exchange itself is the windowed ops' (halo_exchange.h), which takes the window as
  // per-shard ranges relative to each shard's start.
  ShardRanges ranges;
  ranges.dim = window.dim;
  ranges.length = window.length;
  const int64_t n = layout.numShards(window.dim);
  for (int64_t i = 0; i < n; ++i) {
    const int64_t start = window.start(i);
    auto [first, last] = window.needed(i);
    ranges.starts.push_back(start);
    ranges.needBegin.push_back(first - start);
    ranges.needEnd.push_back(std::max(first, last) - start);
  }
  return exchangeHalo(spmd, value, layout, globalShape, ranges, /*fill=*/nullptr, loc);
}

}  // namespace tessel::spmd
