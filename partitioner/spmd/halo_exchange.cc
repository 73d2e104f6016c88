// Halo exchange for windowed ops along split dimensions (see halo_exchange.h).
//
// Shard i of n holds the global elements [i*s, (i+1)*s) of a dimension of size D, with
// s = ceil(D/n) (past D: padding of the last shards). It asks for [a_i, a_i + K), of which
// [a_i + b_i, a_i + e_i) must be right. Over the shards whose need is not empty:
//   left(i)  = i*s - max(a_i + b_i, 0)          elements wanted from shards i-1, i-2, ...
//   right(i) = min(a_i + e_i, D) - (i+1)*s      elements wanted from shards i+1, i+2, ...
// With HL = max(0, max left) and HR = max(0, max right), hop k to the left carries the
// last min(HL - (k-1)*s, s) elements of each shard (collective_permute shift = k), hop k to
// the right the first min(HR - (k-1)*s, s) (shift = -k); the concatenation holds
// [i*s - HL, (i+1)*s + HR) on every shard. When the halos are more than a gather would
// bring (HL + HR > (n-1)*s), one all_gather of the dimension holds [0, D). The buffer is then
// padded by the largest overshoot on either side and cut at a_i - start_i + padLow.
#include "partitioner/spmd/halo_exchange.h"

#include <algorithm>

#include "mlir/IR/BuiltinTypes.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/ir/tessel/tessel_ops.h"

