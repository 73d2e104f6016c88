// The seam between HostTensor and the runtime's tensor inside the library: a HostTensor
// holds a runtime::Tensor, so passing one to the interpreter or the SPMD runner copies
// nothing beyond what the runtime's own calls copy. Internal to partitioner/api.
#ifndef TESSEL_PARTITIONER_API_HOST_TENSOR_ACCESS_H_
#define TESSEL_PARTITIONER_API_HOST_TENSOR_ACCESS_H_

#include "partitioner/api/host_tensor.h"
#include "runtime/tensor.h"

namespace tessel {

class HostTensorAccess {
 public:
  static const runtime::Tensor& Runtime(const HostTensor& tensor);
  static HostTensor FromRuntime(runtime::Tensor tensor);
};

}  // namespace tessel

#endif  // TESSEL_PARTITIONER_API_HOST_TENSOR_ACCESS_H_
