// The NCCL backend's machinery shared by every collective: creation, the per-group NCCL
// communicators, call verification, staging, polling with a deadline, and failure handling.
// The collectives themselves are in nccl_collectives.cc.
#include "collectives/nccl/nccl_communicator.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <set>
#include <thread>
#include <utility>

#include "absl/strings/str_cat.h"
#include "collectives/nccl/cuda_status.h"
#include "support/status_macros.h"

namespace tessel::collectives {
namespace {

using nccl::CudaStatus;
using nccl::NcclStatus;

// Whether two byte ranges share a byte.
bool Overlap(const void* a, int64_t a_bytes, const void* b, int64_t b_bytes) {
  auto* a0 = static_cast<const char*>(a);
  auto* b0 = static_cast<const char*>(b);
  return a_bytes > 0 && b_bytes > 0 && a0 < b0 + b_bytes && b0 < a0 + a_bytes;
}

}  // namespace

absl::StatusOr<std::unique_ptr<NcclCommunicator>> NcclCommunicator::Create(
    int64_t num_partitions, std::vector<LocalPartition> local,
    std::shared_ptr<nccl::NcclBootstrap> bootstrap, Options options) {
  if (num_partitions < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("number of partitions ", num_partitions, " is not positive"));
  }
  if (options.timeout <= absl::ZeroDuration()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "collective timeout ", absl::FormatDuration(options.timeout), " is not positive"));
  }
  if (bootstrap == nullptr) return absl::InvalidArgumentError("no NCCL bootstrap given");
  const int devices = nccl::CudaDeviceCount();
  if (devices == 0) {
    return absl::FailedPreconditionError("the NCCL communicator needs a CUDA device; found none");
  }
  std::set<int64_t> seen_partitions;
  std::set<int> seen_devices;
  for (const LocalPartition& p : local) {
    if (p.partition < 0 || p.partition >= num_partitions) {
      return absl::InvalidArgumentError(
          absl::StrCat("partition ", p.partition, " is out of range [0, ", num_partitions, ")"));
    }
    if (!seen_partitions.insert(p.partition).second) {
      return absl::InvalidArgumentError(
          absl::StrCat("partition ", p.partition, " is listed twice"));
    }
    if (p.device < 0 || p.device >= devices) {
      return absl::InvalidArgumentError(absl::StrCat("partition ", p.partition, " is on device ",
                                                     p.device, ", but this process sees ", devices,
                                                     " CUDA devices"));
    }
    if (!seen_devices.insert(p.device).second) {
      return absl::InvalidArgumentError(absl::StrCat("two partitions are on device ", p.device,
                                                     "; NCCL needs one device per partition"));
    }
  }
  std::unique_ptr<NcclCommunicator> communicator(
      new NcclCommunicator(num_partitions, std::move(bootstrap), options));
  for (const LocalPartition& p : local) {
    auto partition = std::make_unique<Partition>();
    partition->id = p.partition;
    partition->device = p.device;
    TESSEL_RETURN_IF_ERROR(CudaStatus(cudaSetDevice(p.device), "cudaSetDevice"));
    TESSEL_RETURN_IF_ERROR(CudaStatus(cudaStreamCreate(&partition->stream), "cudaStreamCreate"));
    communicator->partitions_.emplace(p.partition, std::move(partition));
  }
  return communicator;
}

absl::StatusOr<std::unique_ptr<NcclCommunicator>> NcclCommunicator::CreateSingleProcess(
    int64_t num_partitions, Options options) {
  const int devices = nccl::CudaDeviceCount();
  if (devices < num_partitions) {
    return absl::FailedPreconditionError(absl::StrCat(
        num_partitions, " partitions need ", num_partitions, " CUDA devices; found ", devices));
  }
  std::vector<LocalPartition> local;
  for (int64_t p = 0; p < num_partitions; ++p) local.push_back({p, static_cast<int>(p)});
  return Create(num_partitions, std::move(local), std::make_shared<nccl::InProcessBootstrap>(),
                options);
}