namespace tessel::spmd {


int64_t WindowDim::outputSize(int64_t inputSize) const {
  int64_t dilatedBase = inputSize == 0 ? 0 : (inputSize - 1) * baseDilation + 1;
  int64_t padded = dilatedBase + padLow + padHigh;
  if (padded < dilatedSize()) return 0;
  return (padded - dilatedSize()) / stride + 1;
}

bool WindowDim::isTrivial() const {
  return size == 1 && stride == 1 && padLow == 0 && padHigh == 0 && baseDilation == 1 &&
         windowDilation == 1;
}

llvm::SmallVector<WindowDim> windowDims(llvm::ArrayRef<int64_t> sizes,
                                        std::optional<llvm::ArrayRef<int64_t>> strides,
                                        std::optional<llvm::ArrayRef<int64_t>> baseDilations,
                                        std::optional<llvm::ArrayRef<int64_t>> windowDilations,
                                        std::optional<mlir::DenseIntElementsAttr> padding) {
  llvm::SmallVector<WindowDim> dims(sizes.size());
  llvm::SmallVector<int64_t> pads;
  if (padding && *padding) pads = llvm::to_vector(padding->getValues<int64_t>());
  for (size_t d = 0; d < sizes.size(); ++d) {
    dims[d].size = sizes[d];
    if (strides) dims[d].stride = (*strides)[d];
    if (baseDilations) dims[d].baseDilation = (*baseDilations)[d];
    if (windowDilations) dims[d].windowDilation = (*windowDilations)[d];
    if (!pads.empty()) {
      dims[d].padLow = pads[2 * d];
      dims[d].padHigh = pads[2 * d + 1];
    }
  }
  return dims;
}

mlir::DenseIntElementsAttr paddingAttr(mlir::MLIRContext* context,
                                       llvm::ArrayRef<WindowDim> window) {
  llvm::SmallVector<int64_t> values;
  for (const WindowDim& dim : window) {
    values.push_back(dim.padLow);
    values.push_back(dim.padHigh);
  }
  auto type = mlir::RankedTensorType::get({static_cast<int64_t>(window.size()), 2},
                                          mlir::IntegerType::get(context, 64));
  return mlir::DenseIntElementsAttr::get(type, llvm::ArrayRef<int64_t>(values));
}

namespace {

mlir::RankedTensorType typeOf(mlir::Value value) {
  return llvm::cast<mlir::RankedTensorType>(value.getType());
}

mlir::RankedTensorType withDim(mlir::Value value, int64_t dim, int64_t size) {
  auto type = typeOf(value);
  llvm::SmallVector<int64_t> shape = llvm::to_vector(type.getShape());
  shape[dim] = size;
  return mlir::RankedTensorType::get(shape, type.getElementType());
}

}  // namespace

mlir::Value sliceAlong(mlir::OpBuilder& builder, mlir::Value value, int64_t dim, int64_t begin,
                       int64_t end, mlir::Location loc) {
  auto type = typeOf(value);
  if (begin == 0 && end == type.getDimSize(dim)) return value;
  llvm::SmallVector<int64_t> start(type.getRank(), 0), strides(type.getRank(), 1);
  llvm::SmallVector<int64_t> limit = llvm::to_vector(type.getShape());
  start[dim] = begin;
  limit[dim] = end;
  return builder.create<hlo::SliceOp>(loc, withDim(value, dim, end - begin), value,
                                      builder.getDenseI64ArrayAttr(start),
                                      builder.getDenseI64ArrayAttr(limit),
                                      builder.getDenseI64ArrayAttr(strides));
}

mlir::Value padAlong(mlir::OpBuilder& builder, mlir::Value value, mlir::Value padValue,
                     int64_t dim, int64_t low, int64_t high, int64_t interior,
                     mlir::Location loc) {
  if (low == 0 && high == 0 && interior == 0) return value;
  auto type = typeOf(value);
  const int64_t rank = type.getRank();
  llvm::SmallVector<int64_t> lows(rank, 0), highs(rank, 0), interiors(rank, 0);
  lows[dim] = low;
  highs[dim] = high;
  interiors[dim] = interior;
  int64_t size = type.getDimSize(dim);
  int64_t padded = low + high + size + std::max<int64_t>(size - 1, 0) * interior;
  return builder.create<hlo::PadOp>(loc, withDim(value, dim, padded), value, padValue,
                                    builder.getDenseI64ArrayAttr(lows),
                                    builder.getDenseI64ArrayAttr(highs),
                                    builder.getDenseI64ArrayAttr(interiors));
}

mlir::Value sliceAtShardOffsets(SpmdBuilder& spmd, mlir::Value value, const Layout& layout,
                                int64_t dim, int64_t splitDim, llvm::ArrayRef<int64_t> offsets,
                                int64_t size, mlir::Location loc) {
  mlir::OpBuilder& builder = spmd.builder();
  auto type = typeOf(value);
  // The same offset everywhere needs no table: a static slice.
  if (llvm::all_equal(offsets)) {
    return sliceAlong(builder, value, dim, offsets.front(), offsets.front() + size, loc);
  }
  llvm::SmallVector<mlir::Value> starts;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    starts.push_back(spmd.lookupPerDevice(
        layout.mesh,
        [&](int64_t linear) {
          return d == dim ? offsets[layout.shardIndex(splitDim, linear)] : 0;
        },
        loc));
  }
  llvm::SmallVector<int64_t> sizes = llvm::to_vector(type.getShape());
  sizes[dim] = size;
  return builder.create<hlo::DynamicSliceOp>(loc, withDim(value, dim, size), value, starts,
                                             builder.getDenseI64ArrayAttr(sizes));
}

