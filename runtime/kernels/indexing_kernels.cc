// Kernels of hlo.gather and hlo.scatter with general dimension numbers, batching
// dimensions included. Both walk their larger side (gather's result, scatter's updates)
// in row-major order and compute, per element, the index vector it reads and the operand
// position it touches.
#include <algorithm>
#include <optional>
#include <vector>

#include "partitioner/ir/hlo/hlo_ops.h"
#include "runtime/interpreter.h"
#include "runtime/kernels/combiner.h"
#include "runtime/kernels/index_utils.h"
#include "runtime/kernels/kernels.h"
#include "runtime/run_limits.h"
#include "support/status_macros.h"

namespace tessel::runtime {
namespace {

using KernelResult = absl::StatusOr<std::vector<Tensor>>;

bool Contains(llvm::ArrayRef<int64_t> list, int64_t value) {
  return std::find(list.begin(), list.end(), value) != list.end();
}

// How one side of gather/scatter maps to the operand (the inputs of scatter), described
// with gather's names; scatter's fields translate one to one (update_window_dims →
// offset_dims, inserted_window_dims → collapsed_slice_dims, input_batching_dims →
// operand_batching_dims, scatter_indices_batching_dims → start_indices_batching_dims,
// scatter_dims_to_operand_dims → start_index_map).
struct IndexMapping {
  llvm::ArrayRef<int64_t> offset_dims;
  llvm::ArrayRef<int64_t> collapsed_dims;
  llvm::ArrayRef<int64_t> operand_batching_dims;
  llvm::ArrayRef<int64_t> indices_batching_dims;
  llvm::ArrayRef<int64_t> start_index_map;
  int64_t index_vector_dim;
};

// Walks the positions of the "big" side (gather result or scatter updates) and computes
// for each one its operand start position and offset. Set up once per op.
class IndexWalker {
 public:
  IndexWalker(const IndexMapping& mapping, const Tensor& indices, int64_t operand_rank,
              int64_t big_rank)
      : mapping_(mapping),
        indices_(indices),
        indexStrides_(RowMajorStrides(indices.shape())),
        indicesIndex_(indices.rank(), 0),
        windowToOperand_(),
        start_(operand_rank, 0),
        offset_(operand_rank, 0) {
    // Operand dimensions that get an offset, in order: all but collapsed and batching.
    for (int64_t d = 0; d < operand_rank; ++d) {
      if (!Contains(mapping.collapsed_dims, d) && !Contains(mapping.operand_batching_dims, d)) {
        windowToOperand_.push_back(d);
      }
    }
    // The big side's non-offset dimensions index the indices tensor, skipping
    // index_vector_dim.
    for (int64_t d = 0, i = 0; d < big_rank; ++d) {
      if (Contains(mapping.offset_dims, d)) continue;
      if (i == mapping.index_vector_dim) ++i;
      batchToIndices_.push_back({d, i++});
    }
  }

  // Computes start() and offset() for position `big` of the big side. Start values are
  // read as written (signed, possibly out of range); callers clamp or skip.
  void Visit(absl::Span<const int64_t> big) {
    for (auto [b, i] : batchToIndices_) indicesIndex_[i] = big[b];
    std::fill(start_.begin(), start_.end(), 0);
    for (size_t k = 0; k < mapping_.start_index_map.size(); ++k) {
      if (mapping_.index_vector_dim < indices_.rank()) {
        indicesIndex_[mapping_.index_vector_dim] = static_cast<int64_t>(k);
      }
      start_[mapping_.start_index_map[k]] =
          ReadInteger(indices_, Linearize(indicesIndex_, indexStrides_));
    }
    for (size_t i = 0; i < mapping_.operand_batching_dims.size(); ++i) {
      start_[mapping_.operand_batching_dims[i]] =
          indicesIndex_[mapping_.indices_batching_dims[i]];
    }
    std::fill(offset_.begin(), offset_.end(), 0);
    for (size_t w = 0; w < mapping_.offset_dims.size(); ++w) {
      offset_[windowToOperand_[w]] = big[mapping_.offset_dims[w]];
    }
  }

  std::vector<int64_t>& start() { return start_; }
  const std::vector<int64_t>& offset() const { return offset_; }
  // The operand dimension that offset dimension w of the big side moves along.
  int64_t WindowDimension(size_t w) const { return windowToOperand_[w]; }

