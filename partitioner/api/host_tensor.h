// HostTensor: a dense, row-major tensor in host memory, what Run() takes and returns. A small
// value type: an element type, a shape and the bytes, with typed views.
//
//   TESSEL_ASSIGN_OR_RETURN(HostTensor x,
//                           HostTensor::FromVector<float>({2, 2}, {1, 2, 3, 4}));
//   HostTensor w = HostTensor::Random(ElementType::kF32, {2, 8}, /*seed=*/1);
//   absl::Span<const float> values = x.data<float>();   // {1, 2, 3, 4}
//   std::cout << x << "\n";                             // f32[2,2] {{1, 2}, {3, 4}}
//
// The element types are ElementType's: pred (bool), s8..s64, u8..u64, f16 and bf16 (by bytes,
// or Eigen's half and bfloat16 where the program specializes ElementTypeTraits), f32, f64,
// c64, c128. Copies are deep; moves are cheap.
#ifndef TESSEL_PARTITIONER_API_HOST_TENSOR_H_
#define TESSEL_PARTITIONER_API_HOST_TENSOR_H_

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "partitioner/api/element_type.h"

namespace tessel {

class HostTensor {
 public:
  // A rank-0 f32 zero; exists so that containers of tensors can be resized.
  HostTensor();
  HostTensor(const HostTensor& other);
  HostTensor& operator=(const HostTensor& other);
  HostTensor(HostTensor&& other) noexcept;
  HostTensor& operator=(HostTensor&& other) noexcept;
  ~HostTensor();

  // A tensor of `shape` whose elements are all zero. Fails with InvalidArgument for a
  // negative dimension.
  static absl::StatusOr<HostTensor> Zeros(ElementType type, std::vector<int64_t> shape);

  // A tensor of `shape` holding `bytes` (row-major, native byte order). Fails with
  // InvalidArgument for a negative dimension or a byte count that does not fit the shape.
  static absl::StatusOr<HostTensor> FromBytes(ElementType type, std::vector<int64_t> shape,
                                              absl::Span<const std::byte> bytes);

  // A tensor of `shape` holding `values` in row-major order; T is the C++ type of an element
  // type with ElementTypeTraits (bool, int32_t, float, ...). Fails with InvalidArgument if the number
  // of values is not the number of elements of `shape`.
  template <typename T>
  static absl::StatusOr<HostTensor> FromVector(std::vector<int64_t> shape,
                                               const std::vector<T>& values) {
    if constexpr (std::is_same_v<T, bool>) {
      // std::vector<bool> packs its bits; pred takes one byte per element.
      std::vector<uint8_t> bytes(values.begin(), values.end());
      return FromBytes(ElementType::kPred, std::move(shape),
                       absl::MakeConstSpan(reinterpret_cast<const std::byte*>(bytes.data()),
                                           bytes.size()));
    } else {
      return FromBytes(ElementTypeOf<T>(), std::move(shape),
                       absl::MakeConstSpan(reinterpret_cast<const std::byte*>(values.data()),
                                           values.size() * sizeof(T)));
    }
  }

  // A rank-0 tensor holding `value`.
  template <typename T>
  static HostTensor Scalar(T value) {
    return *FromVector<T>({}, {value});
  }

  // Seeded random values, the same bits on every machine: floats uniform over [-1, 1) on a
  // grid the type holds exactly, signed integers in [-8, 8], unsigned in [0, 16], pred
  // either way. Dimensions below 0 count as 0.
  static HostTensor Random(ElementType type, std::vector<int64_t> shape, uint64_t seed);

  ElementType element_type() const;
  const std::vector<int64_t>& shape() const;
  int64_t rank() const { return static_cast<int64_t>(shape().size()); }
  int64_t num_elements() const;
  int64_t byte_size() const;

  // The elements, row-major. Empty if T is not the C++ type of element_type().
  template <typename T>
  absl::Span<const T> data() const {
    if (ElementTypeOf<T>() != element_type()) return {};
    return absl::MakeConstSpan(reinterpret_cast<const T*>(bytes().data()), num_elements());
  }
  template <typename T>
  absl::Span<T> mutable_data() {
    if (ElementTypeOf<T>() != element_type()) return {};
    return absl::MakeSpan(reinterpret_cast<T*>(mutable_bytes().data()), num_elements());
  }
  // The elements as a vector; empty if T is not the C++ type of element_type().
  template <typename T>
  std::vector<T> ToVector() const {
    absl::Span<const T> values = data<T>();
    return std::vector<T>(values.begin(), values.end());
  }

  absl::Span<const std::byte> bytes() const;
  absl::Span<std::byte> mutable_bytes();

  // "f32[2,3]".
  std::string ShapeString() const;
  // The shape and the elements, nested by dimension: "f32[2,2] {{1, 2}, {3, 4}}"; tensors
  // with more than `max_elements` elements print only their first elements.
  std::string ToString(int64_t max_elements = 1000) const;

  // Same element type, shape and bits (so a NaN equals the same NaN).
  friend bool operator==(const HostTensor& a, const HostTensor& b);
  friend bool operator!=(const HostTensor& a, const HostTensor& b) { return !(a == b); }

 private:
  friend class HostTensorAccess;  // the library's conversion to the runtime's tensors
  class Rep;
  explicit HostTensor(std::unique_ptr<Rep> rep);

  std::unique_ptr<Rep> rep_;
};

std::ostream& operator<<(std::ostream& os, const HostTensor& tensor);

}  // namespace tessel

#endif  // TESSEL_PARTITIONER_API_HOST_TENSOR_H_