namespace {

// Replaces the elements of `dim` whose global index start_i + m lies outside [0, size) by
// `fill`, checking only the sides that need it.
mlir::Value maskOutside(SpmdBuilder& spmd, mlir::Value value, const Layout& layout,
                        int64_t dim, llvm::ArrayRef<int64_t> starts, int64_t size,
                        bool checkLow, bool checkHigh, mlir::Value fill, mlir::Location loc) {
  if (!checkLow && !checkHigh) return value;
  mlir::OpBuilder& builder = spmd.builder();
  auto type = typeOf(value);
  auto predType = mlir::RankedTensorType::get(type.getShape(), builder.getI1Type());
  auto indexType = mlir::RankedTensorType::get(type.getShape(), builder.getI32Type());
  mlir::Value iota = builder.create<hlo::IotaOp>(loc, indexType, builder.getI64IntegerAttr(dim));
  auto compare = [&](llvm::function_ref<int64_t(int64_t)> bound,
                     hlo::ComparisonDirection direction) -> mlir::Value {
    mlir::Value scalar = spmd.lookupPerDevice(
        layout.mesh, [&](int64_t linear) { return bound(layout.shardIndex(dim, linear)); },
        loc);
    mlir::Value bounds = builder.create<hlo::BroadcastInDimOp>(
        loc, indexType, scalar, builder.getDenseI64ArrayAttr({}));
    return builder.create<hlo::CompareOp>(
        loc, predType, iota, bounds,
        hlo::ComparisonDirectionAttr::get(builder.getContext(), direction), nullptr);
  };
  mlir::Value mask;
  if (checkLow) {
    mask = compare([&](int64_t i) { return -starts[i]; }, hlo::ComparisonDirection::GE);
  }
  if (checkHigh) {
    mlir::Value high =
        compare([&](int64_t i) { return size - starts[i]; }, hlo::ComparisonDirection::LT);
    mask = mask ? builder.create<hlo::AndOp>(loc, predType, mask, high).getResult() : high;
  }
  mlir::Value fills =
      builder.create<hlo::BroadcastInDimOp>(loc, type, fill, builder.getDenseI64ArrayAttr({}));
  return builder.create<hlo::SelectOp>(loc, type, mask, value, fills);
}

}  // namespace

HaloSizes haloSizes(const ShardRanges& ranges, int64_t size) {
  const int64_t n = static_cast<int64_t>(ranges.starts.size());
  const int64_t s = n == 0 ? 0 : (size + n - 1) / n;
  HaloSizes halos;
  halos.low.assign(n, 0);
  halos.high.assign(n, 0);
  for (int64_t i = 0; i < n; ++i) {
    if (ranges.needBegin[i] >= ranges.needEnd[i]) continue;
    const int64_t first = std::max<int64_t>(ranges.starts[i] + ranges.needBegin[i], 0);
    const int64_t last = std::min(ranges.starts[i] + ranges.needEnd[i], size);
    if (first >= last) continue;
    halos.low[i] = std::max<int64_t>(i * s - first, 0);
    halos.high[i] = std::max<int64_t>(last - (i + 1) * s, 0);
  }
  return halos;
}

ShardRanges windowShardRanges(int64_t dim, const WindowDim& window, int64_t n,
                              int64_t outputSize) {
  const int64_t c = (outputSize + n - 1) / n;
  const int64_t t = window.stride, b = window.baseDilation, lo = window.padLow;
  // Shard i computes windows [c*i, c*i + c); they read the padded, dilated positions
  // [t*c*i, t*c*i + span). Input element x sits at position lo + x*b.
  const int64_t span = t * (c - 1) + window.dilatedSize();
  ShardRanges ranges;
  ranges.dim = dim;
  ranges.starts.resize(n);
  ranges.needBegin.assign(n, 0);
  ranges.needEnd.assign(n, 0);
  int64_t length = 1;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t first = t * c * i;
    const int64_t valid = std::clamp<int64_t>(outputSize - c * i, 0, c);
    ranges.starts[i] = ceilDiv(first - lo, b);
    const int64_t end = floorDiv(first + span - 1 - lo, b) + 1;
    if (valid == 0) continue;
    const int64_t validEnd = floorDiv(first + t * (valid - 1) + window.dilatedSize() - 1 - lo, b) + 1;
    ranges.needEnd[i] = std::max<int64_t>(validEnd - ranges.starts[i], 0);
    length = std::max(length, end - ranges.starts[i]);
  }
  ranges.length = b == 1 ? span : length;
  return ranges;
}