NcclCommunicator::NcclCommunicator(int64_t num_partitions,
                                   std::shared_ptr<nccl::NcclBootstrap> bootstrap, Options options)
    : num_partitions_(num_partitions), bootstrap_(std::move(bootstrap)), options_(options) {}

NcclCommunicator::~NcclCommunicator() {
  const bool failed = has_failed_.load();
  // Finalize every communicator first and wait for them together: finalizing the members
  // of one group one after another from this thread could wait on each other.
  std::vector<std::pair<int, ncclComm_t>> finalizing;
  for (auto& [id, partition] : partitions_) {
    cudaSetDevice(partition->device);
    for (auto& [group, comm] : partition->comms) {
      // Nonblocking communicators usually answer ncclInProgress and finish in the
      // background.
      ncclResult_t finalized = failed ? ncclInternalError : ncclCommFinalize(comm);
      if (finalized == ncclSuccess || finalized == ncclInProgress) {
        finalizing.emplace_back(partition->device, comm);
      } else {
        ncclCommAbort(comm);
      }
    }
  }
  const absl::Time deadline = absl::Now() + std::min(options_.timeout, absl::Seconds(10));
  for (auto& [device, comm] : finalizing) {
    cudaSetDevice(device);
    ncclResult_t state = ncclInProgress;
    while (ncclCommGetAsyncError(comm, &state) == ncclSuccess && state == ncclInProgress &&
           absl::Now() < deadline) {
      std::this_thread::sleep_for(std::chrono::microseconds(100));
    }
    if (state == ncclSuccess) {
      ncclCommDestroy(comm);
    } else {
      ncclCommAbort(comm);
    }
  }
  for (auto& [id, partition] : partitions_) {
    cudaSetDevice(partition->device);
    for (Scratch* scratch : {&partition->input, &partition->output, &partition->signatures}) {
      if (scratch->data != nullptr) cudaFree(scratch->data);
    }
    if (partition->stream != nullptr) cudaStreamDestroy(partition->stream);
  }
}

cudaStream_t NcclCommunicator::stream(int64_t self) const {
  auto it = partitions_.find(self);
  return it == partitions_.end() ? nullptr : it->second->stream;
}

absl::Status NcclCommunicator::Failed() const {
  absl::MutexLock lock(&mu_);
  return failed_;
}

absl::Status NcclCommunicator::Prefixed(const Call& call, const absl::Status& status) const {
  return absl::Status(status.code(), absl::StrCat(call.name, " over group ",
                                                  GroupString(call.group), ": ", status.message()));
}

absl::Status NcclCommunicator::Fail(const Call& call, absl::Status status) {
  if (call.comm != nullptr && call.partition != nullptr) {
    // The communicator may have work in flight that will never complete; abort it so that
    // its kernels exit, and drop it from the cache.
    ncclCommAbort(call.comm);
    for (auto it = call.partition->comms.begin(); it != call.partition->comms.end(); ++it) {
      if (it->second == call.comm) {
        call.partition->comms.erase(it);
        break;
      }
    }
  }
  absl::MutexLock lock(&mu_);
  if (failed_.ok()) {
    failed_ = absl::AbortedError(absl::StrCat(
        "the NCCL communicator is unusable after an earlier failure: ", status.message()));
    has_failed_ = true;
  }
  return status;
}

void NcclCommunicator::Abort(const absl::Status& reason) {
  absl::MutexLock lock(&mu_);
  if (!failed_.ok()) return;
  failed_ = absl::AbortedError(absl::StrCat("collectives aborted: ", reason.message()));
  has_failed_ = true;
}

