// Kernels of the ops that take or write boxes of a tensor: slice, dynamic_slice,
// dynamic_update_slice, pad.
#include <algorithm>
#include <limits>
#include <type_traits>
#include <vector>

#include "partitioner/ir/hlo/hlo_ops.h"
#include "runtime/kernels/element_convert.h"
#include "runtime/kernels/elementwise_util.h"
#include "runtime/kernels/kernels.h"
#include "runtime/kernels/strided_copy.h"
#include "support/status_macros.h"

namespace tessel::runtime {
namespace {

// Element (start + j * stride) of every dimension.
Tensor Slice(const Tensor& operand, llvm::ArrayRef<int64_t> start, llvm::ArrayRef<int64_t> strides,
             Shape shape) {
  std::vector<int64_t> operandStrides = RowMajorStrides(operand.shape());
  std::vector<int64_t> srcStrides(shape.size());
  int64_t srcOffset = 0;
  for (size_t d = 0; d < shape.size(); ++d) {
    srcOffset += start[d] * operandStrides[d];
    srcStrides[d] = strides[d] * operandStrides[d];
  }
  Tensor result = Tensor::Zeros(operand.type(), shape);
  CopyStrided(operand, srcOffset, srcStrides, result, 0, RowMajorStrides(shape), shape);
  return result;
}

// The value of a rank-0 integer start index. An unsigned value too large for int64 is
// saturated; clamping maps it to the last valid start either way.
absl::StatusOr<int64_t> ReadStartIndex(const Tensor& index) {
  return DispatchElementType(index.type(), [&](auto tag) -> absl::StatusOr<int64_t> {
    using T = typename decltype(tag)::type;
    if constexpr (kIsInt<T>) {
      T value = index.data<T>()[0];
      if constexpr (std::is_unsigned_v<T>) {
        constexpr uint64_t kMax = std::numeric_limits<int64_t>::max();
        return static_cast<int64_t>(std::min<uint64_t>(value, kMax));
      } else {
        return static_cast<int64_t>(value);
      }
    } else {
      return absl::InvalidArgumentError(
          absl::StrCat("start index has element type ", ElementTypeName(index.type())));
    }
  });
}

// The start indices, each clamped into [0, dim - size] so that the box of `sizes` lies
// inside `shape`; the result is the box's offset in row-major elements of `shape`.
absl::StatusOr<int64_t> ClampedBoxOffset(absl::Span<const Tensor* const> startIndices,
                                         const Shape& shape, const Shape& sizes) {
  if (startIndices.size() != shape.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("expected ", shape.size(), " start indices, got ", startIndices.size()));
  }
  std::vector<int64_t> strides = RowMajorStrides(shape);
  int64_t offset = 0;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (sizes[d] > shape[d]) {
      return absl::InvalidArgumentError(
          absl::StrCat("box size ", sizes[d], " exceeds dimension ", d, " of size ", shape[d]));
    }
    TESSEL_ASSIGN_OR_RETURN(int64_t start, ReadStartIndex(*startIndices[d]));
    offset += std::clamp<int64_t>(start, 0, shape[d] - sizes[d]) * strides[d];
  }
  return offset;
}

absl::StatusOr<Tensor> DynamicSlice(const Tensor& operand,
                                    absl::Span<const Tensor* const> startIndices, Shape sizes) {
  TESSEL_ASSIGN_OR_RETURN(int64_t offset, ClampedBoxOffset(startIndices, operand.shape(), sizes));
  Tensor result = Tensor::Zeros(operand.type(), sizes);
  CopyStrided(operand, offset, RowMajorStrides(operand.shape()), result, 0, RowMajorStrides(sizes),
              sizes);
  return result;
}

absl::StatusOr<Tensor> DynamicUpdateSlice(const Tensor& operand, const Tensor& update,
                                          absl::Span<const Tensor* const> startIndices) {
  TESSEL_ASSIGN_OR_RETURN(int64_t offset,
                          ClampedBoxOffset(startIndices, operand.shape(), update.shape()));
  Tensor result = operand;
  CopyStrided(update, 0, RowMajorStrides(update.shape()), result, offset,
              RowMajorStrides(operand.shape()), update.shape());
  return result;
}

// Operand element i of a dimension lands at low + i * (interior + 1) of the result; the
// rest is the padding value. Negative low or high padding crops: operand elements that
// would land outside the result are dropped.
Tensor Pad(const Tensor& operand, const Tensor& paddingValue, llvm::ArrayRef<int64_t> low,
           llvm::ArrayRef<int64_t> interior, Shape shape) {
  Tensor result = Tensor::Zeros(operand.type(), shape);
  DispatchElementType(operand.type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    absl::Span<T> out = result.data<T>();
    std::fill(out.begin(), out.end(), paddingValue.data<T>()[0]);
  });
  std::vector<int64_t> srcStrides = RowMajorStrides(operand.shape());
  std::vector<int64_t> dstStrides = RowMajorStrides(shape);
  int64_t srcOffset = 0, dstOffset = 0;
  Shape kept(shape.size());
  for (size_t d = 0; d < shape.size(); ++d) {
    int64_t step = interior[d] + 1;
    int64_t size = operand.shape()[d];
    // The first operand index at a result position >= 0, the last one below shape[d].
    int64_t first = low[d] >= 0 ? 0 : (-low[d] + step - 1) / step;
    int64_t lastRoom = shape[d] - 1 - low[d];
    int64_t last = lastRoom < 0 ? -1 : std::min(size - 1, lastRoom / step);
    kept[d] = std::max<int64_t>(0, last - first + 1);
    if (kept[d] == 0) return result;
    srcOffset += first * srcStrides[d];
    dstOffset += (low[d] + first * step) * dstStrides[d];
    dstStrides[d] *= step;
  }
  CopyStrided(operand, srcOffset, srcStrides, result, dstOffset, dstStrides, kept);
  return result;
}

}  // namespace

void RegisterSliceKernels(KernelRegistry& registry) {
  registry.Register<hlo::SliceOp>(
      [](hlo::SliceOp op, KernelArgs args) -> absl::StatusOr<std::vector<Tensor>> {
        return OneResult(
            Slice(*args.operands[0], op.getStartIndices(), op.getStrides(), ResultShape(op)));
      });
  registry.Register<hlo::DynamicSliceOp>(
      [](hlo::DynamicSliceOp op, KernelArgs args) -> absl::StatusOr<std::vector<Tensor>> {
        llvm::ArrayRef<int64_t> sizes = op.getSliceSizes();
        return OneResult(DynamicSlice(*args.operands[0], args.operands.subspan(1),
                                      Shape(sizes.begin(), sizes.end())));
      });
  registry.Register<hlo::DynamicUpdateSliceOp>(
      [](hlo::DynamicUpdateSliceOp, KernelArgs args) -> absl::StatusOr<std::vector<Tensor>> {
        return OneResult(
            DynamicUpdateSlice(*args.operands[0], *args.operands[1], args.operands.subspan(2)));
      });
  registry.Register<hlo::PadOp>(
      [](hlo::PadOp op, KernelArgs args) -> absl::StatusOr<std::vector<Tensor>> {
        return OneResult(Pad(*args.operands[0], *args.operands[1], op.getEdgePaddingLow(),
                             op.getInteriorPadding(), ResultShape(op)));
      });
}

}  // namespace tessel::runtime
