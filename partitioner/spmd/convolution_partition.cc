// hlo.convolution split along any of its dimensions at once:
//   - output batch: the input batch is split alike (pure pass-through);
//   - output feature: the kernel's output features are split alike; with feature groups
//     (or batch groups) the split must hand whole groups to each shard, and the input's
//     features (or batch) are split alike, the local conv having groups / n groups;
//   - input feature (a split the operands bring, feature and batch groups 1): each shard
//     convolves its features, the padding of uneven splits zeroed in both operands, and the
//     partial sums are all-reduced when the result is resharded to its layout;
//   - output spatial dimensions: the input is split alike and each shard fetches the halo
//     its windows read from its neighbours (halo_exchange.h), the op's padding and lhs
//     dilation applied on the way, so the local conv runs without them along that
//     dimension. The kernel is replicated along its spatial dimensions.
//   - kernel spatial dimensions, where the output's is whole (a kernel gradient: the
//     "kernel" is an activation gradient as large as the input): each shard takes its
//     slice of kernel positions and the input rows those positions read for every output
//     position (its own rows plus halos from its neighbours, the op's padding as zeros),
//     convolves them, and the partial sums are all-reduced with the result's reshard.
//     Stride, dilations 1 along that dimension.
// Other shardings (a split output batch with batch groups, groups that do not divide by the
// shard count) are declined and take the fallback.
#include <optional>
#include <string>

#include "llvm/Support/raw_ostream.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/IRMapping.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/ir/tessel/collective_groups.h"
#include "partitioner/spmd/halo_exchange.h"
#include "partitioner/spmd/partition_state.h"
#include "partitioner/spmd/strategy_choice.h"

