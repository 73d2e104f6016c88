// Construction, comparison and printing of host tensors.
#include "runtime/tensor.h"

#include <sys/mman.h>

#include <cstdlib>
#include <cstring>
#include <new>
#include <utility>

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

namespace {

// Buffers from this size on are aligned to, and advised to use, 2 MiB huge pages. Below it
// the allocator's recycled memory is usually warm and huge pages would waste memory.
constexpr size_t kHugePageThreshold = size_t{4} << 20;
constexpr size_t kHugePageSize = size_t{2} << 20;
// A cache line, and the widest vector register: Eigen and vectorised loops load aligned.
constexpr size_t kAlignment = 64;

std::byte* Allocate(size_t size) {
  if (size == 0) return nullptr;
  size_t alignment = size >= kHugePageThreshold ? kHugePageSize : kAlignment;
  // aligned_alloc wants the size to be a multiple of the alignment.
  size_t rounded = (size + alignment - 1) / alignment * alignment;
  void* data = std::aligned_alloc(alignment, rounded);
  if (data == nullptr) throw std::bad_alloc();
  if (alignment == kHugePageSize) {
    // Only advice: where transparent huge pages are off this fails and changes nothing.
    madvise(data, rounded, MADV_HUGEPAGE);
  }
  return static_cast<std::byte*>(data);
}

}  // namespace

Tensor::Buffer::Buffer(size_t size, bool zeroed) : data_(Allocate(size)), size_(size) {
  if (zeroed && size_ > 0) std::memset(data_, 0, size_);
}

Tensor::Buffer::Buffer(const Buffer& other) : data_(Allocate(other.size_)), size_(other.size_) {
  if (size_ > 0) std::memcpy(data_, other.data_, size_);
}

Tensor::Buffer::Buffer(Buffer&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}

Tensor::Buffer& Tensor::Buffer::operator=(const Buffer& other) {
  if (this != &other) *this = Buffer(other);
  return *this;
}

Tensor::Buffer& Tensor::Buffer::operator=(Buffer&& other) noexcept {
  if (this != &other) {
    std::free(data_);
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
  }
  return *this;
}

Tensor::Buffer::~Buffer() { std::free(data_); }

Tensor::Tensor() : Tensor(ElementType::kF32, {}, /*zeroed=*/true) {}

Tensor::Tensor(ElementType type, Shape shape, bool zeroed)
    : type_(type),
      shape_(std::move(shape)),
      num_elements_(NumElements(shape_)),
      bytes_(static_cast<size_t>(num_elements_) * ElementTypeSize(type), zeroed) {}

Tensor Tensor::Zeros(ElementType type, Shape shape) {
  return Tensor(type, std::move(shape), /*zeroed=*/true);
}

Tensor Tensor::Uninitialized(ElementType type, Shape shape) {
  return Tensor(type, std::move(shape), /*zeroed=*/false);
}

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
