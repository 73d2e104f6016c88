// Tensor types and host tensors between Python and the C++ API (types.h).
#include "python/ext/types.h"

#include <cstddef>
#include <string>
#include <utility>

#include "absl/types/span.h"
#include "pybind11/stl.h"
#include "python/ext/errors.h"

namespace tessel::python {
namespace py = pybind11;

TypeTuple ToTuple(const TensorType& type) {
  return TypeTuple(std::string(ElementTypeName(type.element_type())),
                   type.dimensions());
}

std::vector<TypeTuple> TypeTuples(const std::vector<TensorType>& types) {
  std::vector<TypeTuple> tuples;
  for (const TensorType& type : types) tuples.push_back(ToTuple(type));
  return tuples;
}

ElementType ElementTypeNamed(const std::string& name) {
  for (ElementType type : kAllElementTypes) {
    if (ElementTypeName(type) == name) return type;
  }
  throw Error("unknown element type '" + name + "'");
}

HostTensor ToHostTensor(const std::string& type, const std::vector<int64_t>& shape,
                        const py::buffer& data) {
  py::buffer_info info = data.request();
  if (info.ndim > 1 && info.strides.back() != info.itemsize) {
    throw Error("the array's elements are not contiguous");
  }
  auto bytes = absl::MakeConstSpan(static_cast<const std::byte*>(info.ptr),
                                   static_cast<size_t>(info.size * info.itemsize));
  return Unwrap(HostTensor::FromBytes(ElementTypeNamed(type), shape, bytes));
}

py::tuple FromHostTensor(const HostTensor& tensor) {
  absl::Span<const std::byte> bytes = tensor.bytes();
  return py::make_tuple(
      std::string(ElementTypeName(tensor.element_type())), tensor.shape(),
      py::bytes(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
}

}  // namespace tessel::python
