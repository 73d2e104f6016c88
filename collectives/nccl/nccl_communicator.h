// The NCCL collectives backend: partitions on CUDA devices, one device per partition, in one
// process (threads) or across the processes of an MPI job. Built only with --config=cuda.
//
//   // Four partitions on GPUs 0-3 of this process, one thread each:
//   auto communicator = NcclCommunicator::CreateSingleProcess(4);
//   // On partition p's thread (device buffers by default):
//   absl::Status status = (*communicator)->AllReduce(
//       p, {0, 1, 2, 3}, ReductionKind::kSum, ConstBuffer{DataType::kF32, device_in, n},
//       Buffer{DataType::kF32, device_out, n});
//
// Buffers: with Options::buffers == kDevice (the default) `data` pointers are device memory
// on the partition's GPU, written before the call by work that the partition's stream
// follows (the legacy default stream, or finished work). With kHost they are host memory;
// each call copies the input to device scratch and the result back, so the runtime, which
// holds host tensors, can run its collectives through NCCL.
//
// Every call is synchronous like the other backends': it enqueues NCCL work on the
// partition's stream and returns once the stream has finished it.
//
// Communicators: the first call of a partition over a group builds that partition's NCCL
// communicator of the group (the bootstrap carries the unique id from the group's position-0
// member; see nccl_bootstrap.h), with NCCL rank = position in the group, and caches it.
// Communicators are nonblocking (ncclConfig_t::blocking = 0), so setup and every collective
// are polled: ncclCommGetAsyncError and cudaStreamQuery until done, failure, Abort(), or
// Options::timeout since the call began. On a timeout or Abort() the call aborts its NCCL
// communicator (ncclCommAbort), the communicator refuses every later call, and the call
// fails with DeadlineExceeded or Aborted naming the collective and group.
//
// Collectives: all_reduce, all_gather, reduce_scatter and broadcast are NCCL's; all_to_all
// and collective_permute are grouped ncclSend/ncclRecv; barrier is a one-element all-reduce.
// Data movement runs on bytes, so every data type works; reductions map types as
// nccl_types.h says (pred as uint8, s16/u16 widened to 32 bits on the host). Reductions
// follow NCCL's order, not group order: every member gets the same result, but float sums
// may differ in the last bits from the local backend's.
//
// Argument checks are the shared Validate* ones, with the other backends' messages. With
// Options::verify_calls (the default) the members first all-gather a short description of
// their call, so a call that disagrees with another member's, or whose own arguments are
// wrong, fails with InvalidArgument on every member instead of hanging or corrupting NCCL.
// A group of one skips that exchange (about 25 us a call on an H200; docs/benchmarks.md).
#ifndef TESSEL_COLLECTIVES_NCCL_NCCL_COMMUNICATOR_H_
#define TESSEL_COLLECTIVES_NCCL_NCCL_COMMUNICATOR_H_

#include <cuda_runtime_api.h>
#include <nccl.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "collectives/communicator.h"
#include "collectives/nccl/nccl_bootstrap.h"

namespace tessel::collectives {

class NcclCommunicator final : public Communicator {
 public:
  enum class BufferLocation { kDevice, kHost };

  struct Options {
    // How long one collective (including building its communicator) may take.
    absl::Duration timeout = absl::Seconds(60);
    BufferLocation buffers = BufferLocation::kDevice;
    // Exchange and compare call descriptions before every collective (see above).
    bool verify_calls = true;
  };

  // A partition this process runs, and the CUDA device it runs on.
  struct LocalPartition {
    int64_t partition;
    int device;
  };

  // Fails with InvalidArgument for partitions outside [0, num_partitions), a partition
  // listed twice, two partitions on one device (NCCL allows one rank per device in a
  // communicator) or a device this process cannot see, and with FailedPrecondition when
  // there is no CUDA device at all.
  static absl::StatusOr<std::unique_ptr<NcclCommunicator>> Create(
      int64_t num_partitions, std::vector<LocalPartition> local,
      std::shared_ptr<nccl::NcclBootstrap> bootstrap, Options options);

  // Partition p on device p for p in [0, num_partitions), in this process.
  static absl::StatusOr<std::unique_ptr<NcclCommunicator>> CreateSingleProcess(
      int64_t num_partitions, Options options);
  static absl::StatusOr<std::unique_ptr<NcclCommunicator>> CreateSingleProcess(
      int64_t num_partitions) {
    return CreateSingleProcess(num_partitions, Options());
  }

  // Destroys the cached NCCL communicators (aborting those of a failed communicator),
  // streams and scratch memory. REQUIRES: no call is in progress.
  ~NcclCommunicator() override;

  int64_t num_partitions() const override { return num_partitions_; }

  // The stream partition `self`'s collectives run on, for callers that order their own
  // device work after it; null if `self` is not local.
  cudaStream_t stream(int64_t self) const;

  absl::Status AllReduce(int64_t self, absl::Span<const int64_t> group, ReductionKind kind,
                         ConstBuffer input, Buffer output) override;
  absl::Status AllGather(int64_t self, absl::Span<const int64_t> group, ConstBuffer input,
                         Buffer output) override;
  absl::Status ReduceScatter(int64_t self, absl::Span<const int64_t> group, ReductionKind kind,
                             ConstBuffer input, Buffer output) override;
  absl::Status AllToAll(int64_t self, absl::Span<const int64_t> group, ConstBuffer input,
                        Buffer output) override;
  absl::Status CollectivePermute(int64_t self, absl::Span<const int64_t> group,
                                 absl::Span<const SourceTarget> pairs, ConstBuffer input,
                                 Buffer output) override;
  absl::Status Broadcast(int64_t self, absl::Span<const int64_t> group, int64_t root,
                         Buffer buffer) override;
  absl::Status Barrier(int64_t self, absl::Span<const int64_t> group) override;
  void Abort(const absl::Status& reason) override;