namespace tessel::spmd {
namespace {

bool overlapsAny(llvm::ArrayRef<ir::AxisRefAttr> axes, const Layout& layout) {
  for (const AxisList& dim : layout.dims) {
    if (anyOverlap(axes, dim)) return true;
  }
  return false;
}

// The axes a split input feature dimension brings (from the lhs, else the rhs), if they
// do not collide with the output's axes.
AxisList inputFeatureAxes(const PartitionState& state, hlo::ConvolutionOp conv,
                          const Layout& out) {
  hlo::ConvDimensionNumbersAttr dims = conv.getDimensionNumbers();
  const std::pair<mlir::Value, int64_t> candidates[] = {
      {conv.getLhs(), dims.getInputFeatureDimension()},
      {conv.getRhs(), dims.getKernelInputFeatureDimension()}};
  for (auto [value, dim] : candidates) {
    const Layout& layout = state.local(value).layout;
    if (layout.meshName != out.meshName || layout.dims[dim].empty()) continue;
    if (overlapsAny(layout.dims[dim], out)) continue;
    return layout.dims[dim];
  }
  return {};
}


struct EmittedConvolution {
  mlir::Value value;  // the local result, in the layout wanted
  int64_t devices;    // how many devices share the work
};

// The convolution computed in layout `out` (before its partial sums are reduced) and
// resharded to `wanted`; none where `out` cannot be computed this way.
mlir::FailureOr<std::optional<EmittedConvolution>> emitConvolution(hlo::ConvolutionOp conv,
                                                                  PartitionState& state,
                                                                  const Layout& out,
                                                                  const Layout& wanted) {
  const std::optional<EmittedConvolution> declined;
  mlir::OpResult result = conv->getResult(0);
  hlo::ConvDimensionNumbersAttr dims = conv.getDimensionNumbers();
  const int64_t featureGroups = conv.getFeatureGroupCount();
  const int64_t batchGroups = conv.getBatchGroupCount();
  llvm::ArrayRef<int64_t> lhsShape = state.local(conv.getLhs()).shape;
  llvm::ArrayRef<int64_t> rhsShape = state.local(conv.getRhs()).shape;
  llvm::ArrayRef<int64_t> outShape = shapeOf(result.getType());
  const int64_t outFeature = dims.getOutputFeatureDimension();
  const int64_t inFeature = dims.getInputFeatureDimension();
  const int64_t inBatch = dims.getInputBatchDimension();

  Layout lhsTarget = Layout::replicated(out.mesh, out.meshName, lhsShape.size());
  Layout rhsTarget = Layout::replicated(out.mesh, out.meshName, rhsShape.size());
  if (!out.dims[dims.getOutputBatchDimension()].empty()) {
    if (batchGroups > 1) return declined;
    lhsTarget.dims[inBatch] = out.dims[dims.getOutputBatchDimension()];
  }
  int64_t localFeatureGroups = featureGroups, localBatchGroups = batchGroups;
  if (const int64_t n = out.numShards(outFeature); n > 1) {
    rhsTarget.dims[dims.getKernelOutputFeatureDimension()] = out.dims[outFeature];
    if (featureGroups > 1) {
      if (featureGroups % n != 0) return declined;
      lhsTarget.dims[inFeature] = out.dims[outFeature];
      localFeatureGroups = featureGroups / n;
    }
    if (batchGroups > 1) {
      if (batchGroups % n != 0) return declined;
      lhsTarget.dims[inBatch] = out.dims[outFeature];
      localBatchGroups = batchGroups / n;
    }
  }
  AxisList reduced;
  if (featureGroups == 1 && batchGroups == 1) {
    reduced = inputFeatureAxes(state, conv, out);
    lhsTarget.dims[inFeature] = reduced;
    rhsTarget.dims[dims.getKernelInputFeatureDimension()] = reduced;
  }

  const int64_t numSpatial = dims.getNumSpatialDims();
  llvm::SmallVector<int64_t> kernelSizes;
  for (int64_t k : dims.getKernelSpatialDimensions()) kernelSizes.push_back(rhsShape[k]);
  llvm::SmallVector<WindowDim> window =
      windowDims(kernelSizes, conv.getWindowStrides(), conv.getLhsDilation(),
                 conv.getRhsDilation(), conv.getPadding());
  for (int64_t s = 0; s < numSpatial; ++s) {
    const AxisList& axes = out.dims[dims.getOutputSpatialDimensions()[s]];
    // Empty dimensions have no shards to exchange halos between.
    if (!axes.empty() && (outShape[dims.getOutputSpatialDimensions()[s]] == 0 ||
                          lhsShape[dims.getInputSpatialDimensions()[s]] == 0)) {
      return declined;
    }
    lhsTarget.dims[dims.getInputSpatialDimensions()[s]] = axes;
  }
  // Kernel spatial dimensions the kernel brings split, where the output's is whole.
  AxisList used = reduced;
  for (const AxisList& axes : out.dims) used.append(axes.begin(), axes.end());
  llvm::SmallVector<AxisList> kernelSplit(numSpatial);
  const Layout& rhsLayout = state.local(conv.getRhs()).layout;
  for (int64_t s = 0; s < numSpatial && rhsLayout.meshName == out.meshName; ++s) {
    const int64_t k = dims.getKernelSpatialDimensions()[s];
    const AxisList& axes = rhsLayout.dims[k];
    const int64_t outDim = dims.getOutputSpatialDimensions()[s];
    if (axes.empty() || !out.dims[outDim].empty() || anyOverlap(axes, used)) continue;
    if (window[s].stride != 1 || window[s].baseDilation != 1 || window[s].windowDilation != 1 ||
        outShape[outDim] == 0 || rhsShape[k] < ir::getGroupSize(out.mesh, axes)) {
      continue;
    }
    kernelSplit[s] = axes;
    rhsTarget.dims[k] = axes;
    lhsTarget.dims[dims.getInputSpatialDimensions()[s]] = axes;
    used.append(axes.begin(), axes.end());
  }

  mlir::Location loc = conv.getLoc();
  mlir::FailureOr<mlir::Value> lhs = state.localAs(conv.getLhs(), lhsTarget, loc);
  if (mlir::failed(lhs)) return mlir::failure();
  mlir::FailureOr<mlir::Value> rhs = state.localAs(conv.getRhs(), rhsTarget, loc);
  if (mlir::failed(rhs)) return mlir::failure();
  SpmdBuilder& spmd = state.spmd();
  if (!reduced.empty()) {
    // Padding of an uneven feature split would be summed: zero it in both operands.
    auto zero = [&](mlir::Value value) {
      return spmd.zeroScalar(llvm::cast<mlir::RankedTensorType>(value.getType()).getElementType(),
                             loc);
    };
    *lhs = spmd.maskPadding(*lhs, lhsTarget, lhsShape, {inFeature}, zero(*lhs), loc);
    *rhs = spmd.maskPadding(*rhs, rhsTarget, rhsShape, {dims.getKernelInputFeatureDimension()},
                            zero(*rhs), loc);
  }
  llvm::SmallVector<int64_t> lhsDilation, strides;
  AxisList kernelPartial;
  for (int64_t s = 0; s < numSpatial; ++s) {
    const int64_t dim = dims.getInputSpatialDimensions()[s];
    const int64_t outDim = dims.getOutputSpatialDimensions()[s];
    if (!kernelSplit[s].empty()) {
      // Shard i holds kernel positions [i*c, i*c + c) (the padding of an uneven split
      // zeroed); output position o reads padded input o + position, i.e. input rows from
      // i*c - padLow on, c + outputs - 1 of them.
      const int64_t k = dims.getKernelSpatialDimensions()[s];
      const int64_t n = rhsTarget.numShards(k);
      const int64_t c = (rhsShape[k] + n - 1) / n;
      auto elementType = llvm::cast<mlir::RankedTensorType>(lhs->getType()).getElementType();
      *rhs = spmd.maskPadding(*rhs, rhsTarget, rhsShape, {k},
                              spmd.zeroScalar(elementType, loc), loc);
      ShardRanges ranges;
      ranges.dim = dim;
      ranges.length = c + outShape[outDim] - 1;
      for (int64_t i = 0; i < n; ++i) {
        ranges.starts.push_back(i * c - window[s].padLow);
        ranges.needBegin.push_back(0);
        ranges.needEnd.push_back(ranges.length);
      }
      *lhs = exchangeHalo(spmd, *lhs, lhsTarget, lhsShape, ranges,
                          spmd.zeroScalar(elementType, loc), loc);
      window[s].padLow = window[s].padHigh = 0;
      kernelPartial.append(kernelSplit[s].begin(), kernelSplit[s].end());
    } else if (lhsTarget.numShards(dim) > 1 && !window[s].isTrivial()) {
      auto elementType = llvm::cast<mlir::RankedTensorType>(lhs->getType()).getElementType();
      *lhs = haloForWindow(spmd, *lhs, lhsTarget, lhsShape, dim, window[s], outShape[outDim],
                           spmd.zeroScalar(elementType, loc), loc);
      window[s].padLow = window[s].padHigh = 0;
      window[s].baseDilation = 1;
    }
    lhsDilation.push_back(window[s].baseDilation);
  }

  // Operands set one by one, not mapped: lhs and rhs may be one value with two local forms.
  mlir::IRMapping mapping;
  auto local = llvm::cast<hlo::ConvolutionOp>(spmd.builder().clone(*conv, mapping));
  local.getLhsMutable().assign(*lhs);
  local.getRhsMutable().assign(*rhs);
  local->removeAttr(ir::TesselDialect::kShardingAttrName);
  if (conv.getPadding()) local.setPaddingAttr(paddingAttr(conv.getContext(), window));
  if (conv.getLhsDilation()) local.setLhsDilation(llvm::ArrayRef<int64_t>(lhsDilation));
  local.setFeatureGroupCount(localFeatureGroups);
  local.setBatchGroupCount(localBatchGroups);
  auto type = llvm::cast<mlir::RankedTensorType>(result.getType());
  Layout computed = out;
  computed.unreduced = reduced;
  computed.unreduced.append(kernelPartial.begin(), kernelPartial.end());
  local.getResult().setType(
      mlir::RankedTensorType::get(computed.localShape(outShape), type.getElementType()));
  mlir::FailureOr<mlir::Value> resharded =
      spmd.reshard(local.getResult(), computed, wanted, outShape, loc);
  if (mlir::failed(resharded)) return mlir::failure();
  AxisList working = computed.unreduced;
  for (const AxisList& axes : computed.dims) working.append(axes.begin(), axes.end());
  return std::optional<EmittedConvolution>(
      EmittedConvolution{*resharded, ir::getGroupSize(out.mesh, working)});
}

// `layout` without the axes that overlap `axes`: on each dimension the axes before the first
// overlapping one stay (the minor rest would no longer describe the same shards).
Layout withoutAxes(Layout layout, llvm::ArrayRef<ir::AxisRefAttr> axes) {
  for (AxisList& dim : layout.dims) {
    auto clash = llvm::find_if(dim, [&](ir::AxisRefAttr axis) { return anyOverlap({axis}, axes); });
    dim.erase(clash, dim.end());
  }
  return layout;
}

// The layouts the convolution may be computed in: the one its users want; that one without
// the axes an operand splits the input features over (the features stay split, so the
// partial sums are reduced, or reduce-scattered, onto the wanted layout); and the one the
// operands imply (batch and spatial dims from the input, output features from the kernel),
// resharded afterwards.
llvm::SmallVector<Layout> candidateLayouts(hlo::ConvolutionOp conv, const PartitionState& state,
                                           const Layout& base) {
  llvm::SmallVector<Layout> candidates = {base};
  auto add = [&](const Layout& layout) {
    if (!llvm::is_contained(candidates, layout)) candidates.push_back(layout);
  };
  hlo::ConvDimensionNumbersAttr dims = conv.getDimensionNumbers();
  const Layout& lhs = state.local(conv.getLhs()).layout;
  const Layout& rhs = state.local(conv.getRhs()).layout;
  const bool lhsOnMesh = lhs.meshName == base.meshName;
  const bool rhsOnMesh = rhs.meshName == base.meshName;
  if (conv.getFeatureGroupCount() == 1 && conv.getBatchGroupCount() == 1) {
    if (lhsOnMesh && !lhs.dims[dims.getInputFeatureDimension()].empty()) {
      add(withoutAxes(base, lhs.dims[dims.getInputFeatureDimension()]));
    }
    if (rhsOnMesh && !rhs.dims[dims.getKernelInputFeatureDimension()].empty()) {
      add(withoutAxes(base, rhs.dims[dims.getKernelInputFeatureDimension()]));
    }
  }
  Layout implied = Layout::replicated(base.mesh, base.meshName, base.rank());
  AxisList used;
  auto take = [&](int64_t outDim, const AxisList& axes) {
    if (axes.empty() || anyOverlap(axes, used)) return;
    implied.dims[outDim] = axes;
    used.append(axes.begin(), axes.end());
  };
  if (lhsOnMesh) {
    take(dims.getOutputBatchDimension(), lhs.dims[dims.getInputBatchDimension()]);
    for (int64_t s = 0; s < dims.getNumSpatialDims(); ++s) {
      take(dims.getOutputSpatialDimensions()[s], lhs.dims[dims.getInputSpatialDimensions()[s]]);
    }
  }
  if (rhsOnMesh) {
    take(dims.getOutputFeatureDimension(), rhs.dims[dims.getKernelOutputFeatureDimension()]);
  }
  if (lhsOnMesh || rhsOnMesh) add(implied);
  return candidates;
}

std::string describeLayout(const Layout& layout, mlir::MLIRContext* context) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "computed as " << layout.toSharding(context);
  return text;
}

}  // namespace

