// hlo.select_and_scatter split along its windowed dimensions. The result is split like the
// operand and the source like it too (over the same axes per dimension). Windows overlap
// shard boundaries, so instead of sending scattered values back, each shard recomputes
// every window that touches a position it owns: along a split dimension with a
// non-trivial window, shard i owns [i*s, (i+1)*s) and needs windows
//   [max(0, ceil((i*s + lo - w + 1) / t)), min(W - 1, floor((min((i+1)*s, D) - 1 + lo) / t))]
// — the same number M on every shard (extended by windows that touch nothing it owns) —
// and so the source rows of those windows and the operand range they read, both fetched
// with halo exchanges. Windows are then complete, their selections exact, and every
// scatter into an owned position is done by the owner, so any scatter region works.
//
// Padding is never selected, so it cannot be masked with a value: the part of a shard's
// operand range outside [0, D) becomes the local op's own padding instead. Shards differ
// in that amount only near the edges; each distinct combination is one branch of an
// hlo.case indexed by a partition_id table (one branch, and no case, when all agree).
// Finally each shard cuts its own positions out of its local result, where positions no
// window touched hold the init value.
#include <algorithm>
#include <map>
#include <vector>

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/IRMapping.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/spmd/halo_exchange.h"
#include "partitioner/spmd/partition_state.h"

