// The matrix product behind dot_general and convolution; Eigen's Tensor module stays out of
// the header so that only this file pays for compiling it.
//
// Large float products are split into blocks of rows computed on a process-wide thread pool
// with one thread per core; partitions running as threads of one process share it. The
// blocks depend only on the product's shape, never on the number of cores, so a result is
// the same bit for bit on every machine (the executor is the test oracle).
#include "runtime/kernels/linalg_utils.h"

#include <algorithm>
#include <atomic>
#include <thread>

#include "unsupported/Eigen/CXX11/Tensor"
#include "unsupported/Eigen/CXX11/ThreadPool"

namespace tessel::runtime {
namespace {

// Products below this many multiply-adds run in one piece: splitting costs more than it
// gains. Blocks have at least kMinRowsPerBlock rows (each repacks the right operand) and
// there are at most kMaxBlocks.
constexpr int64_t kMinMultiplyAddsToSplit = int64_t{1} << 21;
constexpr int64_t kMinRowsPerBlock = 128;
constexpr int64_t kMaxBlocks = 16;

// One thread fewer than the cores: the calling thread computes a block too.
Eigen::ThreadPool& MatMulPool() {
  static Eigen::ThreadPool* pool = new Eigen::ThreadPool(
      std::max(1, static_cast<int>(std::thread::hardware_concurrency()) - 1));
  return *pool;
}

template <typename C>
void MatMulRows(const C* a, const C* b, C* out, int64_t m, int64_t k, int64_t n) {
  using ConstMatrix = Eigen::TensorMap<const Eigen::Tensor<C, 2, Eigen::RowMajor>>;
  ConstMatrix lhs(a, m, k), rhs(b, k, n);
  Eigen::TensorMap<Eigen::Tensor<C, 2, Eigen::RowMajor>> result(out, m, n);
  Eigen::array<Eigen::IndexPair<Eigen::Index>, 1> contract = {
      Eigen::IndexPair<Eigen::Index>(1, 0)};
  result = lhs.contract(rhs, contract);
}

}  // namespace

template <typename C>
void MatMul(const C* a, const C* b, C* out, int64_t m, int64_t k, int64_t n) {
  if (m == 0 || n == 0) return;
  if (k == 0) {
    // An empty sum.
    std::fill(out, out + m * n, C(0));
    return;
  }
  if constexpr (std::is_floating_point_v<C>) {
    const int64_t blocks = m * k * n < kMinMultiplyAddsToSplit
                               ? 1
                               : std::min(kMaxBlocks, m / kMinRowsPerBlock);
    if (blocks <= 1) {
      MatMulRows(a, b, out, m, k, n);
      return;
    }
    const int64_t rows = (m + blocks - 1) / blocks;
    // The caller and the pool's threads take blocks from one counter until none is left.
    std::atomic<int64_t> next{0};
    auto work = [&] {
      for (int64_t block = next++; block < blocks; block = next++) {
        const int64_t first = block * rows, count = std::min(rows, m - first);
        if (count > 0) MatMulRows(a + first * k, b, out + first * n, count, k, n);
      }
    };
    const int helpers =
        static_cast<int>(std::min<int64_t>(blocks - 1, MatMulPool().NumThreads()));
    Eigen::Barrier done(static_cast<unsigned>(helpers));
    for (int i = 0; i < helpers; ++i) {
      MatMulPool().Schedule([&] {
        work();
        done.Notify();
      });
    }
    work();
    done.Wait();
  } else {
    std::fill(out, out + m * n, C(0));
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t p = 0; p < k; ++p) {
        C x = a[i * k + p];
        if (x == C(0)) continue;
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
template void MatMul<c64>(const c64*, const c64*, c64*, int64_t, int64_t, int64_t);
template void MatMul<c128>(const c128*, const c128*, c128*, int64_t, int64_t, int64_t);
template void MatMul<uint64_t>(const uint64_t*, const uint64_t*, uint64_t*, int64_t, int64_t,
                               int64_t);

}  // namespace tessel::runtime
