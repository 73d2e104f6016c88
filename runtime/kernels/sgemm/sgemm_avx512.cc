// The f32 matrix product for x86-64 with AVX-512 (F, DQ, BW, VL): tiles of 12 x 32 (24 of
// the 32 zmm registers hold sums). Compiled with -mavx512f -mavx512dq -mavx512bw
// -mavx512vl -mavx2 -mfma; see sgemm_kernel.h for what this unit may and may not contain.
#include <immintrin.h>

#include <cstdint>

#include "runtime/kernels/sgemm/sgemm_kernel.h"

namespace tessel::runtime::sgemm {
namespace {

struct Vec {
  using Reg = __m512;
  static constexpr int kLanes = 16;
  static Reg Zero() { return _mm512_setzero_ps(); }
  static Reg Load(const float* p) { return _mm512_loadu_ps(p); }
  static void Store(float* p, Reg v) { _mm512_storeu_ps(p, v); }
  static Reg Broadcast(const float* p) { return _mm512_set1_ps(*p); }
  static Reg MulAdd(Reg x, Reg y, Reg acc) { return _mm512_fmadd_ps(x, y, acc); }
};

constexpr int kRows = 12;
constexpr int kVectors = 2;
// A 128 x 32 slice of b is 16 KiB: half of a 32 KiB L1.
constexpr int64_t kDepth = 128;
constexpr int64_t kBlockRows = 192;

#include "runtime/kernels/sgemm/sgemm_tiles.inc"

const Kernel kKernel = {"avx512", kWidth, PackB, WorkspaceFloats, Multiply};

}  // namespace

const Kernel* Avx512Kernel() { return &kKernel; }

}  // namespace tessel::runtime::sgemm