 private:
  const IndexMapping& mapping_;
  const Tensor& indices_;
  std::vector<int64_t> indexStrides_;
  std::vector<int64_t> indicesIndex_;
  std::vector<int64_t> windowToOperand_;
  std::vector<std::pair<int64_t, int64_t>> batchToIndices_;  // (big dim, indices dim)
  std::vector<int64_t> start_;
  std::vector<int64_t> offset_;
};

// Start indices are clamped to [0, operand_dim - slice_size] so that the slice fits.
KernelResult RunGather(hlo::GatherOp op, KernelArgs args) {
  const Tensor& operand = *args.operands[0];
  const Tensor& indices = *args.operands[1];
  hlo::GatherDimensionNumbersAttr dims = op.getDimensionNumbers();
  IndexMapping mapping{dims.getOffsetDims(),        dims.getCollapsedSliceDims(),
                       dims.getOperandBatchingDims(), dims.getStartIndicesBatchingDims(),
                       dims.getStartIndexMap(),     dims.getIndexVectorDim()};
  auto resultType = llvm::cast<mlir::RankedTensorType>(op.getType());
  Shape resultShape(resultType.getShape().begin(), resultType.getShape().end());
  llvm::ArrayRef<int64_t> sliceSizes = op.getSliceSizes();
  const Shape& operandShape = operand.shape();

  Tensor result = Tensor::Zeros(operand.type(), resultShape);
  IndexWalker walker(mapping, indices, operand.rank(), result.rank());
  std::vector<int64_t> operandStrides = RowMajorStrides(operandShape);
  std::vector<int64_t> position(result.rank(), 0), full(operand.rank(), 0);
  StopPoller poller;
  for (int64_t r = 0; r < result.num_elements();
       ++r, NextIndex(resultShape, absl::MakeSpan(position))) {
    poller.Tick();
    walker.Visit(position);
    for (int64_t d = 0; d < operand.rank(); ++d) {
      int64_t start = std::clamp<int64_t>(walker.start()[d], 0,
                                          std::max<int64_t>(operandShape[d] - sliceSizes[d], 0));
      full[d] = start + walker.offset()[d];
    }
    CopyElement(operand, Linearize(full, operandStrides), result, r);
  }
  return OneResult(std::move(result));
}

// Updates are applied in row-major order of the updates. An update window that does not
// fit in the inputs at its start position is skipped as a whole (XLA's behaviour; the
// spec leaves it to the implementation).
KernelResult RunScatter(hlo::ScatterOp op, KernelArgs args) {
  size_t n = op.getInputs().size();
  std::vector<ElementType> types;
  for (size_t i = 0; i < n; ++i) types.push_back(args.operands[i]->type());
  Combiner combiner(op.getUpdateComputation(), types, args.interpreter);
  absl::Span<const Tensor* const> operands = args.operands;
  absl::Span<const Tensor* const> inputs = operands.subspan(0, n);
  const Tensor& indices = *operands[n];
  absl::Span<const Tensor* const> updates = operands.subspan(n + 1, n);
  hlo::ScatterDimensionNumbersAttr dims = op.getScatterDimensionNumbers();
  IndexMapping mapping{dims.getUpdateWindowDims(),        dims.getInsertedWindowDims(),
                       dims.getInputBatchingDims(),       dims.getScatterIndicesBatchingDims(),
                       dims.getScatterDimsToOperandDims(), dims.getIndexVectorDim()};
  const Shape& inputShape = inputs[0]->shape();
  const Shape& updateShape = updates[0]->shape();
  int64_t rank = inputs[0]->rank();

  // Extent of an update window along each input dimension (1 where a dimension is
  // inserted or batching).
  IndexWalker walker(mapping, indices, rank, updates[0]->rank());
  std::vector<int64_t> windowSize(rank, 1);
  for (size_t w = 0; w < mapping.offset_dims.size(); ++w) {
    windowSize[walker.WindowDimension(w)] = updateShape[mapping.offset_dims[w]];
  }

  std::vector<Tensor> results;
  for (const Tensor* input : inputs) results.push_back(*input);
  std::vector<Tensor*> accs;
  for (Tensor& result : results) accs.push_back(&result);
  std::vector<int64_t> inputStrides = RowMajorStrides(inputShape);
  std::vector<int64_t> position(updateShape.size(), 0), full(rank, 0);
  StopPoller poller;
  for (int64_t u = 0; u < NumElements(updateShape);
       ++u, NextIndex(updateShape, absl::MakeSpan(position))) {
    poller.Tick();
    walker.Visit(position);
    bool fits = true;
    for (int64_t d = 0; d < rank && fits; ++d) {
      int64_t start = walker.start()[d];
      fits = start >= 0 && start <= inputShape[d] - windowSize[d];
      if (fits) full[d] = start + walker.offset()[d];
    }
    if (!fits) continue;
    TESSEL_RETURN_IF_ERROR(combiner.Combine(accs, Linearize(full, inputStrides), updates, u));
  }
  return results;
}

}  // namespace

void RegisterIndexingKernels(KernelRegistry& registry) {
  registry.Register<hlo::GatherOp>(RunGather);
  registry.Register<hlo::ScatterOp>(RunScatter);
}

}  // namespace tessel::runtime
