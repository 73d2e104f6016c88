// Multi-index and window helpers shared by the kernels of several op families.
#include "runtime/kernels/index_utils.h"

#include <cstring>
#include <limits>
#include <type_traits>

namespace tessel::runtime {

bool NextIndex(absl::Span<const int64_t> shape, absl::Span<int64_t> index) {
  for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
    if (++index[d] < shape[d]) return true;
    index[d] = 0;
  }
  return false;
}

int64_t Linearize(absl::Span<const int64_t> index, absl::Span<const int64_t> strides) {
  int64_t linear = 0;
  for (size_t d = 0; d < index.size(); ++d) linear += index[d] * strides[d];
  return linear;
}

void CopyElement(const Tensor& src, int64_t src_index, Tensor& dst, int64_t dst_index) {
  int64_t size = ElementTypeSize(src.type());
  std::memcpy(dst.bytes().data() + dst_index * size, src.bytes().data() + src_index * size,
              size);
}

Tensor ElementAsScalar(const Tensor& tensor, int64_t index) {
  Tensor scalar = Tensor::Zeros(tensor.type(), {});
  CopyElement(tensor, index, scalar, 0);
  return scalar;
}

Tensor Filled(const Tensor& value, Shape shape) {
  Tensor result = Tensor::Zeros(value.type(), std::move(shape));
  int64_t size = ElementTypeSize(value.type());
  std::byte* out = result.bytes().data();
  for (int64_t i = 0; i < result.num_elements(); ++i) {
    std::memcpy(out + i * size, value.bytes().data(), size);
  }
  return result;
}

int64_t ReadInteger(const Tensor& tensor, int64_t index) {
  return DispatchElementType(tensor.type(), [&](auto tag) -> int64_t {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, bool>) {
      return tensor.data<bool>()[index] ? 1 : 0;
    } else if constexpr (std::is_integral_v<T>) {
      T value = tensor.data<T>()[index];
      if constexpr (std::is_same_v<T, uint64_t>) {
        if (value > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
          return std::numeric_limits<int64_t>::max();
        }
      }
      return static_cast<int64_t>(value);
    } else if constexpr (kIsComplex<T>) {
      // Never an index (the verifier says so); the real part keeps this total.
      return static_cast<int64_t>(tensor.data<T>()[index].real());
    } else {
      // Index operands are integers (the verifier says so); a float reads as its
      // truncation so this stays total.
      return static_cast<int64_t>(static_cast<double>(tensor.data<T>()[index]));
    }
  });
}

int64_t WindowDim::OutputSize(int64_t input_size) const {
  int64_t dilatedBase = input_size == 0 ? 0 : (input_size - 1) * base_dilation + 1;
  int64_t padded = pad_low + dilatedBase + pad_high;
  int64_t dilatedWindow = (size - 1) * window_dilation + 1;
  if (padded < dilatedWindow || stride <= 0) return 0;
  return (padded - dilatedWindow) / stride + 1;
}

int64_t WindowDim::InputCoordinate(int64_t input_size, int64_t out, int64_t w) const {
  // Position in the dilated base: padded position minus the low padding.
  int64_t position = out * stride + w * window_dilation - pad_low;
  if (position < 0 || position % base_dilation != 0) return -1;
  int64_t coordinate = position / base_dilation;
  return coordinate < input_size ? coordinate : -1;
}

std::vector<WindowDim> MakeWindow(llvm::ArrayRef<int64_t> sizes,
                                  std::optional<llvm::ArrayRef<int64_t>> strides,
                                  std::optional<llvm::ArrayRef<int64_t>> base_dilations,
                                  std::optional<llvm::ArrayRef<int64_t>> window_dilations,
                                  std::optional<mlir::DenseIntElementsAttr> padding) {
  std::vector<WindowDim> window(sizes.size());
  std::vector<int64_t> pads;
  if (padding) {
    for (llvm::APInt value : padding->getValues<llvm::APInt>()) {
      pads.push_back(value.getSExtValue());
    }
  }
  for (size_t d = 0; d < sizes.size(); ++d) {
    WindowDim& dim = window[d];
    dim.size = sizes[d];
    if (strides && d < strides->size()) dim.stride = (*strides)[d];
    if (base_dilations && d < base_dilations->size()) dim.base_dilation = (*base_dilations)[d];
    if (window_dilations && d < window_dilations->size()) {
      dim.window_dilation = (*window_dilations)[d];
    }
    if (2 * d + 1 < pads.size()) {
      dim.pad_low = pads[2 * d];
      dim.pad_high = pads[2 * d + 1];
    }
  }
  return window;
}

}  // namespace tessel::runtime
