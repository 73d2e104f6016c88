// Tensor comparison with a float tolerance (tensor_compare.h).
#include "partitioner/api/tensor_compare.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <string>
#include <type_traits>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "runtime/element_type.h"

namespace tessel {
namespace {

// How many ulps of a tensor's largest magnitude any element may be off.
constexpr double kUlpsOfLargest = 16;

// An element as a complex double, so that one loop measures |got - want| for real and
// complex types alike (a real element has a zero imaginary part, and |x + 0i| is |x|).
template <typename T>
std::complex<double> AsComplex(T x) {
  if constexpr (runtime::kIsComplex<T>) {
    return {static_cast<double>(x.real()), static_cast<double>(x.imag())};
  } else {
    return {static_cast<double>(x), 0.0};
  }
}

bool IsNan(std::complex<double> x) { return std::isnan(x.real()) || std::isnan(x.imag()); }

// A real element as a number, a complex one as "(re, im)".
std::string Format(std::complex<double> x, bool complex) {
  return complex ? absl::StrCat("(", x.real(), ", ", x.imag(), ")") : absl::StrCat(x.real());
}

}  // namespace

TensorComparison CompareTensors(const runtime::Tensor& got, const runtime::Tensor& want,
                                double relative_tolerance, double absolute_tolerance) {
  TensorComparison result;
  if (got.type() != want.type() || got.shape() != want.shape()) {
    result.matches = false;
    result.mismatch = absl::StrCat("got ", got.ShapeString(), ", expected ", want.ShapeString());
    return result;
  }
  const bool complex = runtime::IsComplex(want.type());
  if (!runtime::IsFloat(want.type()) && !complex) {
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
        const double b = std::abs(AsComplex(w[i]));
        if (std::isfinite(b)) largest = std::max(largest, b);
      }
      const double relative = std::max(relative_tolerance, 2 * epsilon);
      const double absolute = absolute_tolerance + kUlpsOfLargest * epsilon * largest;
      result.absolute_bound = absolute;
      int64_t worst = -1;
      double worstRatio = 0;
      for (int64_t i = 0; i < want.num_elements(); ++i) {
        const std::complex<double> a = AsComplex(g[i]), b = AsComplex(w[i]);
        if ((IsNan(a) && IsNan(b)) || a == b) continue;  // equal infinities too
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
        const std::complex<double> a = AsComplex(g[worst]), b = AsComplex(w[worst]);
        std::vector<int64_t> index(want.shape().size());
        for (int64_t d = static_cast<int64_t>(index.size()) - 1, rest = worst; d >= 0; --d) {
          index[d] = rest % want.shape()[d];
          rest /= want.shape()[d];
        }
        result.matches = false;
        result.mismatch = absl::StrCat(
            "element ", worst, " [", absl::StrJoin(index, ", "), "]: got ", Format(a, complex),
            ", expected ", Format(b, complex), ", |difference| ", std::abs(a - b), " > tolerance ",
            absolute + relative * std::abs(b), " (atol ", absolute_tolerance, " + rtol ", relative,
            " * |expected| + ", kUlpsOfLargest, " ulps of the largest |expected| ", largest, ")");
      }
    }
  });
  return result;
}

}  // namespace tessel
