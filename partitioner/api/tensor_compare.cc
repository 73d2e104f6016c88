// Tensor comparison with a float tolerance (tensor_compare.h).
#include "partitioner/api/tensor_compare.h"

#include <algorithm>
#include <cmath>
#include <type_traits>

#include "absl/strings/str_cat.h"
#include "runtime/element_type.h"

namespace tessel {

TensorComparison CompareTensors(const runtime::Tensor& got, const runtime::Tensor& want,
                                double relative_tolerance, double absolute_tolerance) {
  TensorComparison result;
  if (got.type() != want.type() || got.shape() != want.shape()) {
    result.matches = false;
    result.mismatch = absl::StrCat("got ", got.ShapeString(), ", expected ", want.ShapeString());
    return result;
  }
  if (!runtime::IsFloat(want.type())) {
    result.exact = true;
    if (!got.BitwiseEquals(want)) {
      result.matches = false;
      result.mismatch = absl::StrCat("got ", got.ToString(16), ", expected ", want.ToString(16));
    }
    return result;
  }
  runtime::DispatchElementType(want.type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (!std::is_same_v<T, bool> && !std::is_integral_v<T>) {
      auto g = got.data<T>(), w = want.data<T>();
      for (int64_t i = 0; i < want.num_elements(); ++i) {
        double a = static_cast<double>(g[i]), b = static_cast<double>(w[i]);
        if (std::isnan(a) && std::isnan(b)) continue;
        double error = std::abs(a - b);
        result.max_abs_difference = std::max(result.max_abs_difference, error);
        // Written so that a NaN on one side only fails the test.
        if (!(error <= absolute_tolerance + relative_tolerance * std::abs(b)) &&
            result.matches) {
          result.matches = false;
          result.mismatch = absl::StrCat("element ", i, ": got ", a, ", expected ", b);
        }
      }
    }
  });
  return result;
}

}  // namespace tessel