namespace tessel::spmd {
namespace {

// At most this many local variants (hlo.case branches) before the op takes the fallback.
constexpr int64_t kMaxVariants = 8;

// The plan for one split, windowed dimension.
struct DimPlan {
  int64_t dim = 0;
  ShardRanges operand;  // the operand range each shard's windows read
  ShardRanges source;   // the source rows of those windows
  // Per shard index: which of `paddings` its windows see.
  llvm::SmallVector<int64_t> variant;
  llvm::SmallVector<std::pair<int64_t, int64_t>> paddings;
  // Where each shard's own positions start in its operand range, and the init padding
  // that keeps them inside.
  llvm::SmallVector<int64_t> ownOffset;
  int64_t initLow = 0, initHigh = 0;
};

DimPlan planDim(int64_t dim, int64_t n, int64_t size, int64_t windows, const WindowDim& window) {
  const int64_t s = (size + n - 1) / n, t = window.stride, w = window.size;
  const int64_t lo = window.padLow;
  DimPlan plan;
  plan.dim = dim;
  llvm::SmallVector<int64_t> first(n), last(n);
  int64_t count = 1;
  for (int64_t i = 0; i < n; ++i) {
    first[i] = std::max<int64_t>(0, ceilDiv(i * s + lo - w + 1, t));
    last[i] = std::min(windows - 1, floorDiv(std::min((i + 1) * s, size) - 1 + lo, t));
    if (i * s >= size) last[i] = first[i] - 1;  // owns nothing
    count = std::max(count, last[i] - first[i] + 1);
  }
  count = std::min(count, windows);
  const int64_t length = (count - 1) * t + w;
  plan.operand.dim = plan.source.dim = dim;
  plan.operand.length = length;
  plan.source.length = count;
  std::map<std::pair<int64_t, int64_t>, int64_t> seen;
  for (int64_t i = 0; i < n; ++i) {
    const bool needed = first[i] <= last[i];
    const int64_t start = std::clamp<int64_t>(first[i], 0, windows - count);
    plan.source.starts.push_back(start);
    plan.source.needBegin.push_back(needed ? first[i] - start : 0);
    plan.source.needEnd.push_back(needed ? last[i] - start + 1 : 0);
    const int64_t a = start * t - lo;
    plan.operand.starts.push_back(a);
    plan.operand.needBegin.push_back(needed ? (first[i] - start) * t : 0);
    plan.operand.needEnd.push_back(needed ? (last[i] - start) * t + w : 0);
    plan.ownOffset.push_back(i * s - a);
    int64_t variant = 0;
    if (needed) {
      std::pair<int64_t, int64_t> padding = {std::clamp<int64_t>(-a, 0, length),
                                             std::clamp<int64_t>(a + length - size, 0, length)};
      auto [it, inserted] = seen.emplace(padding, plan.paddings.size());
      if (inserted) plan.paddings.push_back(padding);
      variant = it->second;
    }
    if (i * s < size) {
      // Owned positions outside the range were touched by no window: they read init.
      plan.initLow = std::max(plan.initLow, a - i * s);
      plan.initHigh = std::max(plan.initHigh, i * s + s - a - length);
    }
    plan.variant.push_back(variant);
  }
  if (plan.paddings.empty()) plan.paddings.push_back({0, 0});
  for (int64_t i = 0; i < n; ++i) {
    plan.ownOffset[i] = std::clamp<int64_t>(plan.ownOffset[i] + plan.initLow, 0,
                                            plan.initLow + length + plan.initHigh - s);
  }
  return plan;
}

}  // namespace

ShardRanges selectAndScatterOperandRanges(int64_t dim, int64_t n, int64_t size,
                                          int64_t windows, const WindowDim& window) {
  return planDim(dim, n, size, windows, window).operand;
}

mlir::FailureOr<bool> partitionSelectAndScatter(mlir::Operation* op, PartitionState& state) {
  auto selectAndScatter = llvm::dyn_cast<hlo::SelectAndScatterOp>(op);
  if (!selectAndScatter) return false;
  mlir::OpResult result = op->getResult(0);
  Layout out = state.annotatedLayout(result);
  if (!out.mesh || !out.unreduced.empty()) return false;
  llvm::ArrayRef<int64_t> shape = state.local(selectAndScatter.getOperand()).shape;
  llvm::ArrayRef<int64_t> sourceShape = state.local(selectAndScatter.getSource()).shape;
  llvm::SmallVector<WindowDim> window =
      windowDims(selectAndScatter.getWindowDimensions(), selectAndScatter.getWindowStrides(),
                 std::nullopt, std::nullopt, selectAndScatter.getPadding());

  // Plan every split windowed dimension before emitting anything, so a decline is clean.
  std::vector<DimPlan> plans;
  int64_t variants = 1;
  for (int64_t d = 0; d < out.rank(); ++d) {
    const int64_t n = out.numShards(d);
    if (n == 1 || window[d].isTrivial()) continue;
    if (sourceShape[d] == 0 || shape[d] == 0) return false;
    plans.push_back(planDim(d, n, shape[d], sourceShape[d], window[d]));
    variants *= plans.back().paddings.size();
    if (variants > kMaxVariants) return false;
  }

  mlir::Location loc = op->getLoc();
  SpmdBuilder& spmd = state.spmd();
  mlir::OpBuilder& builder = spmd.builder();
  mlir::FailureOr<mlir::Value> operand = state.localAs(selectAndScatter.getOperand(), out, loc);
  if (mlir::failed(operand)) return mlir::failure();
  mlir::FailureOr<mlir::Value> source = state.localAs(selectAndScatter.getSource(), out, loc);
  if (mlir::failed(source)) return mlir::failure();
  mlir::FailureOr<mlir::Value> init = state.localAs(
      selectAndScatter.getInitValue(), Layout::replicated(out.mesh, out.meshName, 0), loc);
  if (mlir::failed(init)) return mlir::failure();
  for (const DimPlan& plan : plans) {
    *operand = exchangeHalo(spmd, *operand, out, shape, plan.operand, nullptr, loc);
    *source = exchangeHalo(spmd, *source, out, sourceShape, plan.source, nullptr, loc);
  }

  // One local select_and_scatter per combination of paddings: it sees only the in-range
  // part of the operand range, the rest as its padding, and its result is padded back.
  auto emitVariant = [&](int64_t index) {
    llvm::SmallVector<WindowDim> localWindow = window;
    mlir::Value localOperand = *operand;
    for (const DimPlan& plan : plans) {
      auto [low, high] = plan.paddings[index % plan.paddings.size()];
      index /= plan.paddings.size();
      localOperand =
          sliceAlong(builder, localOperand, plan.dim, low, plan.operand.length - high, loc);
      localWindow[plan.dim].padLow = low;
      localWindow[plan.dim].padHigh = high;
    }
    // The operands are set one by one, not mapped: one value may be both operand and
    // source (or init), and a mapping would give both uses the same local value.
    mlir::IRMapping mapping;
    auto local = llvm::cast<hlo::SelectAndScatterOp>(builder.clone(*op, mapping));
    local.getOperandMutable().assign(localOperand);
    local.getSourceMutable().assign(*source);
    local.getInitValueMutable().assign(*init);
    local->walk([](mlir::Operation* nested) {
      nested->removeAttr(ir::TesselDialect::kShardingAttrName);
    });
    local->getResult(0).setType(localOperand.getType());
    if (!plans.empty()) local.setPaddingAttr(paddingAttr(op->getContext(), localWindow));
    mlir::Value value = local.getResult();
    for (const DimPlan& plan : plans) {
      value = padAlong(builder, value, *init, plan.dim, localWindow[plan.dim].padLow,
                       localWindow[plan.dim].padHigh, 0, loc);
    }
    return value;
  };
  mlir::Value value;
  if (variants == 1) {
    value = emitVariant(0);
  } else {
    mlir::Value index = spmd.lookupPerDevice(
        out.mesh,
        [&](int64_t linear) {
          int64_t combined = 0, radix = 1;
          for (const DimPlan& plan : plans) {
            combined += radix * plan.variant[out.shardIndex(plan.dim, linear)];
            radix *= plan.paddings.size();
          }
          return combined;
        },
        loc);
    auto caseOp = builder.create<hlo::CaseOp>(loc, mlir::TypeRange{operand->getType()}, index,
                                              static_cast<unsigned>(variants));
    for (int64_t k = 0; k < variants; ++k) {
      mlir::OpBuilder::InsertionGuard guard(builder);
      builder.createBlock(&caseOp.getBranches()[k]);
      builder.create<hlo::ReturnOp>(loc, mlir::ValueRange{emitVariant(k)});
    }
    value = caseOp.getResult(0);
  }
  for (const DimPlan& plan : plans) {
    value = padAlong(builder, value, *init, plan.dim, plan.initLow, plan.initHigh, 0, loc);
    value = sliceAtShardOffsets(spmd, value, out, plan.dim, plan.dim, plan.ownOffset,
                                out.localShape(shape)[plan.dim], loc);
  }
  state.define(result, value, out, shape);
  return true;
}

}  // namespace tessel::spmd
