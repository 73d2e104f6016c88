// Construction, comparison and printing of host tensors.
#include "runtime/tensor.h"

#include <cstring>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace tessel::runtime {

int64_t NumElements(absl::Span<const int64_t> shape) {
  int64_t count = 1;
  for (int64_t dim : shape) count *= dim;
  return count;
}

std::vector<int64_t> RowMajorStrides(absl::Span<const int64_t> shape) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (int64_t i = static_cast<int64_t>(shape.size()) - 2; i >= 0; --i) {
    strides[i] = strides[i + 1] * shape[i + 1];
  }
  return strides;
}

Tensor::Tensor() : Tensor(ElementType::kF32, {}) {}

Tensor::Tensor(ElementType type, Shape shape)
    : type_(type),
      shape_(std::move(shape)),
      num_elements_(NumElements(shape_)),
      bytes_(num_elements_ * ElementTypeSize(type)) {}

Tensor Tensor::Zeros(ElementType type, Shape shape) { return Tensor(type, std::move(shape)); }

bool Tensor::BitwiseEquals(const Tensor& other) const {
  if (type_ != other.type_ || shape_ != other.shape_) return false;
  // memcmp must not see the null data pointer of an empty buffer.
  return bytes_.empty() || std::memcmp(bytes_.data(), other.bytes_.data(), bytes_.size()) == 0;
}

std::string Tensor::ShapeString() const {
  return absl::StrCat(ElementTypeName(type_), "[", absl::StrJoin(shape_, ","), "]");
}

namespace {

template <typename T>
std::string FormatElement(T value) {
  if constexpr (std::is_same_v<T, bool>) {
    return value ? "true" : "false";
  } else if constexpr (std::is_same_v<T, f16> || std::is_same_v<T, bf16>) {
    return absl::StrCat(static_cast<float>(value));
  } else if constexpr (std::is_same_v<T, int8_t> || std::is_same_v<T, uint8_t>) {
    return absl::StrCat(static_cast<int>(value));
  } else {
    return absl::StrCat(value);
  }
}

}  // namespace

std::string Tensor::ToString(int64_t max_elements) const {
  std::string out = ShapeString() + " ";
  DispatchElementType(type_, [&](auto tag) {
    using T = typename decltype(tag)::type;
    absl::Span<const T> values = data<T>();
    if (shape_.empty()) {
      absl::StrAppend(&out, FormatElement(values[0]));
      return;
    }
    std::vector<int64_t> strides = RowMajorStrides(shape_);
    int64_t limit = std::min(num_elements_, max_elements);
    // A dimension's block of elements opens with '{' and closes with '}'.
    for (int64_t i = 0; i < limit; ++i) {
      int64_t opens = 0, closes = 0;
      for (size_t d = 0; d < strides.size(); ++d) {
        int64_t block = strides[d] * shape_[d];
        if (i % block == 0) ++opens;
        if ((i + 1) % block == 0) ++closes;
      }
      if (i > 0) absl::StrAppend(&out, ", ");
      out.append(opens, '{');
      absl::StrAppend(&out, FormatElement(values[i]));
      out.append(closes, '}');
    }
    if (limit < num_elements_) absl::StrAppend(&out, ", ...");
    if (num_elements_ == 0) absl::StrAppend(&out, "{}");
  });
  return out;
}

}  // namespace tessel::runtime