mlir::Value exchangeHalo(SpmdBuilder& spmd, mlir::Value local, const Layout& layout,
                         llvm::ArrayRef<int64_t> globalShape, const ShardRanges& ranges,
                         mlir::Value fill, mlir::Location loc) {
  mlir::OpBuilder& builder = spmd.builder();
  mlir::MLIRContext* context = builder.getContext();
  const int64_t dim = ranges.dim;
  const int64_t n = layout.numShards(dim);
  const int64_t size = globalShape[dim];
  const int64_t s = (size + n - 1) / n;
  const int64_t length = ranges.length;
  auto needed = [&](int64_t i) { return ranges.needBegin[i] < ranges.needEnd[i]; };

  bool checkLow = false, checkHigh = false;
  for (int64_t i = 0; i < n; ++i) {
    if (!needed(i)) continue;
    checkLow |= ranges.starts[i] + ranges.needBegin[i] < 0;
    checkHigh |= ranges.starts[i] + ranges.needEnd[i] > size;
  }
  // Every shard sends and receives as much as the shard that needs the most.
  const HaloSizes halos = haloSizes(ranges, size);
  const int64_t haloLeft = *std::max_element(halos.low.begin(), halos.low.end());
  const int64_t haloRight = *std::max_element(halos.high.begin(), halos.high.end());

  // The buffer every shard holds, and where it starts in global coordinates.
  mlir::Value buffer = local;
  llvm::SmallVector<int64_t> bufferStart(n, 0);
  int64_t bufferLength = size;
  if (n > 1 && haloLeft + haloRight <= (n - 1) * s) {
    mlir::ArrayAttr axes = mlir::ArrayAttr::get(
        context, llvm::SmallVector<mlir::Attribute>(layout.dims[dim].begin(),
                                                    layout.dims[dim].end()));
    auto permute = [&](mlir::Value piece, int64_t shift) -> mlir::Value {
      return builder.create<ir::CollectivePermuteOp>(loc, piece.getType(), piece, layout.meshName,
                                                     axes, builder.getI64IntegerAttr(shift),
                                                     nullptr, nullptr);
    };
    llvm::SmallVector<mlir::Value> pieces;
    for (int64_t k = ceilDiv(haloLeft, s); k >= 1; --k) {
      int64_t count = std::min(haloLeft - (k - 1) * s, s);
      pieces.push_back(permute(sliceAlong(builder, local, dim, s - count, s, loc), k));
    }
    pieces.push_back(local);
    for (int64_t k = 1; k <= ceilDiv(haloRight, s); ++k) {
      int64_t count = std::min(haloRight - (k - 1) * s, s);
      pieces.push_back(permute(sliceAlong(builder, local, dim, 0, count, loc), -k));
    }
    bufferLength = haloLeft + s + haloRight;
    if (pieces.size() > 1) {
      buffer = builder.create<hlo::ConcatenateOp>(loc, withDim(local, dim, bufferLength), pieces,
                                                  builder.getI64IntegerAttr(dim));
    }
    for (int64_t i = 0; i < n; ++i) bufferStart[i] = i * s - haloLeft;
  } else if (n > 1) {
    // Gather the dimension. Other dimensions may already hold another exchange's windows
    // (an op windowed along several split dimensions exchanges them one at a time), so
    // they no longer have the layout's local sizes. Such a dimension stays split over its
    // axes (its pieces still differ from shard to shard), as the blocks of a tensor
    // n times as long: dropping its axes would tell the reshard that the devices along
    // them hold the same data, and let it fetch a piece from any of them.
    llvm::SmallVector<int64_t> shape(globalShape.begin(), globalShape.end());
    llvm::ArrayRef<int64_t> localSizes = typeOf(local).getShape();
    llvm::SmallVector<int64_t> expected = layout.localShape(globalShape);
    for (int64_t d = 0; d < static_cast<int64_t>(shape.size()); ++d) {
      if (d == dim || localSizes[d] == expected[d]) continue;
      shape[d] = localSizes[d] * layout.numShards(d);
    }
    Layout whole = layout;
    whole.dims[dim].clear();
    buffer = *spmd.reshard(local, layout, whole, shape, loc);
  }

  // Pad so that every needed range lies inside the buffer, then cut it. A shard that needs
  // only positions outside [0, size) gets them from the mask, wherever its cut lands.
  auto neededInside = [&](int64_t i) {
    return needed(i) && std::max<int64_t>(ranges.starts[i] + ranges.needBegin[i], 0) <
                            std::min(ranges.starts[i] + ranges.needEnd[i], size);
  };
  int64_t padLow = 0, padHigh = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (!neededInside(i)) continue;
    padLow = std::max(padLow, bufferStart[i] - ranges.starts[i]);
    padHigh = std::max(padHigh, ranges.starts[i] + length - bufferStart[i] - bufferLength);
  }
  // Every shard cuts `length` elements, also where it needs fewer: the buffer is at least
  // that long.
  padHigh = std::max(padHigh, length - padLow - bufferLength);
  mlir::Value padValue = fill ? fill : spmd.zeroScalar(typeOf(local).getElementType(), loc);
  buffer = padAlong(builder, buffer, padValue, dim, padLow, padHigh, 0, loc);
  const int64_t paddedLength = padLow + bufferLength + padHigh;
  llvm::SmallVector<int64_t> offsets(n, 0);
  for (int64_t i = 0; i < n; ++i) {
    offsets[i] = std::clamp<int64_t>(ranges.starts[i] - bufferStart[i] + padLow, 0,
                                     paddedLength - length);
  }
  buffer = sliceAtShardOffsets(spmd, buffer, layout, dim, dim, offsets, length, loc);
  if (!fill) return buffer;
  return maskOutside(spmd, buffer, layout, dim, ranges.starts, size, checkLow, checkHigh, fill,
                     loc);
}

