// Kernels of the ops with reducer regions: hlo.reduce, hlo.reduce_window and
// hlo.select_and_scatter. Every reduction folds its elements into the init value in
// row-major order, one element at a time, through a Combiner (native for single-op
// reducers, the interpreter otherwise), so both paths give the same bits; reduce and
// reduce_window run native reducers over whole rows in the same order.
#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "runtime/interpreter.h"
#include "runtime/kernels/combiner.h"
#include "runtime/kernels/elementwise_util.h"
#include "runtime/kernels/index_utils.h"
#include "runtime/kernels/kernels.h"
#include "runtime/run_limits.h"
#include "support/status_macros.h"

namespace tessel::runtime {
namespace {

using KernelResult = absl::StatusOr<std::vector<Tensor>>;

std::vector<ElementType> TypesOf(absl::Span<const Tensor* const> tensors) {
  std::vector<ElementType> types;
  for (const Tensor* tensor : tensors) types.push_back(tensor->type());
  return types;
}

// What reduce and reduce_window take: `n` inputs, then `n` init values, and the combiner
// of their reducer region.
struct ReductionOperands {
  ReductionOperands(mlir::Region& body, size_t n, const KernelArgs& args)
      : inputs(args.operands.subspan(0, n)),
        inits(args.operands.subspan(n, n)),
        combiner(body, TypesOf(inputs), args.interpreter) {}
  absl::Span<const Tensor* const> inputs;
  absl::Span<const Tensor* const> inits;
  Combiner combiner;
};

// Pointers to the tensors of `tensors`, as Combiner::Combine takes them.
std::vector<Tensor*> PointersTo(std::vector<Tensor>& tensors) {
  std::vector<Tensor*> pointers;
  for (Tensor& tensor : tensors) pointers.push_back(&tensor);
  return pointers;
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

// The window taps of the innermost dimension as a table: entry [w * rowLength + o] is the
// input coordinate tap w reads at output position o, or -1 in padding and dilation holes.
std::vector<int64_t> InnerCoordinates(const WindowDim& window, int64_t inputSize,
                                      int64_t rowLength) {
  std::vector<int64_t> table(window.size * rowLength);
  for (int64_t w = 0; w < window.size; ++w) {
    for (int64_t o = 0; o < rowLength; ++o) {
      table[w * rowLength + o] = window.InputCoordinate(inputSize, o, w);
    }
  }
  return table;
}

bool IsTrivial(const WindowDim& window) {
  return window.size == 1 && window.stride == 1 && window.pad_low == 0 &&
         window.pad_high == 0 && window.base_dilation == 1 && window.window_dilation == 1;
}

// Folds one window tap into a row of accumulators with a native reducer: acc[o] =
// fn(acc[o], element), where the element is init for a tap in padding (`base` < 0),
// x[base + o] when the innermost window is trivial, and x[base + table[o]] otherwise.
template <typename T, typename Fn>
void FoldTapIntoRow(T* __restrict acc, const T* __restrict x, T init, int64_t base,
                    const int64_t* table, bool contiguous, int64_t length, Fn fn) {
  // Fixed-length blocks: what GCC's -O2 cost model vectorises (see elementwise_util.h).
  constexpr int64_t kBlock = static_cast<int64_t>(kElementwiseBlock);
  if (base < 0) {
    int64_t o = 0;
    for (; o + kBlock <= length; o += kBlock) {
      for (int64_t i = 0; i < kBlock; ++i) acc[o + i] = fn(acc[o + i], init);
    }
    for (; o < length; ++o) acc[o] = fn(acc[o], init);
  } else if (contiguous) {
    const T* in = x + base;
    int64_t o = 0;
    for (; o + kBlock <= length; o += kBlock) {
      for (int64_t i = 0; i < kBlock; ++i) acc[o + i] = fn(acc[o + i], in[o + i]);
    }
    for (; o < length; ++o) acc[o] = fn(acc[o], in[o]);
  } else {
    for (int64_t o = 0; o < length; ++o) {
      int64_t c = table[o];
      acc[o] = fn(acc[o], c < 0 ? init : x[base + c]);
    }
  }
}

template <typename Fn>
auto WithFunctor(Combiner::Kind kind, Fn&& fn) {
  switch (kind) {
    case Combiner::Kind::kAdd: return fn(AddFn());
    case Combiner::Kind::kMul: return fn(MulFn());
    case Combiner::Kind::kMax: return fn(MaxFn());
    case Combiner::Kind::kMin: return fn(MinFn());
    case Combiner::Kind::kAnd: return fn(AndFn());
    case Combiner::Kind::kOr: return fn(OrFn());
  }
  return fn(AddFn());
}

// A reduce with a native reducer, by rows of the innermost dimension: the result
// elements get their input elements in row-major order, as Combine would give them, so
// the bits are the same. A reduced innermost dimension folds each row into one
// accumulator; a kept one folds the row into a row of accumulators. Large inputs whose
// first dimension is kept split it into ranges on the kernels' thread pool: the ranges
// write disjoint results.
template <typename T, typename Fn>
void FoldRows(const T* x, const Shape& shape, const std::vector<bool>& reduced,
              const std::vector<int64_t>& inputToResult, T* acc, Fn fn) {
  const size_t inner = shape.size() - 1;
  const int64_t rowLength = shape[inner];
  const int64_t count = NumElements(shape);
  if (count == 0) return;
  const Shape outerShape(shape.begin(), shape.end() - 1);
  // Where a row starts in the input and in the results, by its outer coordinates.
  std::vector<int64_t> rowStrides = RowMajorStrides(shape);
  rowStrides.pop_back();
  const absl::Span<const int64_t> rowToResult(inputToResult.data(), inner);
  // Folds the rows whose first coordinate lies in [begin, end) (all rows at rank 1). Only
  // the calling thread may poll for a stop, and only outside ParallelFor, which polls
  // between ranges itself: an OpStopped thrown inside it would leave its helpers running.
  auto foldRows = [&](int64_t begin, int64_t end, bool poll) {
    std::vector<int64_t> index(outerShape.size(), 0);
    int64_t rows = NumElements(outerShape);
    if (!outerShape.empty()) {
      index[0] = begin;
      rows = rows / outerShape[0] * (end - begin);
    }
    StopPoller poller(16);
    for (int64_t r = 0; r < rows; ++r, NextIndex(outerShape, absl::MakeSpan(index))) {
      if (poll) poller.Tick();
      const T* row = x + Linearize(index, rowStrides);
      T* out = acc + Linearize(index, rowToResult);
      if (reduced[inner]) {
        T value = *out;
        for (int64_t j = 0; j < rowLength; ++j) value = fn(value, row[j]);
        *out = value;
      } else {
        FoldTapIntoRow(out, row, T(), 0, nullptr, /*contiguous=*/true, rowLength, fn);
      }
    }
  };
  if (count < static_cast<int64_t>(kParallelElements) || outerShape.empty() || reduced[0] ||
      shape[0] < 2) {
    foldRows(0, outerShape.empty() ? 1 : shape[0], /*poll=*/true);
    return;
  }
  const int64_t chunks = std::min<int64_t>(shape[0], 4 * ParallelWorkers());
  ParallelFor(chunks, [&](int64_t chunk) {
    foldRows(shape[0] * chunk / chunks, shape[0] * (chunk + 1) / chunks, /*poll=*/false);
  });
}

KernelResult RunReduce(hlo::ReduceOp op, KernelArgs args) {
  size_t n = op.getInputs().size();
  ReductionOperands reduction(op.getBody(), n, args);
  const absl::Span<const Tensor* const> inputs = reduction.inputs, inits = reduction.inits;
  Combiner& combiner = reduction.combiner;
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
  if (n == 1 && combiner.is_native() && !shape.empty()) {
    return DispatchElementType(inputs[0]->type(), [&](auto tag) -> KernelResult {
      using T = typename decltype(tag)::type;
      return WithFunctor(combiner.native_kind(), [&](auto fn) -> KernelResult {
        if constexpr (!decltype(fn)::template kAccepts<T>) {
          return UnsupportedElementType(ElementTypeOf<T>());
        } else {
          FoldRows(inputs[0]->data<T>().data(), shape, reduced, inputToResult,
                   results[0].data<T>().data(), fn);
          return std::move(results);
        }
      });
    });
  }
  std::vector<Tensor*> accs = PointersTo(results);
  std::vector<int64_t> index(shape.size(), 0);
  int64_t count = NumElements(shape);
  StopPoller poller;
  for (int64_t i = 0; i < count; ++i, NextIndex(shape, absl::MakeSpan(index))) {
    poller.Tick();
    TESSEL_RETURN_IF_ERROR(
        combiner.Combine(accs, Linearize(index, inputToResult), inputs, i));
  }
  return results;
}


// Every output element folds the init value, then its window's elements in row-major
// window order (padding and base-dilation holes contribute the init value, which matters
// when it is not the reducer's identity). The loops run output rows along the innermost
// dimension: for each row and each window tap, the outer dimensions' coordinates are
// computed once and the whole row folds that tap, so each output element still sees its
// taps in row-major order while the per-element work is a load and the reducer.
KernelResult RunReduceWindow(hlo::ReduceWindowOp op, KernelArgs args) {
  size_t n = op.getInputs().size();
  ReductionOperands reduction(op.getBody(), n, args);
  const absl::Span<const Tensor* const> inputs = reduction.inputs, inits = reduction.inits;
  Combiner& combiner = reduction.combiner;
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
  if (NumElements(resultShape) == 0) return results;
  if (shape.empty()) {
    TESSEL_RETURN_IF_ERROR(combiner.Combine(accs, 0, inputs, 0));
    return results;
  }

  const size_t inner = shape.size() - 1;
  const int64_t rowLength = resultShape[inner];
  const bool contiguous = IsTrivial(window[inner]);
  const std::vector<int64_t> table =
      contiguous ? std::vector<int64_t>() : InnerCoordinates(window[inner], shape[inner], rowLength);
  Shape outerShape(resultShape.begin(), resultShape.end() - 1);
  std::vector<int64_t> inputStrides = RowMajorStrides(shape);
  std::vector<int64_t> out(inner, 0), w(shape.size(), 0);
  int64_t rows = NumElements(outerShape), windowCount = NumElements(windowShape);

  // Calls tap(row, base, taps) for every output row and window tap in fold order, where
  // base is the input offset of the outer coordinates (-1 in padding) and taps the row's
  // inner coordinate table for the tap (unused when the inner window is trivial).
  auto forEachRowTap = [&](auto&& tap) -> absl::Status {
    StopPoller poller(16);
    for (int64_t r = 0; r < rows; ++r, NextIndex(outerShape, absl::MakeSpan(out))) {
      poller.Tick();
      for (int64_t k = 0; k < windowCount; ++k, NextIndex(windowShape, absl::MakeSpan(w))) {
        int64_t base = 0;
        for (size_t d = 0; d < inner && base >= 0; ++d) {
          int64_t coordinate = window[d].InputCoordinate(shape[d], out[d], w[d]);
          base = coordinate < 0 ? -1 : base + coordinate * inputStrides[d];
        }
        const int64_t* taps = contiguous ? nullptr : table.data() + w[inner] * rowLength;
        TESSEL_RETURN_IF_ERROR(tap(r, base, taps));
      }
    }
    return absl::OkStatus();
  };

  if (combiner.is_native()) {
    return DispatchElementType(inputs[0]->type(), [&](auto tag) -> KernelResult {
      using T = typename decltype(tag)::type;
      T* acc = results[0].data<T>().data();
      const T* x = inputs[0]->data<T>().data();
      const T init = inits[0]->data<T>()[0];
      return WithFunctor(combiner.native_kind(), [&](auto fn) -> KernelResult {
        using F = decltype(fn);
        if constexpr (!F::template kAccepts<T>) {
          return UnsupportedElementType(ElementTypeOf<T>());
        } else {
          TESSEL_RETURN_IF_ERROR(forEachRowTap([&](int64_t r, int64_t base, const int64_t* taps) {
            FoldTapIntoRow(acc + r * rowLength, x, init, base, taps, contiguous, rowLength, fn);
            return absl::OkStatus();
          }));
          return std::move(results);
        }
      });
    });
  }
  TESSEL_RETURN_IF_ERROR(forEachRowTap([&](int64_t r, int64_t base, const int64_t* taps) {
    for (int64_t o = 0; o < rowLength; ++o) {
      int64_t c = base < 0 ? -1 : contiguous ? o : taps[o];
      TESSEL_RETURN_IF_ERROR(c < 0 ? combiner.Combine(accs, r * rowLength + o, inits, 0)
                                   : combiner.Combine(accs, r * rowLength + o, inputs, base + c));
    }
    return absl::OkStatus();
  }));
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
  StopPoller poller(256);
  for (int64_t s = 0; s < sourceCount; ++s, NextIndex(sourceShape, absl::MakeSpan(out))) {
    poller.Tick();
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
