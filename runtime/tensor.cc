// Construction, comparison and printing of host tensors.
#include "runtime/tensor.h"

#include <sys/mman.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <limits>
#include <mutex>
#include <new>
#include <utility>
#include <vector>

#include "absl/algorithm/container.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace tessel::runtime {

int64_t NumElements(absl::Span<const int64_t> shape) {
  // A zero dimension empties the tensor whatever the others multiply to.
  if (absl::c_linear_search(shape, 0)) return 0;
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

std::atomic<int64_t> memory_limit{0};
std::atomic<int64_t> bytes_in_use{0};

// "1048576 bytes (1 MiB)": exact, and readable at a glance.
std::string FormatBytes(int64_t bytes) {
  static constexpr const char* kUnits[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  std::string exact = absl::StrCat(bytes, bytes == 1 ? " byte" : " bytes");
  if (bytes < 1024) return exact;
  double value = static_cast<double>(bytes);
  int unit = -1;
  while (value >= 1024 && unit < 5) {
    value /= 1024;
    ++unit;
  }
  // Three significant digits, without the exponent %g would use from 1000 on.
  char rounded[32];
  std::snprintf(rounded, sizeof(rounded), value >= 100 ? "%.0f" : "%.3g", value);
  return absl::StrCat(exact, " (", rounded, " ", kUnits[unit], ")");
}

// Counts `size` bytes as in use, or throws if that would pass the memory limit. Counting
// first and checking the sum makes the check and the update one atomic step, so partitions
// allocating at once cannot pass the limit together.
void Reserve(size_t size, absl::FunctionRef<std::string()> what) {
  const int64_t limit = memory_limit.load(std::memory_order_relaxed);
  if (size > static_cast<size_t>(std::numeric_limits<int64_t>::max())) {
    throw TensorAllocationError(
        absl::StrCat("out of memory: ", what(), " needs more than 2^63 - 1 bytes"));
  }
  const int64_t bytes = static_cast<int64_t>(size);
  const int64_t before = bytes_in_use.fetch_add(bytes, std::memory_order_relaxed);
  if (limit > 0 && (bytes > limit || before > limit - bytes)) {
    bytes_in_use.fetch_sub(bytes, std::memory_order_relaxed);
    throw TensorAllocationError(absl::StrCat("out of memory: ", what(), " needs ",
                                             FormatBytes(bytes), ", beyond max_memory = ",
                                             FormatBytes(limit), " with ", FormatBytes(before),
                                             " in use"));
  }
}

void Release(size_t size) {
  bytes_in_use.fetch_sub(static_cast<int64_t>(size), std::memory_order_relaxed);
}

std::byte* Allocate(size_t size, absl::FunctionRef<std::string()> what) {
  if (size == 0) return nullptr;
  Reserve(size, what);
  size_t rounded = RoundedSize(size);
  if (size >= kLargeBuffer) {
    if (void* cached = Cache().Take(rounded)) return static_cast<std::byte*>(cached);
  }
  void* data = std::aligned_alloc(size >= kLargeBuffer ? kHugePageSize : kAlignment, rounded);
  if (data == nullptr) {
    Release(size);
    throw TensorAllocationError(absl::StrCat("out of memory: ", what(), " needs ",
                                             FormatBytes(static_cast<int64_t>(size)),
                                             ", which the system did not give"));
  }
  if (size >= kLargeBuffer) {
    // Only advice: where transparent huge pages are off this fails and changes nothing.
    madvise(data, rounded, MADV_HUGEPAGE);
  }
  return static_cast<std::byte*>(data);
}

void Deallocate(std::byte* data, size_t size) {
  if (data == nullptr) return;
  Release(size);
  if (size >= kLargeBuffer) {
    Cache().Keep(data, RoundedSize(size));
  } else {
    std::free(data);
  }
}

// The bytes of `count` elements of `type`; beyond size_t (a shape whose element count
// overflowed, or is negative) the most a size_t holds, which no allocation can meet.
size_t BufferSize(int64_t count, ElementType type) {
  size_t bytes;
  if (count < 0 ||
      __builtin_mul_overflow(static_cast<size_t>(count), ElementTypeSize(type), &bytes)) {
    return std::numeric_limits<size_t>::max();
  }
  return bytes;
}

// NumElements with overflow detection: -1 when the product passes int64.
int64_t CheckedNumElements(absl::Span<const int64_t> shape) {
  // Zero elements even when the other dimensions' product overflows (a .npy file may say
  // (4294967296, 4294967296, 0)).
  if (absl::c_any_of(shape, [](int64_t dim) { return dim < 0; })) return -1;
  if (absl::c_linear_search(shape, 0)) return 0;
  int64_t count = 1;
  for (int64_t dim : shape) {
    if (dim < 0 || __builtin_mul_overflow(count, dim, &count)) return -1;
  }
  return count;
}

}  // namespace

void SetMemoryLimit(int64_t bytes) {
  memory_limit.store(bytes > 0 ? bytes : 0, std::memory_order_relaxed);
}

int64_t MemoryLimit() { return memory_limit.load(std::memory_order_relaxed); }

int64_t TensorBytesInUse() { return bytes_in_use.load(std::memory_order_relaxed); }

Tensor::Buffer::Buffer(size_t size, bool zeroed, absl::FunctionRef<std::string()> what)
    : data_(Allocate(size, what)), size_(size) {
  if (zeroed && size_ > 0) std::memset(data_, 0, size_);
}

Tensor::Buffer::Buffer(const Buffer& other, absl::FunctionRef<std::string()> what)
    : data_(Allocate(other.size_, what)), size_(other.size_) {
  if (size_ > 0) std::memcpy(data_, other.data_, size_);
}

Tensor::Buffer::Buffer(Buffer&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}

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
      num_elements_(CheckedNumElements(shape_)),
      bytes_(BufferSize(num_elements_, type), zeroed, [this] { return ShapeString(); }) {}

Tensor Tensor::Reshaped(Shape shape) && {
  Tensor result(std::move(*this));
  result.shape_ = std::move(shape);
  return result;
}

Tensor::Tensor(const Tensor& other)
    : type_(other.type_),
      shape_(other.shape_),
      num_elements_(other.num_elements_),
      bytes_(other.bytes_, [this] { return absl::StrCat("a copy of ", ShapeString()); }) {}

Tensor& Tensor::operator=(const Tensor& other) {
  if (this != &other) *this = Tensor(other);
  return *this;
}

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
