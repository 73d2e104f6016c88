// Multi-index and window helpers shared by the reduction, linalg, indexing and control
// kernels: row-major index iteration, element copies between tensors, reading index
// operands, and the window geometry of reduce_window, select_and_scatter and convolution.
//
//   std::vector<int64_t> index(shape.size(), 0);
//   for (int64_t i = 0; i < NumElements(shape); ++i, NextIndex(shape, index)) {
//     ...  // `index` is the multi-index of linear position i
//   }
#ifndef TESSEL_RUNTIME_KERNELS_INDEX_UTILS_H_
#define TESSEL_RUNTIME_KERNELS_INDEX_UTILS_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/types/span.h"
#include "llvm/ADT/ArrayRef.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "runtime/tensor.h"

namespace tessel::runtime {

// Advances `index` to the next position of `shape` in row-major order (last dimension
// fastest). Returns false, with `index` back at all zeros, after the last position.
bool NextIndex(absl::Span<const int64_t> shape, absl::Span<int64_t> index);

// Sum of index[i] * strides[i].
int64_t Linearize(absl::Span<const int64_t> index, absl::Span<const int64_t> strides);

// Calls fn(dst, src) for every element of transpose(shape, perm), where result dimension i
// is input dimension perm[i]: dst runs over the transposed tensor in row-major order and
// src is the row-major position of the same element in the input.
// REQUIRES: perm is a permutation of [0, shape.size()).
template <typename Fn>
void ForEachPermuted(absl::Span<const int64_t> shape, absl::Span<const int64_t> perm,
                     Fn&& fn) {
  int64_t count = NumElements(shape);
  if (count == 0) return;
  if (perm.empty()) {
    fn(0, 0);
    return;
  }
  std::vector<int64_t> strides = RowMajorStrides(shape);
  std::vector<int64_t> outerShape, outerStrides;
  for (int64_t d : perm) {
    outerShape.push_back(shape[d]);
    outerStrides.push_back(strides[d]);
  }
  // The innermost transposed dimension runs as a strided loop; the others step by index.
  int64_t inner = outerShape.back(), innerStride = outerStrides.back();
  outerShape.pop_back();
  outerStrides.pop_back();
  std::vector<int64_t> index(outerShape.size(), 0);
  for (int64_t dst = 0; dst < count; NextIndex(outerShape, absl::MakeSpan(index))) {
    int64_t src = Linearize(index, outerStrides);
    for (int64_t i = 0; i < inner; ++i, ++dst, src += innerStride) fn(dst, src);
  }
}

// Copies element `src_index` of `src` to element `dst_index` of `dst`.
// REQUIRES: equal element types, indices in range.
void CopyElement(const Tensor& src, int64_t src_index, Tensor& dst, int64_t dst_index);

// A rank-0 tensor holding element `index` of `tensor`.
Tensor ElementAsScalar(const Tensor& tensor, int64_t index);

// A tensor of `shape` with every element equal to the single element of `value`.
Tensor Filled(const Tensor& value, Shape shape);

// Element `index` of an integer tensor as int64_t. Unsigned values above INT64_MAX read as
// INT64_MAX: they lie outside every dimension anyway, so clamping or skipping treats them
// the same. REQUIRES: an integer (or pred) tensor.
int64_t ReadInteger(const Tensor& tensor, int64_t index);

// One dimension of a window as reduce_window, select_and_scatter and convolution define
// it: the base (input) is dilated, then padded; the window is dilated and moves by stride.
struct WindowDim {
  int64_t size = 1;
  int64_t stride = 1;
  int64_t pad_low = 0;   // negative values crop (convolution only)
  int64_t pad_high = 0;
  int64_t base_dilation = 1;
  int64_t window_dilation = 1;

  // Number of window positions over an input of `input_size`:
  // (padded - dilated window) / stride + 1, or 0 when the window does not fit.
  int64_t OutputSize(int64_t input_size) const;

  // The input coordinate read by element `w` of the window at output position `out`, or
  // -1 when it lands in padding or in a hole left by base dilation.
  // Example: input_size 3, base_dilation 2 (dilated base x.y.z), pad_low 1, window 2:
  // out 0 reads padding (-1) then x (0); out 1 reads x (0) then a hole (-1).
  int64_t InputCoordinate(int64_t input_size, int64_t out, int64_t w) const;
};

// The window of an op from its attributes; absent lists default to 1s and absent padding
// to 0s. `padding`, when present, is a [rank, 2] tensor of (low, high) rows.
std::vector<WindowDim> MakeWindow(llvm::ArrayRef<int64_t> sizes,
                                  std::optional<llvm::ArrayRef<int64_t>> strides,
                                  std::optional<llvm::ArrayRef<int64_t>> base_dilations,
                                  std::optional<llvm::ArrayRef<int64_t>> window_dilations,
                                  std::optional<mlir::DenseIntElementsAttr> padding);

}  // namespace tessel::runtime

#endif  // TESSEL_RUNTIME_KERNELS_INDEX_UTILS_H_