absl::Status NcclCommunicator::Wait(const Call& call, bool stream, absl::string_view stage) {
  for (int64_t polls = 0;; ++polls) {
    if (has_failed_.load()) return Fail(call, Prefixed(call, Failed()));
    ncclResult_t state = ncclSuccess;
    ncclResult_t queried = ncclCommGetAsyncError(call.comm, &state);
    if (queried != ncclSuccess) {
      return Fail(call, Prefixed(call, NcclStatus(queried, "ncclCommGetAsyncError", call.comm)));
    }
    if (state != ncclSuccess && state != ncclInProgress) {
      return Fail(call, Prefixed(call, NcclStatus(state, absl::StrCat("NCCL ", stage), call.comm)));
    }
    if (state == ncclSuccess) {
      if (!stream) return absl::OkStatus();
      cudaError_t done = cudaStreamQuery(call.partition->stream);
      if (done == cudaSuccess) return absl::OkStatus();
      if (done != cudaErrorNotReady) {
        return Fail(call, Prefixed(call, CudaStatus(done, absl::StrCat("the stream ", stage))));
      }
    }
    if (absl::Now() > call.deadline) {
      return Fail(call, absl::DeadlineExceededError(absl::StrCat(
                            call.name, " over group ", GroupString(call.group), " timed out after ",
                            absl::FormatDuration(options_.timeout), " ", stage)));
    }
    // Spin briefly for short collectives, then leave the core to others.
    if (polls < 1000) {
      std::this_thread::yield();
    } else {
      std::this_thread::sleep_for(std::chrono::microseconds(50));
    }
  }
}

absl::Status NcclCommunicator::Check(const Call& call, ncclResult_t result,
                                     absl::string_view function) {
  if (result == ncclInProgress) return Wait(call, /*stream=*/false, function);
  if (result == ncclSuccess) return absl::OkStatus();
  return Fail(call, Prefixed(call, NcclStatus(result, function, call.comm)));
}

absl::Status NcclCommunicator::CheckCuda(const Call& call, cudaError_t result,
                                         absl::string_view function) {
  if (result == cudaSuccess) return absl::OkStatus();
  return Fail(call, Prefixed(call, CudaStatus(result, function)));
}

absl::StatusOr<void*> NcclCommunicator::Reserve(const Call& call, Scratch& scratch, int64_t bytes) {
  if (scratch.bytes >= bytes) return scratch.data;
  if (scratch.data != nullptr) {
    // The stream is idle between calls, so nothing still uses the old memory.
    TESSEL_RETURN_IF_ERROR(CheckCuda(call, cudaFree(scratch.data), "cudaFree"));
    scratch = Scratch();
  }
  TESSEL_RETURN_IF_ERROR(CheckCuda(call, cudaMalloc(&scratch.data, bytes), "cudaMalloc"));
  scratch.bytes = bytes;
  return scratch.data;
}

absl::StatusOr<ncclComm_t> NcclCommunicator::GroupComm(Call& call) {
  std::vector<int64_t> key(call.group.begin(), call.group.end());
  auto it = call.partition->comms.find(key);
  if (it != call.partition->comms.end()) return it->second;

  absl::StatusOr<ncclUniqueId> id =
      bootstrap_->ExchangeId(call.partition->id, call.group, call.deadline, &has_failed_);
  if (!id.ok()) {
    // Cancelled means Abort() or another call's failure: report that instead.
    return Prefixed(call,
                    id.status().code() == absl::StatusCode::kCancelled ? Failed() : id.status());
  }
  ncclConfig_t config = NCCL_CONFIG_INITIALIZER;
  // Nonblocking: setup and collectives return at once and are polled, so that a member that
  // never comes costs a timeout instead of a hang.
  config.blocking = 0;
  ncclComm_t comm = nullptr;
  ncclResult_t result =
      ncclCommInitRankConfig(&comm, static_cast<int>(key.size()), *id, call.position, &config);
  if (result != ncclSuccess && result != ncclInProgress) {
    if (comm != nullptr) ncclCommAbort(comm);
    return Fail(call, Prefixed(call, NcclStatus(result, "ncclCommInitRankConfig")));
  }
  call.comm = comm;
  TESSEL_RETURN_IF_ERROR(
      Wait(call, /*stream=*/false, "while building the group's NCCL communicator"));
  call.partition->comms.emplace(std::move(key), comm);
  return comm;
}

