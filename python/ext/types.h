// Tensor types and host tensors as Python sees them: a type is (element type name, shape),
// "f32" and [16, 64]; a tensor crosses as (element type name, shape, bytes) and numpy
// views the bytes on the Python side.
#ifndef TESSEL_PYTHON_EXT_TYPES_H_
#define TESSEL_PYTHON_EXT_TYPES_H_

#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "partitioner/api/host_tensor.h"
#include "partitioner/api/tensor_type.h"
#include "pybind11/pybind11.h"

namespace tessel::python {

using TypeTuple = std::tuple<std::string, std::vector<int64_t>>;

TypeTuple ToTuple(const TensorType& type);
std::vector<TypeTuple> TypeTuples(const std::vector<TensorType>& types);

// The element type named `name` ("f32"); throws Error for another name.
ElementType ElementTypeNamed(const std::string& name);

// A host tensor of `type` and `shape` holding the bytes of `data` (any buffer: bytes,
// a C-contiguous numpy array). Throws Error when the sizes disagree.
HostTensor ToHostTensor(const std::string& type, const std::vector<int64_t>& shape,
                        const pybind11::buffer& data);

// (type name, shape, bytes).
pybind11::tuple FromHostTensor(const HostTensor& tensor);

}  // namespace tessel::python

#endif  // TESSEL_PYTHON_EXT_TYPES_H_