// Each candidate layout is emitted into a trial block and priced (strategy_choice.h); the
// fastest that sends no more bytes than computing in the wanted layout is emitted.
mlir::FailureOr<bool> partitionConvolution(mlir::Operation* op, PartitionState& state) {
  auto conv = llvm::dyn_cast<hlo::ConvolutionOp>(op);
  if (!conv) return false;
  mlir::OpResult result = conv->getResult(0);
  // A result asked to stay unreduced (a kernel gradient under weight-update sharding, a
  // loop accumulator) is computed as if whole and resharded to that at the end, which keeps
  // the partial sums over the axes it names.
  const Layout wanted = state.annotatedLayout(result);
  Layout base = wanted;
  base.unreduced.clear();
  if (!base.mesh) return false;
  llvm::SmallVector<Layout> candidates = candidateLayouts(conv, state, base);
  mlir::FailureOr<std::optional<size_t>> chosen = chooseStrategy(
      op, state, base.mesh, candidates.size(),
      [&](size_t index) -> mlir::FailureOr<std::optional<int64_t>> {
        mlir::FailureOr<std::optional<EmittedConvolution>> emitted =
            emitConvolution(conv, state, candidates[index], wanted);
        if (mlir::failed(emitted)) return mlir::failure();
        if (!*emitted) return std::optional<int64_t>();
        return std::optional<int64_t>((*emitted)->devices);
      },
      [&](size_t index) { return describeLayout(candidates[index], op->getContext()); },
      StrategyPolicy::kNoMoreBytesThanFirst);
  if (mlir::failed(chosen)) return mlir::failure();
  if (!*chosen) return false;
  mlir::FailureOr<std::optional<EmittedConvolution>> emitted =
      emitConvolution(conv, state, candidates[**chosen], wanted);
  if (mlir::failed(emitted)) return mlir::failure();
  if (!*emitted) return false;
  state.define(result, (*emitted)->value, wanted, shapeOf(result.getType()));
  return true;
}

}  // namespace tessel::spmd
