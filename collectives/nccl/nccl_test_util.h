// Helpers for the NCCL backend's tests: skipping where there are too few GPUs, and running
// a collective on host vectors through either buffer location.
#ifndef TESSEL_COLLECTIVES_NCCL_NCCL_TEST_UTIL_H_
#define TESSEL_COLLECTIVES_NCCL_NCCL_TEST_UTIL_H_

#include <cuda_runtime_api.h>

#include <cstdint>
#include <functional>

#include "absl/status/status.h"
#include "collectives/data_type.h"
#include "collectives/nccl/cuda_status.h"
#include "collectives/nccl/nccl_communicator.h"
#include "gtest/gtest.h"
#include "support/status_macros.h"

// Skips the current test, with the reason, unless this process sees `n` CUDA devices. The
// tests are reported as skipped, never as passed, on machines without enough GPUs.
#define TESSEL_SKIP_WITHOUT_DEVICES(n)                                                         \
  if (int found_devices = ::tessel::collectives::nccl::CudaDeviceCount(); found_devices < (n)) \
  GTEST_SKIP() << "needs " << (n) << " CUDA device(s), found " << found_devices

namespace tessel::collectives::nccl::testing {

// The communicator options of a test: the buffer location under test and a short timeout.
inline NcclCommunicator::Options OptionsFor(NcclCommunicator::BufferLocation location,
                                            absl::Duration timeout = absl::Seconds(60)) {
  NcclCommunicator::Options options;
  options.buffers = location;
  options.timeout = timeout;
  return options;
}

// Calls `collective` with `input` and `output`, host memory, as the communicator expects
// them: unchanged for host buffers; for device buffers copied to fresh memory on `device`
// and the output copied back. An output that is the input stays one buffer (in place).
inline absl::Status WithBuffers(
    NcclCommunicator::BufferLocation location, int device, ConstBuffer input, Buffer output,
    const std::function<absl::Status(ConstBuffer, Buffer)>& collective) {
  if (location == NcclCommunicator::BufferLocation::kHost) return collective(input, output);
  const bool in_place = input.data == output.data;
  TESSEL_RETURN_IF_ERROR(CudaStatus(cudaSetDevice(device), "cudaSetDevice"));
  void* device_input = nullptr;
  void* device_output = nullptr;
  // One byte at least, so empty buffers still get distinct addresses.
  TESSEL_RETURN_IF_ERROR(
      CudaStatus(cudaMalloc(&device_input, input.byte_size() + 1), "cudaMalloc"));
  if (in_place) {
    device_output = device_input;
  } else {
    TESSEL_RETURN_IF_ERROR(
        CudaStatus(cudaMalloc(&device_output, output.byte_size() + 1), "cudaMalloc"));
    TESSEL_RETURN_IF_ERROR(CudaStatus(
        cudaMemcpy(device_output, output.data, output.byte_size(), cudaMemcpyHostToDevice),
        "cudaMemcpy"));
  }
  TESSEL_RETURN_IF_ERROR(
      CudaStatus(cudaMemcpy(device_input, input.data, input.byte_size(), cudaMemcpyHostToDevice),
                 "cudaMemcpy"));
  absl::Status status = collective(ConstBuffer{input.type, device_input, input.num_elements},
                                   Buffer{output.type, device_output, output.num_elements});
  absl::Status copied =
      CudaStatus(cudaMemcpy(output.data, device_output, output.byte_size(), cudaMemcpyDeviceToHost),
                 "cudaMemcpy");
  cudaFree(device_input);
  if (!in_place) cudaFree(device_output);
  TESSEL_RETURN_IF_ERROR(status);
  return copied;
}

}  // namespace tessel::collectives::nccl::testing

#endif  // TESSEL_COLLECTIVES_NCCL_NCCL_TEST_UTIL_H_
