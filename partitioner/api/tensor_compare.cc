// Tensor comparison with a float tolerance (tensor_compare.h).
#include "partitioner/api/tensor_compare.h"

#include <algorithm>
#include <cmath>
#include <type_traits>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "runtime/element_type.h"

namespace tessel {
namespace {

// How many ulps of a tensor's largest magnitude any element may be off.
constexpr double kUlpsOfLargest = 16;

}  // namespace

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
      // Sums added in another order differ by rounding errors of the size of the terms, not
      // of the result: an element that cancels to near zero may be off by a few ulps of the
      // tensor's largest magnitude. So the bound also grows with that magnitude, and with
      // the type's precision (an ulp of bf16 is 2^-7).
      const double epsilon = static_cast<double>(Eigen::NumTraits<T>::epsilon());
      double largest = 0;
      for (int64_t i = 0; i < want.num_elements(); ++i) {
        const double b = std::abs(static_cast<double>(w[i]));
        if (std::isfinite(b)) largest = std::max(largest, b);
      }
      const double relative = std::max(relative_tolerance, 2 * epsilon);
      const double absolute = absolute_tolerance + kUlpsOfLargest * epsilon * largest;
      result.absolute_bound = absolute;
      int64_t worst = -1;
      double worstRatio = 0;
      for (int64_t i = 0; i < want.num_elements(); ++i) {
        double a = static_cast<double>(g[i]), b = static_cast<double>(w[i]);
        if ((std::isnan(a) && std::isnan(b)) || a == b) continue;  // equal infinities too
        double error = std::abs(a - b);
        result.max_abs_difference = std::max(result.max_abs_difference, error);
        const double bound = absolute + relative * std::abs(b);
        // Written so that a NaN on one side only fails the test (and is the worst).
        if (!(error <= bound)) {
          const double ratio = std::isnan(error) ? INFINITY : error / bound;
          if (worst < 0 || ratio > worstRatio) worst = i, worstRatio = ratio;
        }
      }
      if (worst >= 0) {
        const double a = static_cast<double>(g[worst]), b = static_cast<double>(w[worst]);
        std::vector<int64_t> index(want.shape().size());
        for (int64_t d = static_cast<int64_t>(index.size()) - 1, rest = worst; d >= 0; --d) {
          index[d] = rest % want.shape()[d];
          rest /= want.shape()[d];
        }
        result.matches = false;
        result.mismatch = absl::StrCat(
            "element ", worst, " [", absl::StrJoin(index, ", "), "]: got ", a, ", expected ", b,
            ", |difference| ", std::abs(a - b), " > tolerance ", absolute + relative * std::abs(b),
            " (atol ", absolute_tolerance, " + rtol ", relative, " * |expected| + ",
            kUlpsOfLargest, " ulps of the largest |expected| ", largest, ")");
      }
    }
  });
  return result;
}

}  // namespace tessel
