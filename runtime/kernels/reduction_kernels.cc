// Kernels of the ops with reducer regions: hlo.reduce, hlo.reduce_window and
// hlo.select_and_scatter. Every reduction folds its elements into the init value in
// row-major order, one element at a time, through a Combiner (native for single-op
// reducers, the interpreter otherwise), so both paths give the same bits.
#include <optional>
#include <vector>

#include "absl/strings/str_cat.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "runtime/interpreter.h"
#include "runtime/kernels/combiner.h"
#include "runtime/kernels/index_utils.h"
#include "runtime/kernels/kernels.h"
#include "support/status_macros.h"

namespace tessel::runtime {
namespace {

using KernelResult = absl::StatusOr<std::vector<Tensor>>;

std::vector<ElementType> TypesOf(absl::Span<const Tensor* const> tensors) {
  std::vector<ElementType> types;
  for (const Tensor* tensor : tensors) types.push_back(tensor->type());
  return types;
}

// Pointers to the tensors of `tensors`, as Combiner::Combine takes them.
std::vector<Tensor*> PointersTo(std::vector<Tensor>& tensors) {
  std::vector<Tensor*> pointers;
  for (Tensor& tensor : tensors) pointers.push_back(&tensor);
  return pointers;
}

KernelResult RunReduce(hlo::ReduceOp op, KernelArgs args) {
  size_t n = op.getInputs().size();
  Combiner combiner(op.getBody(), TypesOf(args.operands.subspan(0, n)), args.interpreter);
  absl::Span<const Tensor* const> operands = args.operands;
  absl::Span<const Tensor* const> inputs = operands.subspan(0, n);
  absl::Span<const Tensor* const> inits = operands.subspan(n, n);
  const Shape& shape = inputs[0]->shape();
  std::vector<bool> reduced(shape.size(), false);
  for (int64_t d : op.getDimensions()) reduced[d] = true;
  Shape resultShape;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (!reduced[d]) resultShape.push_back(shape[d]);
  }
  // An input index maps to the result through these strides: 0 along reduced dimensions.
  std::vector<int64_t> resultStrides = RowMajorStrides(resultShape);
  std::vector<int64_t> inputToResult(shape.size(), 0);
  for (size_t d = 0, r = 0; d < shape.size(); ++d) {
    if (!reduced[d]) inputToResult[d] = resultStrides[r++];
  }

