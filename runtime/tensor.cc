// Construction, comparison and printing of host tensors.
#include "runtime/tensor.h"

#include <sys/mman.h>

#include <cstdlib>
#include <cstring>
#include <iterator>
#include <mutex>
#include <new>
#include <utility>
#include <vector>

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

// Buffers from this size on are aligned to, and advised to use, 2 MiB huge pages, and are
// recycled through LargeBufferCache. Below it the allocator's own free lists already hand
// back warm memory, and huge pages would waste memory.
constexpr size_t kLargeBuffer = size_t{4} << 20;
constexpr size_t kHugePageSize = size_t{2} << 20;
// A cache line, and the widest vector register: Eigen and vectorised loops load aligned.
constexpr size_t kAlignment = 64;
// What the cache may hold: a few results of a repeatedly run program. Freed memory beyond
// this goes back to the allocator.
constexpr size_t kCacheBytes = size_t{256} << 20;
constexpr size_t kCacheBlocks = 8;

size_t RoundedSize(size_t size) {
  size_t alignment = size >= kLargeBuffer ? kHugePageSize : kAlignment;
  // aligned_alloc wants the size to be a multiple of the alignment.
  return (size + alignment - 1) / alignment * alignment;
}

// Freed large buffers, kept for the next allocation of the same rounded size. A fresh
// multi-MiB allocation comes from mmap and costs the kernel a page fault and a page clear
// for all of it on first touch — about as much as the loop that then fills it. A program
// run again and again (tests, benchmarks, a while loop's body) reuses its previous
// results' memory instead. Shared by all threads (SPMD partitions run as threads).
class LargeBufferCache {
 public:
  // A cached block of exactly `rounded` bytes, or null.
  void* Take(size_t rounded) {
    std::lock_guard<std::mutex> lock(mu_);
    for (auto it = blocks_.rbegin(); it != blocks_.rend(); ++it) {
      if (it->second == rounded) {
        void* data = it->first;
        bytes_ -= rounded;
        blocks_.erase(std::next(it).base());
        return data;
      }
    }
    return nullptr;
  }

  // Keeps `data` (`rounded` bytes) for reuse, evicting the oldest blocks to make room.
  void Keep(void* data, size_t rounded) {
    std::vector<void*> evicted;
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (rounded > kCacheBytes) {
        evicted.push_back(data);
      } else {
        while (!blocks_.empty() &&
               (bytes_ + rounded > kCacheBytes || blocks_.size() >= kCacheBlocks)) {
          evicted.push_back(blocks_.front().first);
          bytes_ -= blocks_.front().second;
          blocks_.erase(blocks_.begin());
        }
        blocks_.emplace_back(data, rounded);
        bytes_ += rounded;
      }
    }
    for (void* block : evicted) std::free(block);
  }

 private:
  std::mutex mu_;
  std::vector<std::pair<void*, size_t>> blocks_;  // oldest first
  size_t bytes_ = 0;
};

// Never destroyed, so that tensors destroyed during static destruction can still free.
LargeBufferCache& Cache() {
  static LargeBufferCache* cache = new LargeBufferCache();
  return *cache;
}

std::byte* Allocate(size_t size) {
  if (size == 0) return nullptr;
  size_t rounded = RoundedSize(size);
  if (size >= kLargeBuffer) {
    if (void* cached = Cache().Take(rounded)) return static_cast<std::byte*>(cached);
  }
  void* data = std::aligned_alloc(size >= kLargeBuffer ? kHugePageSize : kAlignment, rounded);
  if (data == nullptr) throw std::bad_alloc();
  if (size >= kLargeBuffer) {
    // Only advice: where transparent huge pages are off this fails and changes nothing.
    madvise(data, rounded, MADV_HUGEPAGE);
  }
  return static_cast<std::byte*>(data);
}

void Deallocate(std::byte* data, size_t size) {
  if (data == nullptr) return;
  if (size >= kLargeBuffer) {
    Cache().Keep(data, RoundedSize(size));
  } else {
    std::free(data);
  }
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
    Deallocate(data_, size_);
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
  }
  return *this;
}

Tensor::Buffer::~Buffer() { Deallocate(data_, size_); }

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
  } else if constexpr (kIsComplex<T>) {
    // XLA's literal spelling of a complex number.
    return absl::StrCat("(", value.real(), ", ", value.imag(), ")");
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
