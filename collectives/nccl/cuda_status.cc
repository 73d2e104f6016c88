// Status conversions for CUDA and NCCL result codes.
#include "collectives/nccl/cuda_status.h"

#include "absl/strings/str_cat.h"

namespace tessel::collectives::nccl {

absl::Status CudaStatus(cudaError_t code, absl::string_view what) {
  if (code == cudaSuccess) return absl::OkStatus();
  return absl::InternalError(
      absl::StrCat(what, " failed: ", cudaGetErrorName(code), ": ", cudaGetErrorString(code)));
}

absl::Status NcclStatus(ncclResult_t code, absl::string_view what, ncclComm_t comm) {
  if (code == ncclSuccess || code == ncclInProgress) return absl::OkStatus();
  std::string message = absl::StrCat(what, " failed: ", ncclGetErrorString(code));
  if (comm != nullptr) {
    const char* last = ncclGetLastError(comm);
    if (last != nullptr && last[0] != '\0') absl::StrAppend(&message, " (", last, ")");
  }
  if (code == ncclInvalidArgument || code == ncclInvalidUsage) {
    return absl::InvalidArgumentError(message);
  }
  return absl::InternalError(message);
}

int CudaDeviceCount() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();  // clear the sticky "no driver" error for later calls
    return 0;
  }
  return count;
}

}  // namespace tessel::collectives::nccl