absl::Status NcclCommunicator::ExchangeSignatures(const Call& call, const Signature& mine,
                                                  const absl::Status& own_status) {
  static_assert(sizeof(Signature) % sizeof(int64_t) == 0);
  constexpr size_t kWords = sizeof(Signature) / sizeof(int64_t);
  const int64_t size = static_cast<int64_t>(call.group.size());
  const int64_t bytes = (size + 1) * static_cast<int64_t>(sizeof(Signature));
  TESSEL_ASSIGN_OR_RETURN(void* device, Reserve(call, call.partition->signatures, bytes));
  auto* slots = static_cast<Signature*>(device);
  cudaStream_t stream = call.partition->stream;
  TESSEL_RETURN_IF_ERROR(CheckCuda(
      call, cudaMemcpyAsync(&slots[size], &mine, sizeof(Signature), cudaMemcpyHostToDevice, stream),
      "cudaMemcpyAsync"));
  TESSEL_RETURN_IF_ERROR(
      Check(call, ncclAllGather(&slots[size], slots, kWords, ncclInt64, call.comm, stream),
            "ncclAllGather"));
  TESSEL_RETURN_IF_ERROR(Wait(call, /*stream=*/true, "waiting for every member to join"));
  std::vector<Signature> signatures(size);
  TESSEL_RETURN_IF_ERROR(CheckCuda(
      call, cudaMemcpy(signatures.data(), slots, size * sizeof(Signature), cudaMemcpyDeviceToHost),
      "cudaMemcpy"));
  if (!own_status.ok()) return Prefixed(call, own_status);
  for (int64_t i = 0; i < size; ++i) {
    const Signature& theirs = signatures[i];
    if (!theirs.own_ok) {
      return Prefixed(call, absl::InvalidArgumentError(absl::StrCat("partition ", call.group[i],
                                                                    " made an invalid call")));
    }
    if (std::memcmp(&theirs, &mine, sizeof(Signature)) != 0) {
      return Prefixed(
          call, absl::InvalidArgumentError(absl::StrCat(
                    "partition ", call.group[i], " called ", Describe(theirs), " but partition ",
                    call.partition->id, " called ", Describe(mine))));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<NcclCommunicator::Partition*> NcclCommunicator::Local(
    absl::string_view name, int64_t self, absl::Span<const int64_t> group) {
  absl::Status failed = Failed();
  if (!failed.ok()) {
    return absl::Status(failed.code(), absl::StrCat(name, " over group ", GroupString(group), ": ",
                                                    failed.message()));
  }
  absl::Status group_status = ValidateGroup(self, group, num_partitions_);
  if (!group_status.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(name, ": ", group_status.message()));
  }
  auto it = partitions_.find(self);
  if (it == partitions_.end()) {
    return absl::InvalidArgumentError(
        absl::StrCat(name, ": partition ", self, " does not run in this process"));
  }
  return it->second.get();
}

absl::Status NcclCommunicator::Run(absl::string_view name, int64_t self,
                                   absl::Span<const int64_t> group, Signature signature,
                                   absl::Status own_status, BufferLocation location,
                                   const void* input, int64_t input_bytes, void* output,
                                   int64_t output_bytes, bool in_place_ok, bool always_enqueue,
                                   const Enqueue& enqueue) {
  TESSEL_ASSIGN_OR_RETURN(Partition * partition, Local(name, self, group));
  Call call{name, group, absl::Now() + options_.timeout, partition};
  call.position = static_cast<int>(std::find(group.begin(), group.end(), self) - group.begin());
  TESSEL_RETURN_IF_ERROR(CudaStatus(cudaSetDevice(partition->device), "cudaSetDevice"));
  TESSEL_ASSIGN_OR_RETURN(call.comm, GroupComm(call));
  signature.own_ok = own_status.ok() ? 1 : 0;
  // A member alone in its group has no one to disagree with: its own checks are enough.
  if (options_.verify_calls && group.size() > 1) {
    TESSEL_RETURN_IF_ERROR(ExchangeSignatures(call, signature, own_status));
  } else if (!own_status.ok()) {
    return Prefixed(call, own_status);
  }
  if (input_bytes == 0 && output_bytes == 0 && !always_enqueue) return absl::OkStatus();

  cudaStream_t stream = partition->stream;
  Operands operands{input, output};
  if (location == BufferLocation::kHost) {
    TESSEL_ASSIGN_OR_RETURN(void* device_input, Reserve(call, partition->input, input_bytes));
    TESSEL_ASSIGN_OR_RETURN(operands.output, Reserve(call, partition->output, output_bytes));
    TESSEL_RETURN_IF_ERROR(CheckCuda(
        call, cudaMemcpyAsync(device_input, input, input_bytes, cudaMemcpyHostToDevice, stream),
        "cudaMemcpyAsync"));
    operands.input = device_input;
  } else if (Overlap(input, input_bytes, output, output_bytes) &&
             !(in_place_ok && input == output)) {
    // NCCL reads and writes concurrently; an input that the output overlaps is read from a
    // copy.
    TESSEL_ASSIGN_OR_RETURN(void* copy, Reserve(call, partition->input, input_bytes));
    TESSEL_RETURN_IF_ERROR(
        CheckCuda(call, cudaMemcpyAsync(copy, input, input_bytes, cudaMemcpyDeviceToDevice, stream),
                  "cudaMemcpyAsync"));
    operands.input = copy;
  }
  TESSEL_RETURN_IF_ERROR(enqueue(call, operands));
  TESSEL_RETURN_IF_ERROR(Wait(call, /*stream=*/true, "waiting for the collective"));
  if (location == BufferLocation::kHost && output_bytes > 0) {
    // Only after the wait: a copy from device to pageable host memory blocks, and must not
    // block on a collective that may never complete.
    TESSEL_RETURN_IF_ERROR(CheckCuda(
        call,
        cudaMemcpyAsync(output, operands.output, output_bytes, cudaMemcpyDeviceToHost, stream),
        "cudaMemcpyAsync"));
    TESSEL_RETURN_IF_ERROR(Wait(call, /*stream=*/true, "copying the result to the host"));
  }
  return absl::OkStatus();
}

std::string NcclCommunicator::Describe(const Signature& signature) {
  static constexpr absl::string_view kNames[] = {
      "all_reduce",         "all_gather", "reduce_scatter", "all_to_all",
      "collective_permute", "broadcast",  "barrier"};
  std::string text(signature.collective >= 0 && signature.collective <= kBarrierCode
                       ? kNames[signature.collective]
                       : absl::string_view("an unknown collective"));
  if (signature.collective == kBarrierCode) return text;
  const auto type = static_cast<DataType>(signature.type);
  if (signature.collective == kAllReduceCode || signature.collective == kReduceScatterCode) {
    absl::StrAppend(&text, "(", ReductionKindName(static_cast<ReductionKind>(signature.kind)), ")");
  }
  absl::StrAppend(&text, " of ", signature.input_count, " x ", DataTypeName(type));
  if (signature.output_count != signature.input_count) {
    absl::StrAppend(&text, " into ", signature.output_count);
  }
  if (signature.collective == kBroadcastCode) {
    absl::StrAppend(&text, " from partition ", signature.root);
  }
  if (signature.collective == kCollectivePermuteCode) {
    absl::StrAppend(&text, " with pairs hashed to ", static_cast<uint64_t>(signature.pairs_hash));
  }
  return text;
}

}  // namespace tessel::collectives
