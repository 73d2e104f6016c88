// The matrix product behind dot_general and convolution; Eigen's Tensor module stays out of
// the header so that only this file pays for compiling it.
//
// f32 products run on a kernel built for the best vector extension the CPU has (AVX2 with
// FMA, or AVX-512), chosen once per process; one binary runs on any x86-64 and falls back
// to Eigen built for the baseline (SSE2). On the vector kernels every element is the fma
// chain over k in order, so neither the blocking nor the split between threads changes a
// result. f64, and f32 on the baseline, use Eigen's contraction, whose blocking depends
// only on the product's shape and the cache sizes; complex and integer products a plain
// loop.
//
// Large products are split into blocks computed on the kernels' thread pool
// (parallel_for.h); partitions running as threads of one process share it. The blocks of the
// Eigen products depend only on the product's shape, never on the number of cores, so on
// one machine a result is the same bit for bit whatever the threads.
#include "runtime/kernels/linalg_utils.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "absl/functional/function_ref.h"
#include "absl/strings/str_cat.h"
#include "runtime/kernels/parallel_for.h"
#include "runtime/kernels/sgemm/sgemm_kernel.h"
#include "runtime/run_limits.h"
#include "unsupported/Eigen/CXX11/Tensor"

namespace tessel::runtime {
namespace {

// Products below this many multiply-adds run in one piece: splitting costs more than it
// gains. Blocks have at least kMinRowsPerBlock rows (each repacks the right operand) and
// there are at most kMaxBlocks.
constexpr int64_t kMinMultiplyAddsToSplit = int64_t{1} << 21;
constexpr int64_t kMinRowsPerBlock = 128;
constexpr int64_t kMaxBlocks = 16;

const sgemm::Kernel* KernelFor(MatMulIsa isa) {
  switch (isa) {
    case MatMulIsa::kAvx512:
      return sgemm::Avx512Kernel();
    case MatMulIsa::kAvx2:
      return sgemm::Avx2Kernel();
    case MatMulIsa::kBaseline:
      break;
  }
  return nullptr;
}

// Rows of a task are a multiple of every kernel's tile height (6 and 12), so that only the
// last task has a partial tile.
constexpr int64_t kTaskRowMultiple = 24;
constexpr int64_t kTargetTaskRows = 256;
// Columns of a task: at least this many, so that repacking a's rows for every task costs
// little next to the task's multiply-adds.
constexpr int64_t kMinTaskColumns = 256;

void VectorMatMul(const sgemm::Kernel& kernel, const float* a, const float* b, float* out,
                  int64_t m, int64_t k, int64_t n) {
  const int64_t width = kernel.panel_width;
  const int64_t panels = (n + width - 1) / width;
  // A tensor rather than a plain allocation: the tensor allocator recycles large buffers, so
  // the next product packs into pages already faulted in instead of new ones the kernel
  // must clear (clearing pages took more CPU time than the products in `tessel run`).
  Tensor packedStorage = Tensor::Uninitialized(ElementType::kF32, {panels * width * k});
  float* packed = packedStorage.data<float>().data();
  const int64_t workers = ParallelWorkers();
  if (m * k * n < kMinMultiplyAddsToSplit) {
    kernel.pack_b(b, k, n, 0, panels, packed);
    std::unique_ptr<float[]> workspace = UninitializedBuffer<float>(kernel.workspace_floats(m, k));
    kernel.multiply(a, packed, out, k, n, 0, m, 0, panels, workspace.get());
    return;
  }
  const int64_t packTasks = std::min(panels, 4 * workers);
  ParallelFor(packTasks, [&](int64_t t) {
    kernel.pack_b(b, k, n, panels * t / packTasks, panels * (t + 1) / packTasks,
                  packed);
  });
  // A grid of tasks, enough of them (4 per worker) that the cores finish together.
  const int64_t rowTasks = (m + kTargetTaskRows - 1) / kTargetTaskRows;
  int64_t taskRows = (m + rowTasks - 1) / rowTasks;
  taskRows = (taskRows + kTaskRowMultiple - 1) / kTaskRowMultiple * kTaskRowMultiple;
  const int64_t rowBlocks = (m + taskRows - 1) / taskRows;
  const int64_t maxPanelBlocks = std::max<int64_t>(1, panels * width / kMinTaskColumns);
  const int64_t panelBlocks =
      std::clamp<int64_t>((4 * workers + rowBlocks - 1) / rowBlocks, 1, maxPanelBlocks);
  const int64_t workspaceFloats = kernel.workspace_floats(taskRows, k);
  ParallelFor(rowBlocks * panelBlocks, [&](int64_t task) {
    const int64_t rowBlock = task / panelBlocks, panelBlock = task % panelBlocks;
    const int64_t rowBegin = rowBlock * taskRows, rowEnd = std::min(m, rowBegin + taskRows);
    std::unique_ptr<float[]> workspace = UninitializedBuffer<float>(workspaceFloats);
    kernel.multiply(a, packed, out, k, n, rowBegin, rowEnd,
                    panels * panelBlock / panelBlocks, panels * (panelBlock + 1) / panelBlocks,
                    workspace.get());
  });
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

// Blocks of rows, each one Eigen contraction; how many depends only on the shape.
template <typename C>
void EigenMatMul(const C* a, const C* b, C* out, int64_t m, int64_t k, int64_t n) {
  const int64_t blocks = m * k * n < kMinMultiplyAddsToSplit
                             ? 1
                             : std::min(kMaxBlocks, m / kMinRowsPerBlock);
  if (blocks <= 1) {
    MatMulRows(a, b, out, m, k, n);
    return;
  }
  const int64_t rows = (m + blocks - 1) / blocks;
  ParallelFor(blocks, [&](int64_t block) {
    const int64_t first = block * rows, count = std::min(rows, m - first);
    if (count > 0) MatMulRows(a + first * k, b, out + first * n, count, k, n);
  });
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
  if constexpr (std::is_same_v<C, float>) {
    if (const sgemm::Kernel* kernel = KernelFor(ChosenMatMulIsa())) {
      VectorMatMul(*kernel, a, b, out, m, k, n);
      return;
    }
  }
  if constexpr (std::is_floating_point_v<C>) {
    EigenMatMul(a, b, out, m, k, n);
  } else {
    std::fill(out, out + m * n, C(0));
    for (int64_t i = 0; i < m; ++i) {
      PollOpStop();
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

const char* MatMulIsaName(MatMulIsa isa) {
  switch (isa) {
    case MatMulIsa::kAvx512:
      return "avx512";
    case MatMulIsa::kAvx2:
      return "avx2";
    case MatMulIsa::kBaseline:
      break;
  }
  return "baseline";
}

bool CpuSupports(MatMulIsa isa) {
#if defined(__x86_64__) && defined(__GNUC__)
  // libgcc's answers include the operating system's support for the wider registers. Its
  // CPU data is filled in by a constructor; calling the initializer too makes this safe
  // from other static initializers.
  __builtin_cpu_init();
  switch (isa) {
    case MatMulIsa::kAvx512:
      return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
             __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl") &&
             CpuSupports(MatMulIsa::kAvx2);
    case MatMulIsa::kAvx2:
      return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    case MatMulIsa::kBaseline:
      return true;
  }
  return false;
#else
  return isa == MatMulIsa::kBaseline;
#endif
}

absl::StatusOr<MatMulIsa> ChooseMatMulIsa(const char* cap) {
  MatMulIsa limit = MatMulIsa::kAvx512;
  if (cap != nullptr && *cap != '\0') {
    if (std::strcmp(cap, "baseline") == 0) {
      limit = MatMulIsa::kBaseline;
    } else if (std::strcmp(cap, "avx2") == 0) {
      limit = MatMulIsa::kAvx2;
    } else if (std::strcmp(cap, "avx512") != 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "TESSEL_ISA is '", cap, "'; expected baseline, avx2 or avx512"));
    }
  }
  for (MatMulIsa isa : {MatMulIsa::kAvx512, MatMulIsa::kAvx2}) {
    if (isa <= limit && CpuSupports(isa)) return isa;
  }
  return MatMulIsa::kBaseline;
}

MatMulIsa ChosenMatMulIsa() {
  static const MatMulIsa chosen = [] {
    absl::StatusOr<MatMulIsa> isa = ChooseMatMulIsa(std::getenv("TESSEL_ISA"));
    if (isa.ok()) return *isa;
    std::fprintf(stderr, "warning: %s; ignored\n", std::string(isa.status().message()).c_str());
    return *ChooseMatMulIsa(nullptr);
  }();
  return chosen;
}

void MatMulWithIsa(MatMulIsa isa, const float* a, const float* b, float* out, int64_t m,
                   int64_t k, int64_t n) {
  if (m == 0 || n == 0) return;
  if (k == 0) {
    std::fill(out, out + m * n, 0.0f);
    return;
  }
  if (const sgemm::Kernel* kernel = KernelFor(isa)) {
    VectorMatMul(*kernel, a, b, out, m, k, n);
  } else {
    EigenMatMul(a, b, out, m, k, n);
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
