// Kernels of the ops that rearrange whole tensors: broadcast_in_dim, reshape, transpose,
// reverse, concatenate. Each one maps result indices to operand indices by strides and
// lets CopyStrided move the elements.
#include <algorithm>
#include <cstring>
#include <vector>

#include "partitioner/ir/hlo/hlo_ops.h"
#include "runtime/kernels/elementwise_util.h"
#include "runtime/kernels/kernels.h"
#include "runtime/kernels/strided_copy.h"

namespace tessel::runtime {
namespace {

// Operand dimension i becomes result dimension dims[i]. A size-1 operand dimension repeats
// (stride 0), as do result dimensions no operand dimension maps to.
Tensor BroadcastInDim(const Tensor& operand, llvm::ArrayRef<int64_t> dims, Shape shape) {
  // A single element (a scalar, as JAX broadcasts its constants) fills the result by
  // doubling copies of its bytes, without an index walk per element.
  if (operand.num_elements() == 1) {
    Tensor result = Tensor::Uninitialized(operand.type(), std::move(shape));
    const int64_t size = operand.byte_size();
    const int64_t total = result.byte_size();
    if (total == 0) return result;
    std::byte* out = result.bytes().data();
    std::memcpy(out, operand.bytes().data(), size);
    for (int64_t filled = size; filled < total; filled *= 2) {
      std::memcpy(out + filled, out, std::min(filled, total - filled));
    }
    return result;
  }
  Tensor result = Tensor::Zeros(operand.type(), shape);
  std::vector<int64_t> operandStrides = RowMajorStrides(operand.shape());
  std::vector<int64_t> srcStrides(shape.size(), 0);
  for (size_t i = 0; i < dims.size(); ++i) {
    if (operand.shape()[i] != 1) srcStrides[dims[i]] = operandStrides[i];
  }
  CopyStrided(operand, 0, srcStrides, result, 0, RowMajorStrides(shape), shape);
  return result;
}

// Row-major order is unchanged, so the bytes are too.
Tensor Reshape(const Tensor& operand, Shape shape) {
  Tensor result = Tensor::Zeros(operand.type(), std::move(shape));
  if (operand.byte_size() > 0) {
    std::memcpy(result.bytes().data(), operand.bytes().data(), operand.byte_size());
  }
  return result;
}

// Result dimension i walks operand dimension permutation[i].
Tensor Transpose(const Tensor& operand, llvm::ArrayRef<int64_t> permutation) {
  Shape shape;
  std::vector<int64_t> operandStrides = RowMajorStrides(operand.shape());
  std::vector<int64_t> srcStrides;
  for (int64_t dim : permutation) {
    shape.push_back(operand.shape()[dim]);
    srcStrides.push_back(operandStrides[dim]);
  }
  Tensor result = Tensor::Zeros(operand.type(), shape);
  CopyStrided(operand, 0, srcStrides, result, 0, RowMajorStrides(shape), shape);
  return result;
}

// A reversed dimension starts at its last element and walks backwards.
Tensor Reverse(const Tensor& operand, llvm::ArrayRef<int64_t> dims) {
  const Shape& shape = operand.shape();
  std::vector<int64_t> srcStrides = RowMajorStrides(shape);
  int64_t srcOffset = 0;
  for (int64_t dim : dims) {
    if (shape[dim] == 0) continue;
    srcOffset += (shape[dim] - 1) * srcStrides[dim];
    srcStrides[dim] = -srcStrides[dim];
  }
  Tensor result = Tensor::Zeros(operand.type(), shape);
  CopyStrided(operand, srcOffset, srcStrides, result, 0, RowMajorStrides(shape), shape);
  return result;
}

// Each input lands in the result at the running offset along `dim`.
Tensor Concatenate(absl::Span<const Tensor* const> inputs, int64_t dim, Shape shape) {
  Tensor result = Tensor::Zeros(inputs[0]->type(), shape);
  std::vector<int64_t> dstStrides = RowMajorStrides(shape);
  int64_t offset = 0;
  for (const Tensor* input : inputs) {
    CopyStrided(*input, 0, RowMajorStrides(input->shape()), result, offset * dstStrides[dim],
                dstStrides, input->shape());
    offset += input->shape()[dim];
  }
  return result;
}

}  // namespace

void RegisterShapeKernels(KernelRegistry& registry) {
  registry.Register<hlo::BroadcastInDimOp>(
      [](hlo::BroadcastInDimOp op, KernelArgs args) -> absl::StatusOr<std::vector<Tensor>> {
        return OneResult(
            BroadcastInDim(*args.operands[0], op.getBroadcastDimensions(), ResultShape(op)));
      });
  registry.Register<hlo::ReshapeOp>(
      [](hlo::ReshapeOp op, KernelArgs args) -> absl::StatusOr<std::vector<Tensor>> {
        // A reshape keeps the row-major order, so an operand read last here lends its buffer.
        if (Tensor* operand = args.Overwritable(0)) {
          return OneResult(std::move(*operand).Reshaped(ResultShape(op)));
        }
        return OneResult(Reshape(*args.operands[0], ResultShape(op)));
      });
  registry.Register<hlo::TransposeOp>(
      [](hlo::TransposeOp op, KernelArgs args) -> absl::StatusOr<std::vector<Tensor>> {
        return OneResult(Transpose(*args.operands[0], op.getPermutation()));
      });
  registry.Register<hlo::ReverseOp>(
      [](hlo::ReverseOp op, KernelArgs args) -> absl::StatusOr<std::vector<Tensor>> {
        return OneResult(Reverse(*args.operands[0], op.getDimensions()));
      });
  registry.Register<hlo::ConcatenateOp>(
      [](hlo::ConcatenateOp op, KernelArgs args) -> absl::StatusOr<std::vector<Tensor>> {
        return OneResult(Concatenate(args.operands, op.getDimension(), ResultShape(op)));
      });
}

}  // namespace tessel::runtime