  std::vector<Tensor> results;
  for (const Tensor* init : inits) results.push_back(Filled(*init, resultShape));
  std::vector<Tensor*> accs = PointersTo(results);
  std::vector<int64_t> index(shape.size(), 0);
  int64_t count = NumElements(shape);
  for (int64_t i = 0; i < count; ++i, NextIndex(shape, absl::MakeSpan(index))) {
    TESSEL_RETURN_IF_ERROR(
        combiner.Combine(accs, Linearize(index, inputToResult), inputs, i));
  }
  return results;
}

// Checks the shape computed from the window against the op's result type, so that the
// kernel never returns a tensor whose shape differs from what the IR states.
absl::Status CheckResultShape(mlir::Type type, const Shape& computed) {
  auto tensorType = llvm::cast<mlir::RankedTensorType>(type);
  if (Shape(tensorType.getShape().begin(), tensorType.getShape().end()) != computed) {
    return absl::InvalidArgumentError("result shape does not match the window geometry");
  }
  return absl::OkStatus();
}

KernelResult RunReduceWindow(hlo::ReduceWindowOp op, KernelArgs args) {
  size_t n = op.getInputs().size();
  Combiner combiner(op.getBody(), TypesOf(args.operands.subspan(0, n)), args.interpreter);
  absl::Span<const Tensor* const> operands = args.operands;
  absl::Span<const Tensor* const> inputs = operands.subspan(0, n);
  absl::Span<const Tensor* const> inits = operands.subspan(n, n);
  const Shape& shape = inputs[0]->shape();
  std::vector<WindowDim> window =
      MakeWindow(op.getWindowDimensions(), op.getWindowStrides(), op.getBaseDilations(),
                 op.getWindowDilations(), op.getPadding());
  Shape resultShape, windowShape;
  for (size_t d = 0; d < shape.size(); ++d) {
    resultShape.push_back(window[d].OutputSize(shape[d]));
    windowShape.push_back(window[d].size);
  }
  TESSEL_RETURN_IF_ERROR(CheckResultShape(op.getResult(0).getType(), resultShape));

  std::vector<Tensor> results;
  for (const Tensor* init : inits) results.push_back(Filled(*init, resultShape));
  std::vector<Tensor*> accs = PointersTo(results);
  std::vector<int64_t> inputStrides = RowMajorStrides(shape);
  std::vector<int64_t> out(shape.size(), 0), w(shape.size(), 0);
  int64_t outCount = NumElements(resultShape), windowCount = NumElements(windowShape);
  for (int64_t o = 0; o < outCount; ++o, NextIndex(resultShape, absl::MakeSpan(out))) {
    for (int64_t k = 0; k < windowCount; ++k, NextIndex(windowShape, absl::MakeSpan(w))) {
      int64_t linear = 0;
      for (size_t d = 0; d < shape.size() && linear >= 0; ++d) {
        int64_t coordinate = window[d].InputCoordinate(shape[d], out[d], w[d]);
        linear = coordinate < 0 ? -1 : linear + coordinate * inputStrides[d];
      }
      // Padding and base-dilation holes hold the init value, which is folded in like any
      // element (it matters when the init value is not the reducer's identity).
      if (linear < 0) {
        TESSEL_RETURN_IF_ERROR(combiner.Combine(accs, o, inits, 0));
      } else {
        TESSEL_RETURN_IF_ERROR(combiner.Combine(accs, o, inputs, linear));
      }
    }
  }
  return results;
}

// Runs the select region on two operand elements: true keeps the first.
absl::StatusOr<bool> Select(mlir::Region& region, Interpreter& interpreter,
                            const Tensor& operand, int64_t current, int64_t candidate) {
  Tensor a = ElementAsScalar(operand, current), b = ElementAsScalar(operand, candidate);
  const Tensor* regionArgs[] = {&a, &b};
  TESSEL_ASSIGN_OR_RETURN(std::vector<Tensor> results,
                          interpreter.RunRegion(region, regionArgs));
  if (results.size() != 1 || results[0].type() != ElementType::kPred ||
      results[0].rank() != 0) {
    return absl::InvalidArgumentError("select region must return one rank-0 pred");
  }
  return results[0].data<bool>()[0];
}

// For each source element (row-major), the select region is folded over the window's
// operand elements in row-major window order: the first element is the candidate, and a
// later element replaces it when select(candidate, element) is false. Padding is never
// selected, so a window lying wholly in padding drops its source element. The source
// element is then combined into the selected result position with the scatter region,
// as (current result value, source value).
KernelResult RunSelectAndScatter(hlo::SelectAndScatterOp op, KernelArgs args) {
  const Tensor& operand = *args.operands[0];
  const Tensor& source = *args.operands[1];
  const Tensor& init = *args.operands[2];
  const Shape& shape = operand.shape();
  std::vector<WindowDim> window = MakeWindow(op.getWindowDimensions(), op.getWindowStrides(),
                                             std::nullopt, std::nullopt, op.getPadding());
  Shape sourceShape, windowShape;
  for (size_t d = 0; d < shape.size(); ++d) {
    sourceShape.push_back(window[d].OutputSize(shape[d]));
    windowShape.push_back(window[d].size);
  }
  if (source.shape() != sourceShape) {
    return absl::InvalidArgumentError("source shape does not match the window geometry");
  }

  std::vector<Tensor> results;
  results.push_back(Filled(init, shape));
  std::vector<Tensor*> accs = PointersTo(results);
  const Tensor* sources[] = {&source};
  Combiner scatter(op.getScatter(), {operand.type()}, args.interpreter);
  std::vector<int64_t> strides = RowMajorStrides(shape);
  std::vector<int64_t> out(shape.size(), 0), w(shape.size(), 0);
  int64_t sourceCount = NumElements(sourceShape), windowCount = NumElements(windowShape);
  for (int64_t s = 0; s < sourceCount; ++s, NextIndex(sourceShape, absl::MakeSpan(out))) {
    int64_t selected = -1;
    for (int64_t k = 0; k < windowCount; ++k, NextIndex(windowShape, absl::MakeSpan(w))) {
      int64_t linear = 0;
      for (size_t d = 0; d < shape.size() && linear >= 0; ++d) {
        int64_t coordinate = window[d].InputCoordinate(shape[d], out[d], w[d]);
        linear = coordinate < 0 ? -1 : linear + coordinate * strides[d];
      }
      if (linear < 0) continue;
      if (selected < 0) {
        selected = linear;
        continue;
      }
      TESSEL_ASSIGN_OR_RETURN(
          bool keep, Select(op.getSelect(), args.interpreter, operand, selected, linear));
      if (!keep) selected = linear;
    }
    if (selected >= 0) TESSEL_RETURN_IF_ERROR(scatter.Combine(accs, selected, sources, s));
  }
  return results;
}

}  // namespace

void RegisterReductionKernels(KernelRegistry& registry) {
  registry.Register<hlo::ReduceOp>(RunReduce);
  registry.Register<hlo::ReduceWindowOp>(RunReduceWindow);
  registry.Register<hlo::SelectAndScatterOp>(RunSelectAndScatter);
}

}  // namespace tessel::runtime
