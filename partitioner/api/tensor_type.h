// The static type of a tensor in a Tessel program: an element type and a shape. This is what
// GraphBuilder's shape inference computes and what Program reports for its signature.
//
//   TensorType x(ElementType::kF32, {16, 64});
//   x.ToString();      // "f32[16,64]"
//   x.num_elements();  // 1024
//
// Element types are the API's (element_type.h), the same list as the host tensors a program
// runs on.
#ifndef TESSEL_PARTITIONER_API_TENSOR_TYPE_H_
#define TESSEL_PARTITIONER_API_TENSOR_TYPE_H_

#include <cstdint>
#include <iosfwd>
#include <string>
#include <utility>
#include <vector>

#include "partitioner/api/element_type.h"

namespace tessel {

class TensorType {
 public:
  // A rank-0 f32 tensor; exists so containers of types can be resized.
  TensorType() = default;
  TensorType(ElementType element_type, std::vector<int64_t> dimensions)
      : element_type_(element_type), dimensions_(std::move(dimensions)) {}

  ElementType element_type() const { return element_type_; }
  const std::vector<int64_t>& dimensions() const { return dimensions_; }
  int64_t rank() const { return static_cast<int64_t>(dimensions_.size()); }
  // REQUIRES: 0 <= i < rank().
  int64_t dimension(int64_t i) const { return dimensions_[i]; }
  // The product of the dimensions (1 for rank 0).
  int64_t num_elements() const;

  // The same shape with another element type.
  TensorType WithElementType(ElementType element_type) const {
    return TensorType(element_type, dimensions_);
  }

  // XLA's spelling, used in every diagnostic of the API: "f32[16,64]", "pred[]".
  std::string ToString() const;

  friend bool operator==(const TensorType& a, const TensorType& b) {
    return a.element_type_ == b.element_type_ && a.dimensions_ == b.dimensions_;
  }
  friend bool operator!=(const TensorType& a, const TensorType& b) { return !(a == b); }

 private:
  ElementType element_type_ = ElementType::kF32;
  std::vector<int64_t> dimensions_;
};

// gtest and absl::StrCat-friendly printing.
std::ostream& operator<<(std::ostream& os, const TensorType& type);

}  // namespace tessel

#endif  // TESSEL_PARTITIONER_API_TENSOR_TYPE_H_
