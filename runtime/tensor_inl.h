// Template definitions for tensor.h; include tensor.h instead.
#ifndef TESSEL_RUNTIME_TENSOR_INL_H_
#define TESSEL_RUNTIME_TENSOR_INL_H_

#include <cassert>
#include <cstring>

namespace tessel::runtime {

template <typename T>
Tensor Tensor::FromVector(Shape shape, const std::vector<T>& values) {
  Tensor tensor(ElementTypeOf<T>(), std::move(shape), /*zeroed=*/false);
  assert(static_cast<int64_t>(values.size()) == tensor.num_elements());
  absl::Span<T> out = tensor.data<T>();
  for (size_t i = 0; i < values.size(); ++i) out[i] = values[i];
  return tensor;
}

template <typename T>
absl::Span<T> Tensor::data() {
  assert(ElementTypeOf<T>() == type_);
  return absl::Span<T>(reinterpret_cast<T*>(bytes_.data()), num_elements_);
}

template <typename T>
absl::Span<const T> Tensor::data() const {
  assert(ElementTypeOf<T>() == type_);
  return absl::Span<const T>(reinterpret_cast<const T*>(bytes_.data()), num_elements_);
}

}  // namespace tessel::runtime

#endif  // TESSEL_RUNTIME_TENSOR_INL_H_
