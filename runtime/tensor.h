// A dense, row-major host tensor: an element type, a static shape and an owned buffer.
// The executor's values, the collectives' payloads, and what users pass in and get back.
//
//   Tensor x = Tensor::FromVector<float>({2, 2}, {1, 2, 3, 4});
//   absl::Span<float> values = x.data<float>();
//   Tensor y = Tensor::Zeros(ElementType::kBF16, {8, 16});
#ifndef TESSEL_RUNTIME_TENSOR_H_
#define TESSEL_RUNTIME_TENSOR_H_

#include <cstddef>
#include <cstdint>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/types/span.h"
#include "runtime/element_type.h"

namespace tessel::runtime {

using Shape = std::vector<int64_t>;

// Number of elements of `shape` (1 for rank 0).
int64_t NumElements(absl::Span<const int64_t> shape);

// Row-major strides, in elements, of `shape`.
std::vector<int64_t> RowMajorStrides(absl::Span<const int64_t> shape);

// The memory limit: the most bytes the buffers of all live tensors of this process may hold
// together. A tensor whose buffer would go beyond it is not allocated; its constructor
// throws TensorAllocationError instead, which the interpreter turns into a status naming
// the op. 0, the default, is no limit (the allocator's own failure still throws it).
// Shared by every thread: the partitions of a local run share one budget.
void SetMemoryLimit(int64_t bytes);
int64_t MemoryLimit();

// The bytes held by the buffers of the tensors alive in this process.
int64_t TensorBytesInUse();

// A tensor buffer that could not be allocated: beyond the memory limit, beyond what the
// size type holds, or refused by the allocator. what() names the tensor's type and shape
// and the bytes asked. A std::bad_alloc, so code that copes with running out of memory
// copes with this too.
class TensorAllocationError : public std::bad_alloc {
 public:
  explicit TensorAllocationError(std::string message) : message_(std::move(message)) {}
  const char* what() const noexcept override { return message_.c_str(); }

 private:
  std::string message_;
};

class Tensor {
 public:
  // An empty f32 scalar-shaped tensor holding one zero; exists so containers can resize.
  Tensor();

  // Copies allocate, and so may throw TensorAllocationError, like the factories below.
  Tensor(const Tensor& other);
  Tensor& operator=(const Tensor& other);
  Tensor(Tensor&& other) noexcept = default;
  Tensor& operator=(Tensor&& other) noexcept = default;

  // A tensor of `shape` whose elements are all zero bits (0, +0.0, false).
  // REQUIRES: every dimension >= 0. Throws TensorAllocationError if the buffer cannot be
  // allocated (see SetMemoryLimit), as do the other factories and copies.
  static Tensor Zeros(ElementType type, Shape shape);

  // A tensor of `shape` whose elements are unspecified: for kernels that write every
  // element, so that a large result is not cleared only to be overwritten.
  // REQUIRES: every dimension >= 0; the caller writes every element before reading any.
  static Tensor Uninitialized(ElementType type, Shape shape);

  // A tensor of `shape` holding `values` in row-major order.
  // REQUIRES: values.size() == NumElements(shape); T is the C++ type of an ElementType.
  template <typename T>
  static Tensor FromVector(Shape shape, const std::vector<T>& values);

  // A rank-0 tensor holding `value`.
  template <typename T>
  static Tensor Scalar(T value) {
    return FromVector<T>({}, {value});
  }

  ElementType type() const { return type_; }
  const Shape& shape() const { return shape_; }
  int64_t rank() const { return static_cast<int64_t>(shape_.size()); }
  int64_t num_elements() const { return num_elements_; }
  int64_t byte_size() const { return static_cast<int64_t>(bytes_.size()); }

  // Typed views of the elements. REQUIRES: T matches type() (checked in debug builds).
  template <typename T>
  absl::Span<T> data();
  template <typename T>
  absl::Span<const T> data() const;

  // The elements as a vector of T (same REQUIRES as data()).
  template <typename T>
  std::vector<T> ToVector() const {
    absl::Span<const T> values = data<T>();
    return std::vector<T>(values.begin(), values.end());
  }

  absl::Span<std::byte> bytes() { return absl::MakeSpan(bytes_.data(), bytes_.size()); }
  absl::Span<const std::byte> bytes() const {
    return absl::MakeConstSpan(bytes_.data(), bytes_.size());
  }

  // This tensor's buffer under another shape with as many elements, in the same row-major
  // order; this tensor is left empty. REQUIRES: NumElements(shape) == num_elements().
  Tensor Reshaped(Shape shape) &&;

  // True if types, shapes and every element's bits are equal (so NaN equals the same NaN).
  bool BitwiseEquals(const Tensor& other) const;

  // "f32[2,3]" style type and shape.
  std::string ShapeString() const;

  // The shape followed by the elements, nested by dimension: "f32[2,2] {{1, 2}, {3, 4}}".
  // Tensors with more than `max_elements` elements print only their first elements.
  std::string ToString(int64_t max_elements = 1000) const;

 private:
  // An owned, 64-byte aligned byte buffer that copies deeply and moves cheaply. Unlike
  // std::vector it can be allocated without clearing it. Buffers of 4 MiB or more ask the
  // kernel for huge pages and, when freed, go to a small process-wide cache (at most 256
  // MiB) for the next buffer of the same size: a fresh multi-MiB result otherwise costs a
  // page fault and a page clear for all of its memory.
  //
  // Every buffer counts towards the memory limit while it lives. `what` describes the
  // tensor for the error when it cannot be allocated, and is called only then.
  class Buffer {
   public:
    Buffer() = default;
    Buffer(size_t size, bool zeroed, absl::FunctionRef<std::string()> what);
    Buffer(const Buffer& other, absl::FunctionRef<std::string()> what);
    Buffer(Buffer&& other) noexcept;
    Buffer& operator=(Buffer&& other) noexcept;
    ~Buffer();

    std::byte* data() { return data_; }
    const std::byte* data() const { return data_; }
    size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }

   private:
    std::byte* data_ = nullptr;
    size_t size_ = 0;
  };

  Tensor(ElementType type, Shape shape, bool zeroed);

  ElementType type_;
  Shape shape_;
  int64_t num_elements_;
  Buffer bytes_;
};

}  // namespace tessel::runtime

#include "runtime/tensor_inl.h"

#endif  // TESSEL_RUNTIME_TENSOR_H_