 private:
  // Signature::collective values; their names are in Describe.
  enum CollectiveCode : int64_t {
    kAllReduceCode,
    kAllGatherCode,
    kReduceScatterCode,
    kAllToAllCode,
    kCollectivePermuteCode,
    kBroadcastCode,
    kBarrierCode,
  };
  // Device memory that grows on demand and is freed with the partition.
  struct Scratch {
    void* data = nullptr;
    int64_t bytes = 0;
  };
  // One local partition's device, stream, communicators and scratch. Only the partition's
  // own thread touches it after creation.
  struct Partition {
    int64_t id = 0;
    int device = 0;
    cudaStream_t stream = nullptr;
    std::map<std::vector<int64_t>, ncclComm_t> comms;
    Scratch input, output, signatures;
  };
  // What every member of a call must agree on; all-gathered when verify_calls is set.
  struct Signature {
    int64_t collective = 0;
    int64_t type = 0;
    int64_t input_count = 0;
    int64_t output_count = 0;
    int64_t kind = 0;
    int64_t root = 0;
    int64_t pairs_hash = 0;
    int64_t own_ok = 1;
  };
  // One call in progress.
  struct Call {
    absl::string_view name;
    absl::Span<const int64_t> group;
    absl::Time deadline;
    Partition* partition = nullptr;
    ncclComm_t comm = nullptr;
    int position = 0;
  };
  // The device addresses a collective reads and writes, after any staging.
  struct Operands {
    const void* input;
    void* output;
  };
  // Enqueues the NCCL work of one collective on the call's stream.
  using Enqueue = std::function<absl::Status(const Call& call, const Operands& operands)>;

  NcclCommunicator(int64_t num_partitions, std::shared_ptr<nccl::NcclBootstrap> bootstrap,
                   Options options);

  // The caller's partition, after checking that the communicator has not failed, that the
  // group is valid and that `self` runs here.
  absl::StatusOr<Partition*> Local(absl::string_view name, int64_t self,
                                   absl::Span<const int64_t> group);
  // Runs one collective for `self`: gets the group's communicator, agrees with the other
  // members on `signature` (own_status is the caller's own argument check), stages the
  // `input_bytes` at `input` into device memory (host buffers always; device buffers when
  // they overlap the output, unless input == output and `in_place_ok`), runs `enqueue`,
  // copies the `output_bytes` result back to host buffers and waits for the stream. Calls
  // that move no bytes skip `enqueue` unless `always_enqueue`.
  absl::Status Run(absl::string_view name, int64_t self, absl::Span<const int64_t> group,
                   Signature signature, absl::Status own_status, BufferLocation location,
                   const void* input, int64_t input_bytes, void* output, int64_t output_bytes,
                   bool in_place_ok, bool always_enqueue, const Enqueue& enqueue);
  // An all-reduce (blocks == 1) or reduce-scatter (blocks == group size) in NCCL's types.
  absl::Status Reduce(absl::string_view name, int64_t self, absl::Span<const int64_t> group,
                      Signature signature, absl::Status own_status, ReductionKind kind,
                      int64_t blocks, ConstBuffer input, Buffer output);
  // The (cached) NCCL communicator of the call's partition over its group.
  absl::StatusOr<ncclComm_t> GroupComm(Call& call);
  absl::Status ExchangeSignatures(const Call& call, const Signature& mine,
                                  const absl::Status& own_status);
  // Polls until the communicator has no operation in progress (nonblocking NCCL calls
  // return ncclInProgress) and, with `stream`, until the stream is idle.
  absl::Status Wait(const Call& call, bool stream, absl::string_view stage);
  // Checks an NCCL call's result, waiting for it when it is still in progress.
  absl::Status Check(const Call& call, ncclResult_t result, absl::string_view function);
  absl::Status CheckCuda(const Call& call, cudaError_t result, absl::string_view function);
  // Records a failure that leaves NCCL work behind: the call's communicator is aborted and
  // every later call fails.
  absl::Status Fail(const Call& call, absl::Status status);
  absl::Status Failed() const;
  absl::Status Prefixed(const Call& call, const absl::Status& status) const;
  absl::StatusOr<void*> Reserve(const Call& call, Scratch& scratch, int64_t bytes);
  static std::string Describe(const Signature& signature);

  const int64_t num_partitions_;
  const std::shared_ptr<nccl::NcclBootstrap> bootstrap_;
  const Options options_;
  // Keyed by partition id; fixed after creation.
  std::map<int64_t, std::unique_ptr<Partition>> partitions_;

  mutable absl::Mutex mu_;
  absl::Status failed_ ABSL_GUARDED_BY(mu_);
  // Mirrors !failed_.ok() for the polling loops.
  std::atomic<bool> has_failed_{false};
};

}  // namespace tessel::collectives

#endif  // TESSEL_COLLECTIVES_NCCL_NCCL_COMMUNICATOR_H_
