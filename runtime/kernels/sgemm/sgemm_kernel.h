// The f32 matrix product built once per x86-64 vector extension and chosen at run time.
//
// Each variant lives in its own translation unit compiled with that extension's -m flags
// (sgemm_avx2.cc, sgemm_avx512.cc). A function such a unit emits may contain instructions
// the machine lacks, so none of them may be shared with the rest of the program: the
// linker keeps one copy of an inline function or template instantiation emitted by several
// units, and could pick the AVX-512 copy for code that runs on any machine. The units
// therefore define everything in an anonymous namespace, use no templates or inline
// functions from other headers (intrinsics are always inlined and emit nothing), and export
// only the accessor below; sgemm_symbols_test checks their object files for that.
//
// The interface is plain C types for the same reason: nothing here instantiates code.
//
// Every variant computes each element of the product as the chain of fused multiply-adds
// over k in increasing order, starting from +0 — the same arithmetic as
//   float s = 0; for (p = 0; p < k; ++p) s = std::fma(a[i][p], b[p][j], s);
// whatever the vector width or blocking, so all variants give the same bits.
#ifndef TESSEL_RUNTIME_KERNELS_SGEMM_SGEMM_KERNEL_H_
#define TESSEL_RUNTIME_KERNELS_SGEMM_SGEMM_KERNEL_H_

#include <cstdint>

namespace tessel::runtime::sgemm {

struct Kernel {
  // "avx2" (with FMA) or "avx512" (F, DQ, BW, VL).
  const char* name;
  // Columns of b per packed panel; b is packed as ceil(n / panel_width) panels of
  // k x panel_width floats, zero-filled past column n.
  int64_t panel_width;
  // Packs panels [panel_begin, panel_end) of b (k x n, row-major) into `packed`, which
  // holds all panels (panel p starts at p * k * panel_width).
  void (*pack_b)(const float* b, int64_t k, int64_t n, int64_t panel_begin,
                 int64_t panel_end, float* packed);
  // Floats of scratch that multiply needs for rows [row_begin, row_end) of a product with
  // this k.
  int64_t (*workspace_floats)(int64_t rows, int64_t k);
  // out[i, j] for i in [row_begin, row_end) and j in the columns of panels
  // [panel_begin, panel_end): the product of a (m x k, row-major) and the packed b;
  // out is m x n, row-major.
  void (*multiply)(const float* a, const float* packed_b, float* out, int64_t k, int64_t n,
                   int64_t row_begin, int64_t row_end, int64_t panel_begin,
                   int64_t panel_end, float* workspace);
};

// Defined in the variant units. Call only where the CPU has the extension.
const Kernel* Avx2Kernel();
const Kernel* Avx512Kernel();

}  // namespace tessel::runtime::sgemm

#endif  // TESSEL_RUNTIME_KERNELS_SGEMM_SGEMM_KERNEL_H_
