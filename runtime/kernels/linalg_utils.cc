// The matrix product behind dot_general and convolution; Eigen's Tensor module stays out of
// the header so that only this file pays for compiling it.
#include "runtime/kernels/linalg_utils.h"

#include <algorithm>

#include "unsupported/Eigen/CXX11/Tensor"

namespace tessel::runtime {

template <typename C>
void MatMul(const C* a, const C* b, C* out, int64_t m, int64_t k, int64_t n) {
  if (m == 0 || n == 0) return;
  if (k == 0) {
    // An empty sum.
    std::fill(out, out + m * n, C(0));
    return;
  }
  if constexpr (std::is_floating_point_v<C>) {
    using ConstMatrix = Eigen::TensorMap<const Eigen::Tensor<C, 2, Eigen::RowMajor>>;
    ConstMatrix lhs(a, m, k), rhs(b, k, n);
    Eigen::TensorMap<Eigen::Tensor<C, 2, Eigen::RowMajor>> result(out, m, n);
    Eigen::array<Eigen::IndexPair<Eigen::Index>, 1> contract = {
        Eigen::IndexPair<Eigen::Index>(1, 0)};
    result = lhs.contract(rhs, contract);
  } else {
    std::fill(out, out + m * n, C(0));
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t p = 0; p < k; ++p) {
        C x = a[i * k + p];
        if (x == 0) continue;
        const C* row = b + p * n;
        C* target = out + i * n;
        for (int64_t j = 0; j < n; ++j) target[j] += x * row[j];
      }
    }
  }
}

template void MatMul<float>(const float*, const float*, float*, int64_t, int64_t, int64_t);
template void MatMul<double>(const double*, const double*, double*, int64_t, int64_t,
                             int64_t);
template void MatMul<uint64_t>(const uint64_t*, const uint64_t*, uint64_t*, int64_t, int64_t,
                               int64_t);

}  // namespace tessel::runtime
