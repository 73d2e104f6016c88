// The NCCL backend's collectives: each checks its arguments with the shared Validate*
// helpers, describes itself for verification, and enqueues its NCCL work through Run.
#include <algorithm>
#include <cstring>
#include <vector>

#include "absl/strings/str_cat.h"
#include "collectives/nccl/cuda_status.h"
#include "collectives/nccl/nccl_communicator.h"
#include "collectives/nccl/nccl_types.h"
#include "support/status_macros.h"

namespace tessel::collectives {
namespace {

int PositionOf(absl::Span<const int64_t> group, int64_t id) {
  auto it = std::find(group.begin(), group.end(), id);
  return it == group.end() ? -1 : static_cast<int>(it - group.begin());
}

int64_t HashPairs(absl::Span<const SourceTarget> pairs) {
  uint64_t hash = 14695981039346656037ull;  // FNV-1a
  for (const SourceTarget& pair : pairs) {
    for (int64_t id : {pair.source, pair.target}) {
      hash ^= static_cast<uint64_t>(id);
      hash *= 1099511628211ull;
    }
  }
  return static_cast<int64_t>(hash);
}

// Copies `bytes` between host memory and the caller's buffer, which is device memory on
// `device` when `on_device`.
absl::Status CopyFromBuffer(bool on_device, int device, void* host, const void* buffer,
                            int64_t bytes) {
  if (bytes == 0) return absl::OkStatus();
  if (!on_device) {
    std::memcpy(host, buffer, bytes);
    return absl::OkStatus();
  }
  TESSEL_RETURN_IF_ERROR(nccl::CudaStatus(cudaSetDevice(device), "cudaSetDevice"));
  return nccl::CudaStatus(cudaMemcpy(host, buffer, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy");
}

absl::Status CopyToBuffer(bool on_device, int device, void* buffer, const void* host,
                          int64_t bytes) {
  if (bytes == 0) return absl::OkStatus();
  if (!on_device) {
    std::memcpy(buffer, host, bytes);
    return absl::OkStatus();
  }
  TESSEL_RETURN_IF_ERROR(nccl::CudaStatus(cudaSetDevice(device), "cudaSetDevice"));
  return nccl::CudaStatus(cudaMemcpy(buffer, host, bytes, cudaMemcpyHostToDevice), "cudaMemcpy");
}

}  // namespace

absl::Status NcclCommunicator::Reduce(absl::string_view name, int64_t self,
                                      absl::Span<const int64_t> group, Signature signature,
                                      absl::Status own_status, ReductionKind kind, int64_t blocks,
                                      ConstBuffer input, Buffer output) {
  const DataType type = input.type;
  // NCCL values each member ends with (two per complex element); meaningful once own_status
  // is OK.
  const int64_t count =
      input.num_elements / std::max<int64_t>(blocks, 1) * nccl::ReductionValuesPerElement(type);
  const ncclDataType_t nccl_type = nccl::ReductionNcclType(type);
  const ncclRedOp_t op = nccl::ReductionNcclOp(type, kind);
  Enqueue enqueue = [this, count, nccl_type, op, blocks](const Call& call,
                                                         const Operands& operands) {
    if (blocks == 1) {
      return Check(call,
                   ncclAllReduce(operands.input, operands.output, count, nccl_type, op, call.comm,
                                 call.partition->stream),
                   "ncclAllReduce");
    }
    return Check(call,
                 ncclReduceScatter(operands.input, operands.output, count, nccl_type, op, call.comm,
                                   call.partition->stream),
                 "ncclReduceScatter");
  };
  if (!nccl::ReductionWidens(type) || !own_status.ok()) {
    return Run(name, self, group, signature, own_status, options_.buffers, input.data,
               input.byte_size(), output.data, own_status.ok() ? output.byte_size() : 0,
               /*in_place_ok=*/blocks == 1, /*always_enqueue=*/false, enqueue);
  }
  // s16 and u16: NCCL has no 16-bit integers, so the values are widened to 32 bits on the
  // host, reduced there-through, and narrowed back (exact; see nccl_types.h).
  TESSEL_ASSIGN_OR_RETURN(Partition * partition, Local(name, self, group));
  const bool on_device = options_.buffers == BufferLocation::kDevice;
  std::vector<char> narrow(input.byte_size()), wide_input(input.num_elements * 4),
      wide_output(count * 4);
  TESSEL_RETURN_IF_ERROR(
      CopyFromBuffer(on_device, partition->device, narrow.data(), input.data, input.byte_size()));
  nccl::Widen(type, narrow.data(), wide_input.data(), input.num_elements);
  TESSEL_RETURN_IF_ERROR(Run(name, self, group, signature, own_status, BufferLocation::kHost,
                             wide_input.data(), wide_input.size(), wide_output.data(),
                             wide_output.size(), /*in_place_ok=*/false,
                             /*always_enqueue=*/false, enqueue));
  narrow.resize(output.byte_size());
  nccl::Narrow(type, wide_output.data(), narrow.data(), count);
  return CopyToBuffer(on_device, partition->device, output.data, narrow.data(), output.byte_size());
}

absl::Status NcclCommunicator::AllReduce(int64_t self, absl::Span<const int64_t> group,
                                         ReductionKind kind, ConstBuffer input, Buffer output) {
  absl::Status own = nccl::ValidateNcclReduction(input.type, kind);
  if (own.ok()) own = ValidateOutput(input, output, input.num_elements);
  Signature signature{kAllReduceCode, static_cast<int64_t>(input.type), input.num_elements,
                      output.num_elements, static_cast<int64_t>(kind)};
  return Reduce("all_reduce", self, group, signature, own, kind, /*blocks=*/1, input, output);
}

absl::Status NcclCommunicator::ReduceScatter(int64_t self, absl::Span<const int64_t> group,
                                             ReductionKind kind, ConstBuffer input, Buffer output) {
  const int64_t size = std::max<int64_t>(static_cast<int64_t>(group.size()), 1);
  absl::Status own = nccl::ValidateNcclReduction(input.type, kind);
  if (own.ok()) own = ValidateDivisible("input", input.num_elements, size);
  if (own.ok()) own = ValidateOutput(input, output, input.num_elements / size);
  Signature signature{kReduceScatterCode, static_cast<int64_t>(input.type), input.num_elements,
                      output.num_elements, static_cast<int64_t>(kind)};
  return Reduce("reduce_scatter", self, group, signature, own, kind, size, input, output);
}

absl::Status NcclCommunicator::AllGather(int64_t self, absl::Span<const int64_t> group,
                                         ConstBuffer input, Buffer output) {
  const int64_t size = static_cast<int64_t>(group.size());
  absl::Status own = ValidateOutput(input, output, size * input.num_elements);
  Signature signature{kAllGatherCode, static_cast<int64_t>(input.type), input.num_elements,
                      output.num_elements};
  const size_t bytes = input.byte_size();
  Enqueue enqueue = [this, bytes](const Call& call, const Operands& operands) {
    return Check(call,
                 ncclAllGather(operands.input, operands.output, bytes, ncclUint8, call.comm,
                               call.partition->stream),
                 "ncclAllGather");
  };
  return Run("all_gather", self, group, signature, own, options_.buffers, input.data,
             input.byte_size(), output.data, own.ok() ? output.byte_size() : 0,
             /*in_place_ok=*/false, /*always_enqueue=*/false, enqueue);
}

absl::Status NcclCommunicator::AllToAll(int64_t self, absl::Span<const int64_t> group,
                                        ConstBuffer input, Buffer output) {
  const int64_t size = std::max<int64_t>(static_cast<int64_t>(group.size()), 1);
  absl::Status own = ValidateOutput(input, output, input.num_elements);
  if (own.ok()) own = ValidateDivisible("input", input.num_elements, size);
  Signature signature{kAllToAllCode, static_cast<int64_t>(input.type), input.num_elements,
                      output.num_elements};
  const size_t block = input.byte_size() / size;
  Enqueue enqueue = [this, size, block](const Call& call, const Operands& operands) {
    cudaStream_t stream = call.partition->stream;
    auto* in = static_cast<const char*>(operands.input);
    auto* out = static_cast<char*>(operands.output);
    const size_t own_block = call.position * block;
    TESSEL_RETURN_IF_ERROR(CheckCuda(
        call,
        cudaMemcpyAsync(out + own_block, in + own_block, block, cudaMemcpyDeviceToDevice, stream),
        "cudaMemcpyAsync"));
    if (size == 1) return absl::OkStatus();
    TESSEL_RETURN_IF_ERROR(Check(call, ncclGroupStart(), "ncclGroupStart"));
    ncclResult_t first = ncclSuccess;
    for (int64_t j = 0; j < size; ++j) {
      if (j == call.position) continue;
      ncclResult_t sent =
          ncclSend(in + j * block, block, ncclUint8, static_cast<int>(j), call.comm, stream);
      ncclResult_t received =
          ncclRecv(out + j * block, block, ncclUint8, static_cast<int>(j), call.comm, stream);
      if (first == ncclSuccess) first = sent != ncclSuccess ? sent : received;
    }
    // The group must be closed even after a failed send or receive.
    ncclResult_t ended = ncclGroupEnd();
    if (first != ncclSuccess && first != ncclInProgress) return Check(call, first, "ncclSend");
    return Check(call, ended, "ncclGroupEnd");
  };
  return Run("all_to_all", self, group, signature, own, options_.buffers, input.data,
             input.byte_size(), output.data, own.ok() ? output.byte_size() : 0,
             /*in_place_ok=*/false, /*always_enqueue=*/false, enqueue);
}

absl::Status NcclCommunicator::CollectivePermute(int64_t self, absl::Span<const int64_t> group,
                                                 absl::Span<const SourceTarget> pairs,
                                                 ConstBuffer input, Buffer output) {
  absl::Status own = ValidateOutput(input, output, input.num_elements);
  if (own.ok()) own = ValidatePairs(group, pairs);
  Signature signature{kCollectivePermuteCode,
                      static_cast<int64_t>(input.type),
                      input.num_elements,
                      output.num_elements,
                      /*kind=*/0,
                      /*root=*/0,
                      HashPairs(pairs)};
  int send_to = -1, receive_from = -1;  // positions in the group
  for (const SourceTarget& pair : pairs) {
    if (pair.source == self) send_to = PositionOf(group, pair.target);
    if (pair.target == self) receive_from = PositionOf(group, pair.source);
  }
  const size_t bytes = input.byte_size();
  Enqueue enqueue = [this, bytes, send_to, receive_from](const Call& call,
                                                         const Operands& operands) {
    cudaStream_t stream = call.partition->stream;
    if (receive_from < 0) {
      // No source sends here: the interface fills the output with zeros.
      TESSEL_RETURN_IF_ERROR(
          CheckCuda(call, cudaMemsetAsync(operands.output, 0, bytes, stream), "cudaMemsetAsync"));
    }
    if (send_to == call.position) {
      return CheckCuda(
          call,
          cudaMemcpyAsync(operands.output, operands.input, bytes, cudaMemcpyDeviceToDevice, stream),
          "cudaMemcpyAsync");
    }
    if (send_to < 0 && receive_from < 0) return absl::OkStatus();
    TESSEL_RETURN_IF_ERROR(Check(call, ncclGroupStart(), "ncclGroupStart"));
    ncclResult_t sent = ncclSuccess, received = ncclSuccess;
    if (send_to >= 0) sent = ncclSend(operands.input, bytes, ncclUint8, send_to, call.comm, stream);
    if (receive_from >= 0) {
      received = ncclRecv(operands.output, bytes, ncclUint8, receive_from, call.comm, stream);
    }
    ncclResult_t ended = ncclGroupEnd();
    if (sent != ncclSuccess && sent != ncclInProgress) return Check(call, sent, "ncclSend");
    if (received != ncclSuccess && received != ncclInProgress) {
      return Check(call, received, "ncclRecv");
    }
    return Check(call, ended, "ncclGroupEnd");
  };
  return Run("collective_permute", self, group, signature, own, options_.buffers, input.data,
             input.byte_size(), output.data, own.ok() ? output.byte_size() : 0,
             /*in_place_ok=*/false, /*always_enqueue=*/false, enqueue);
}

absl::Status NcclCommunicator::Broadcast(int64_t self, absl::Span<const int64_t> group,
                                         int64_t root, Buffer buffer) {
  const int root_position = PositionOf(group, root);
  absl::Status own = absl::OkStatus();
  if (root_position < 0) {
    own = absl::InvalidArgumentError(
        absl::StrCat("root ", root, " is not in the group ", GroupString(group)));
  }
  Signature signature{kBroadcastCode,      static_cast<int64_t>(buffer.type),
                      buffer.num_elements, buffer.num_elements,
                      /*kind=*/0,          root};
  const size_t bytes = buffer.byte_size();
  Enqueue enqueue = [this, bytes, root_position](const Call& call, const Operands& operands) {
    return Check(call,
                 ncclBroadcast(operands.input, operands.output, bytes, ncclUint8, root_position,
                               call.comm, call.partition->stream),
                 "ncclBroadcast");
  };
  return Run("broadcast", self, group, signature, own, options_.buffers, buffer.data,
             buffer.byte_size(), buffer.data, buffer.byte_size(), /*in_place_ok=*/true,
             /*always_enqueue=*/false, enqueue);
}

absl::Status NcclCommunicator::Barrier(int64_t self, absl::Span<const int64_t> group) {
  Signature signature{kBarrierCode};
  Enqueue enqueue = [this](const Call& call, const Operands&) -> absl::Status {
    // A one-element sum completes on no member before every member has joined it.
    TESSEL_ASSIGN_OR_RETURN(void* word, Reserve(call, call.partition->output, sizeof(int32_t)));
    return Check(
        call, ncclAllReduce(word, word, 1, ncclInt32, ncclSum, call.comm, call.partition->stream),
        "ncclAllReduce");
  };
  return Run("barrier", self, group, signature, absl::OkStatus(), BufferLocation::kDevice, nullptr,
             0, nullptr, 0, /*in_place_ok=*/true, /*always_enqueue=*/true, enqueue);
}

}  // namespace tessel::collectives