mlir::Value haloForWindow(SpmdBuilder& spmd, mlir::Value local, const Layout& layout,
                          llvm::ArrayRef<int64_t> globalShape, int64_t dim,
                          const WindowDim& window, int64_t outputSize, mlir::Value fill,
                          mlir::Location loc) {
  const int64_t n = layout.numShards(dim);
  const int64_t c = (outputSize + n - 1) / n;
  const int64_t t = window.stride, b = window.baseDilation, lo = window.padLow;
  const int64_t span = t * (c - 1) + window.dilatedSize();
  const ShardRanges ranges = windowShardRanges(dim, window, n, outputSize);
  mlir::Value buffer = exchangeHalo(spmd, local, layout, globalShape, ranges, fill, loc);
  if (b == 1) return buffer;
  // Dilate: element m of the buffer goes to position (b-1) + m*b of the padded buffer, the
  // holes and the ends hold `fill`. Shard i's first position t*c*i is element a_i's position
  // minus shift_i = lo + a_i*b - t*c*i (in [0, b)), i.e. index (b-1) - shift_i.
  llvm::SmallVector<int64_t> offsets(n);
  int64_t padHigh = 0;
  const int64_t dilatedLength = (ranges.length - 1) * b + 1;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t shift = lo + ranges.starts[i] * b - t * c * i;
    offsets[i] = b - 1 - shift;
    if (ranges.needEnd[i] > 0) padHigh = std::max(padHigh, span - shift - dilatedLength);
  }
  for (int64_t& offset : offsets) {
    offset = std::clamp<int64_t>(offset, 0, (b - 1) + dilatedLength + padHigh - span);
  }
  mlir::OpBuilder& builder = spmd.builder();
  buffer = padAlong(builder, buffer, fill, dim, b - 1, padHigh, b - 1, loc);
  return sliceAtShardOffsets(spmd, buffer, layout, dim, dim, offsets, span, loc);
}

}  // namespace tessel::spmd
