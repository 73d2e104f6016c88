// Kernels of the ops that run regions as control flow or have no executable semantics:
// hlo.sort, hlo.while, hlo.case and hlo.custom_call; and hlo.top_k, a sort with a fixed
// order.
#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "absl/strings/str_cat.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "runtime/interpreter.h"
#include "runtime/kernels/element_convert.h"
#include "runtime/kernels/elementwise_util.h"
#include "runtime/kernels/index_utils.h"
#include "runtime/kernels/kernels.h"
#include "runtime/kernels/scalar_region.h"
#include "support/status_macros.h"

namespace tessel::runtime {
namespace {

using KernelResult = absl::StatusOr<std::vector<Tensor>>;

// Reads a region's single rank-0 pred result.
absl::StatusOr<bool> PredResult(const std::vector<Tensor>& results, absl::string_view what) {
  if (results.size() != 1 || results[0].rank() != 0 ||
      results[0].type() != ElementType::kPred) {
    return absl::InvalidArgumentError(absl::StrCat(what, " must return one rank-0 pred"));
  }
  return results[0].data<bool>()[0];
}

// Stable merge sort of `order` by `less`. std::stable_sort is not used because its
// insertion-sort step assumes a strict weak order and may read out of bounds when the
// comparator is not one, and the comparator here is user code.
template <typename Less>
void MergeSort(std::vector<int64_t>& order, Less less) {
  int64_t n = static_cast<int64_t>(order.size());
  std::vector<int64_t> buffer(order.size());
  for (int64_t width = 1; width < n; width *= 2) {
    for (int64_t lo = 0; lo < n; lo += 2 * width) {
      int64_t mid = std::min(lo + width, n), hi = std::min(lo + 2 * width, n);
      int64_t i = lo, j = mid, k = lo;
      // Taking from the right only when it is strictly less keeps equal elements in order.
      while (i < mid && j < hi) buffer[k++] = less(order[j], order[i]) ? order[j++] : order[i++];
      while (i < mid) buffer[k++] = order[i++];
      while (j < hi) buffer[k++] = order[j++];
    }
    order.swap(buffer);
  }
}

// Sorts every 1-D slice along `dimension`. The comparator gets (a_0, b_0, a_1, b_1, ...)
// and returns true when a goes before b. The sort is always stable, which is also a valid
// answer when is_stable is absent.
KernelResult RunSort(hlo::SortOp op, KernelArgs args) {
  absl::Span<const Tensor* const> inputs = args.operands;
  size_t n = inputs.size();
  const Shape& shape = inputs[0]->shape();
  int64_t dimension = static_cast<int64_t>(op.getDimension());
  int64_t length = shape[dimension];
  int64_t stride = RowMajorStrides(shape)[dimension];
  std::vector<Tensor> results;
  for (const Tensor* input : inputs) results.push_back(*input);
  if (length <= 1) return results;

  absl::Status status = absl::OkStatus();
  int64_t base = 0;  // position of the slice's first element
  // The usual comparator (compares, selects, constants) runs on scalars; any other goes
  // through the interpreter, a region walk with tensors per comparison.
  const std::optional<ScalarRegion> fast = ScalarRegion::Compile(op.getComparator());
  std::vector<Scalar> scalarArgs(2 * n);
  auto fastLess = [&](int64_t x, int64_t y) {
    for (size_t i = 0; i < n; ++i) {
      scalarArgs[2 * i] = ReadScalar(*inputs[i], base + x * stride);
      scalarArgs[2 * i + 1] = ReadScalar(*inputs[i], base + y * stride);
    }
    return fast->Run(scalarArgs).bits != 0;
  };
  auto less = [&](int64_t x, int64_t y) {
    if (fast) return fastLess(x, y);
    if (!status.ok()) return false;  // after a failure, finish quickly; the error wins
    std::vector<Tensor> scalars;
    scalars.reserve(2 * n);
    for (const Tensor* input : inputs) {
      scalars.push_back(ElementAsScalar(*input, base + x * stride));
      scalars.push_back(ElementAsScalar(*input, base + y * stride));
    }
    std::vector<const Tensor*> pointers;
    for (const Tensor& scalar : scalars) pointers.push_back(&scalar);
    absl::StatusOr<std::vector<Tensor>> out =
        args.interpreter.RunRegion(op.getComparator(), pointers);
    absl::StatusOr<bool> result =
        out.ok() ? PredResult(*out, "comparator") : absl::StatusOr<bool>(out.status());
    if (!result.ok()) {
      status = result.status();
      return false;
    }
    return *result;
  };

  // Every slice starts at an index whose `dimension` coordinate is 0.
  Shape outerShape = shape;
  outerShape[dimension] = 1;
  std::vector<int64_t> strides = RowMajorStrides(shape);
  std::vector<int64_t> outer(shape.size(), 0);
  std::vector<int64_t> order(length);
  for (int64_t s = 0; s < NumElements(outerShape);
       ++s, NextIndex(outerShape, absl::MakeSpan(outer))) {
    base = Linearize(outer, strides);
    for (int64_t i = 0; i < length; ++i) order[i] = i;
    MergeSort(order, less);
    TESSEL_RETURN_IF_ERROR(status);
    for (size_t k = 0; k < n; ++k) {
      for (int64_t i = 0; i < length; ++i) {
        CopyElement(*inputs[k], base + order[i] * stride, results[k], base + i * stride);
      }
    }
  }
  return results;
}

// For every row along the minor dimension: the positions of its k largest (or smallest)
// elements, best first, ties by position, and those elements.
KernelResult RunTopK(hlo::TopKOp op, KernelArgs args) {
  const Tensor& x = *args.operands[0];
  const int64_t k = static_cast<int64_t>(op.getK());
  const bool smallest = op.getSmallest();
  const int64_t length = x.shape().back();
  const int64_t rows = length == 0 ? 0 : x.num_elements() / length;
  Tensor indices = Tensor::Zeros(ElementType::kS32, ResultShape(op, 1));
  Tensor values = Tensor::Uninitialized(x.type(), ResultShape(op, 0));
  absl::Span<int32_t> outIndices = indices.data<int32_t>();
  return DispatchElementType(x.type(), [&](auto tag) -> KernelResult {
    using T = typename decltype(tag)::type;
    if constexpr (kIsPred<T> || kIsComplex<T>) {
      return absl::InvalidArgumentError(
          absl::StrCat("top_k of ", ElementTypeName(x.type()), " is not supported"));
    } else {
      absl::Span<const T> in = x.data<T>();
      absl::Span<T> outValues = values.data<T>();
      std::vector<int64_t> order(length);
      for (int64_t row = 0; row < rows; ++row) {
        const T* r = in.data() + row * length;
        for (int64_t i = 0; i < length; ++i) order[i] = i;
        // A strict weak order on positions: partial_sort's result is then fully determined,
        // since ties are broken by position.
        std::partial_sort(order.begin(), order.begin() + k, order.end(),
                          [&](int64_t a, int64_t b) {
                            auto key = [](T x) {
                              if constexpr (kIsFloat<T>) {
                                return TotalOrderKey(x);
                              } else {
                                return x;
                              }
                            };
                            auto ka = key(r[a]), kb = key(r[b]);
                            if (ka != kb) return smallest ? ka < kb : ka > kb;
                            return a < b;
                          });
        for (int64_t i = 0; i < k; ++i) {
          outValues[row * k + i] = r[order[i]];
          outIndices[row * k + i] = static_cast<int32_t>(order[i]);
        }
      }
      return std::vector<Tensor>{std::move(values), std::move(indices)};
    }
  });
}

KernelResult RunWhile(hlo::WhileOp op, KernelArgs args) {
  // The loop state is the kernel's own: each iteration replaces it.
  std::vector<Tensor> state;
  for (const Tensor* input : args.operands) state.push_back(*input);
  while (true) {
    std::vector<const Tensor*> pointers;
    for (const Tensor& value : state) pointers.push_back(&value);
    TESSEL_ASSIGN_OR_RETURN(std::vector<Tensor> cond,
                            args.interpreter.RunRegion(op.getCond(), pointers));
    TESSEL_ASSIGN_OR_RETURN(bool more, PredResult(cond, "cond region"));
    if (!more) return state;
    TESSEL_ASSIGN_OR_RETURN(std::vector<Tensor> next,
                            args.interpreter.RunRegion(op.getBody(), pointers));
    if (next.size() != state.size()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "body region returned ", next.size(), " values, expected ", state.size()));
    }
    state = std::move(next);
  }
}

KernelResult RunCase(hlo::CaseOp op, KernelArgs args) {
  int64_t index = ReadInteger(*args.operands[0], 0);
  int64_t count = static_cast<int64_t>(op.getBranches().size());
  if (count == 0) return absl::InvalidArgumentError("case has no branches");
  // XLA runs the last branch for any index outside [0, count).
  if (index < 0 || index >= count) index = count - 1;
  return args.interpreter.RunRegion(op.getBranches()[index], {});
}

KernelResult RunCustomCall(hlo::CustomCallOp op, KernelArgs) {
  return absl::UnimplementedError(absl::StrCat("custom_call target \"",
                                               op.getCallTargetName().str(),
                                               "\" has no executor implementation"));
}

}  // namespace

void RegisterControlKernels(KernelRegistry& registry) {
  registry.Register<hlo::SortOp>(RunSort);
  registry.Register<hlo::TopKOp>(RunTopK);
  registry.Register<hlo::WhileOp>(RunWhile);
  registry.Register<hlo::CaseOp>(RunCase);
  registry.Register<hlo::CustomCallOp>(RunCustomCall);
}

}  // namespace tessel::runtime
