// Kernels of the ops that run regions as control flow or have no executable semantics:
// hlo.while, hlo.case and hlo.custom_call; and hlo.top_k, a sort with a fixed order
// (hlo.sort has its own file, sort_kernels.cc).
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
      std::vector<Tensor> results;
      results.push_back(std::move(values));
      results.push_back(std::move(indices));
      return results;
    }
  });
}

KernelResult RunWhile(hlo::WhileOp op, KernelArgs args) {
  // The loop state is the kernel's own: each iteration hands it to the body, which may
  // write over it, and takes the body's results. Inputs nothing reads after the loop are
  // moved in rather than copied.
  std::vector<Tensor> state;
  for (size_t i = 0; i < args.operands.size(); ++i) {
    // Not one push_back of `input ? std::move(*input) : *operand`: that expression is a
    // const prvalue, which push_back would copy.
    if (Tensor* input = args.Overwritable(i)) {
      state.push_back(std::move(*input));
    } else {
      state.push_back(*args.operands[i]);
    }
  }
  for (int64_t iteration = 1;; ++iteration) {
    // A stop that lands inside the regions names the op it stopped before; the loop adds
    // the iteration it was in.
    auto inIteration = [&](const absl::Status& status) {
      if (!args.interpreter.stopped()) return status;
      return absl::Status(status.code(),
                          absl::StrCat("iteration ", iteration, ": ", status.message()));
    };
    std::vector<const Tensor*> pointers;
    for (const Tensor& value : state) pointers.push_back(&value);
    absl::StatusOr<std::vector<Tensor>> cond = args.interpreter.RunRegion(op.getCond(), pointers);
    if (!cond.ok()) return inIteration(cond.status());
    TESSEL_ASSIGN_OR_RETURN(bool more, PredResult(*cond, "cond region"));
    if (!more) return state;
    // Before each run of the body, so that a loop of exactly the limit's iterations runs.
    // Checked here as well as between ops: a loop whose regions run no op (a cond that
    // returns a captured value) would otherwise never see a stop.
    TESSEL_RETURN_IF_ERROR(args.interpreter.CheckWhileIteration(iteration));
    const size_t stateSize = state.size();
    absl::StatusOr<std::vector<Tensor>> body =
        args.interpreter.RunRegionOwning(op.getBody(), std::move(state));
    if (!body.ok()) return inIteration(body.status());
    std::vector<Tensor> next = *std::move(body);
    if (next.size() != stateSize) {
      return absl::InvalidArgumentError(absl::StrCat(
          "body region returned ", next.size(), " values, expected ", stateSize));
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
  registry.Register<hlo::TopKOp>(RunTopK);
  registry.Register<hlo::WhileOp>(RunWhile);
  registry.Register<hlo::CaseOp>(RunCase);
  registry.Register<hlo::CustomCallOp>(RunCustomCall);
}

}  // namespace tessel::runtime
