// Turning CUDA runtime and NCCL result codes into absl::Status, and the device queries the
// NCCL backend and its tests share.
#ifndef TESSEL_COLLECTIVES_NCCL_CUDA_STATUS_H_
#define TESSEL_COLLECTIVES_NCCL_CUDA_STATUS_H_

#include <cuda_runtime_api.h>
#include <nccl.h>

#include <cstdint>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace tessel::collectives::nccl {

// OK for cudaSuccess, otherwise Internal naming `what` and CUDA's error string.
absl::Status CudaStatus(cudaError_t code, absl::string_view what);

// OK for ncclSuccess, otherwise Internal (InvalidArgument for ncclInvalidArgument and
// ncclInvalidUsage) naming `what`, NCCL's error string and, when `comm` is not null, its
// last error message. ncclInProgress is not an error; callers poll for it.
absl::Status NcclStatus(ncclResult_t code, absl::string_view what, ncclComm_t comm = nullptr);

// The number of CUDA devices this process can use; 0 when there is no device or no driver
// (the CUDA runtime reports both as errors, which here mean "none").
int CudaDeviceCount();

}  // namespace tessel::collectives::nccl

#endif  // TESSEL_COLLECTIVES_NCCL_CUDA_STATUS_H_
