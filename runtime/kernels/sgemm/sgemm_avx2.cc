// The f32 matrix product for x86-64 with AVX2 and FMA: tiles of 6 x 16 (12 of the 16 ymm
// registers hold sums). Compiled with -mavx2 -mfma; see sgemm_kernel.h for what this unit
// may and may not contain.
#include <immintrin.h>

#include <cstdint>

#include "runtime/kernels/sgemm/sgemm_kernel.h"

namespace tessel::runtime::sgemm {
namespace {

struct Vec {
  using Reg = __m256;
  static constexpr int kLanes = 8;
  static Reg Zero() { return _mm256_setzero_ps(); }
  static Reg Load(const float* p) { return _mm256_loadu_ps(p); }
  static void Store(float* p, Reg v) { _mm256_storeu_ps(p, v); }
  static Reg Broadcast(const float* p) { return _mm256_broadcast_ss(p); }
  static Reg MulAdd(Reg x, Reg y, Reg acc) { return _mm256_fmadd_ps(x, y, acc); }
};

constexpr int kRows = 6;
constexpr int kVectors = 2;
// A 256 x 16 slice of b is 16 KiB: half of a 32 KiB L1.
constexpr int64_t kDepth = 256;
constexpr int64_t kBlockRows = 192;

#include "runtime/kernels/sgemm/sgemm_tiles.inc"

const Kernel kKernel = {"avx2", kWidth, PackB, WorkspaceFloats, Multiply};

}  // namespace

const Kernel* Avx2Kernel() { return &kKernel; }

}  // namespace tessel::runtime::sgemm
