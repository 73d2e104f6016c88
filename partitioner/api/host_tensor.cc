// HostTensor over the runtime's tensor.
#include "partitioner/api/host_tensor.h"

#include <algorithm>
#include <cstring>
#include <ostream>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "partitioner/api/element_type_conversion.h"
#include "partitioner/api/host_tensor_access.h"
#include "runtime/random_inputs.h"

namespace tessel {

class HostTensor::Rep {
 public:
  runtime::Tensor tensor;
};

namespace {

absl::Status CheckShape(const std::vector<int64_t>& shape) {
  for (int64_t d : shape) {
    if (d < 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("shape [", absl::StrJoin(shape, ","), "] has a negative dimension"));
    }
  }
  return absl::OkStatus();
}

}  // namespace

HostTensor::HostTensor() : rep_(std::make_unique<Rep>()) {}
HostTensor::HostTensor(std::unique_ptr<Rep> rep) : rep_(std::move(rep)) {}
HostTensor::HostTensor(const HostTensor& other) : rep_(std::make_unique<Rep>(*other.rep_)) {}
HostTensor& HostTensor::operator=(const HostTensor& other) {
  if (this != &other) rep_ = std::make_unique<Rep>(*other.rep_);
  return *this;
}
// A moved-from tensor is left as the default f32 zero, so that it stays usable.
HostTensor::HostTensor(HostTensor&& other) noexcept : rep_(std::move(other.rep_)) {
  other.rep_ = std::make_unique<Rep>();
}
HostTensor& HostTensor::operator=(HostTensor&& other) noexcept {
  std::swap(rep_, other.rep_);
  return *this;
}
HostTensor::~HostTensor() = default;

absl::StatusOr<HostTensor> HostTensor::Zeros(ElementType type, std::vector<int64_t> shape) {
  absl::Status status = CheckShape(shape);
  if (!status.ok()) return status;
  return HostTensorAccess::FromRuntime(runtime::Tensor::Zeros(ToRuntime(type), std::move(shape)));
}

absl::StatusOr<HostTensor> HostTensor::FromBytes(ElementType type, std::vector<int64_t> shape,
                                                 absl::Span<const std::byte> bytes) {
  absl::Status status = CheckShape(shape);
  if (!status.ok()) return status;
  runtime::Tensor tensor = runtime::Tensor::Uninitialized(ToRuntime(type), shape);
  if (static_cast<int64_t>(bytes.size()) != tensor.byte_size()) {
    return absl::InvalidArgumentError(absl::StrCat(
        tensor.ShapeString(), " holds ", tensor.num_elements(), " elements (",
        tensor.byte_size(), " bytes) but ", bytes.size(), " bytes were given"));
  }
  if (!bytes.empty()) std::memcpy(tensor.bytes().data(), bytes.data(), bytes.size());
  return HostTensorAccess::FromRuntime(std::move(tensor));
}

HostTensor HostTensor::Random(ElementType type, std::vector<int64_t> shape, uint64_t seed) {
  for (int64_t& d : shape) d = std::max<int64_t>(d, 0);
  return HostTensorAccess::FromRuntime(runtime::RandomTensor(ToRuntime(type), std::move(shape), seed));
}

ElementType HostTensor::element_type() const { return FromRuntime(rep_->tensor.type()); }
const std::vector<int64_t>& HostTensor::shape() const { return rep_->tensor.shape(); }
int64_t HostTensor::num_elements() const { return rep_->tensor.num_elements(); }
int64_t HostTensor::byte_size() const { return rep_->tensor.byte_size(); }
absl::Span<const std::byte> HostTensor::bytes() const {
  const runtime::Tensor& tensor = rep_->tensor;
  return tensor.bytes();
}
absl::Span<std::byte> HostTensor::mutable_bytes() { return rep_->tensor.bytes(); }
std::string HostTensor::ShapeString() const { return rep_->tensor.ShapeString(); }
std::string HostTensor::ToString(int64_t max_elements) const {
  return rep_->tensor.ToString(max_elements);
}

bool operator==(const HostTensor& a, const HostTensor& b) {
  return a.rep_->tensor.BitwiseEquals(b.rep_->tensor);
}

std::ostream& operator<<(std::ostream& os, const HostTensor& tensor) {
  return os << tensor.ToString();
}

const runtime::Tensor& HostTensorAccess::Runtime(const HostTensor& tensor) {
  return tensor.rep_->tensor;
}

HostTensor HostTensorAccess::FromRuntime(runtime::Tensor tensor) {
  auto rep = std::make_unique<HostTensor::Rep>();
  rep->tensor = std::move(tensor);
  return HostTensor(std::move(rep));
}

}  // namespace tessel
