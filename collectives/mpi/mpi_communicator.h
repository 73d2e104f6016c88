// The MPI collectives backend: partitions on the ranks of an MPI job, across processes and
// hosts. Each rank creates one MpiCommunicator after MPI_Init and passes the calling
// partition's id as `self` to every call.
//
//   MPI_Init(&argc, &argv);
//   auto communicator = MpiCommunicator::Create(DeviceAssignment::Identity(world_size));
//   if (!communicator.ok()) ...  // e.g. the assignment does not match the world size
//   int64_t self = (*communicator)->partition_id();
//   absl::Status status = (*communicator)->AllReduce(
//       self, {0, 1, 2, 3}, ReductionKind::kSum, MakeConstBuffer(absl::MakeConstSpan(values)),
//       MakeBuffer(absl::MakeSpan(sums)));
//
// Each group gets its own MPI communicator, whose rank i is the group's position i. It is
// built the first time the group is used (MPI_Comm_create_group, collective over the group
// only) and cached. Before building it the members exchange a handshake, so a member that
// never arrives costs a timeout that names it instead of a hang inside MPI.
//
// Several partitions per rank: the assignment may place several partitions on one rank
// (DeviceAssignment::FromLocations); then `self` is any of this rank's partitions, each
// group must have its members on distinct ranks (collectives/hierarchical combines the
// members of one rank first and calls this backend with one member per rank), and calls
// over different groups may come from different threads at the same time, which needs MPI
// initialized with MPI_THREAD_MULTIPLE. The calls of one partition must come from one
// thread at a time, in program order.
//
// Every collective is nonblocking underneath (MPI_Iallreduce, ...) and polled until done or
// until Options::timeout has passed since the call began. On a timeout the call fails with
// DeadlineExceeded naming the collective and group, and, with Options::abort_job, the rank
// prints that error and calls MPI_Abort so that no rank of the job hangs.
//
// With Options::verify_calls (the default) the members first exchange a short description
// of their call (collective, data type, counts, reduction, root or pairs, whether the
// caller's own arguments were valid), so a call that disagrees with another member's fails
// with InvalidArgument on every member, as the interface promises, instead of being
// undefined behaviour in MPI. It costs one small all-gather per call.
#ifndef TESSEL_COLLECTIVES_MPI_MPI_COMMUNICATOR_H_
#define TESSEL_COLLECTIVES_MPI_MPI_COMMUNICATOR_H_

#include <mpi.h>

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "collectives/communicator.h"
#include "collectives/mpi/device_assignment.h"
#include "collectives/mpi/mpi_types.h"

namespace tessel::collectives {

class MpiCommunicator final : public Communicator {
 public:
  struct Options {
    // How long one collective may take, from the call, before it fails with
    // DeadlineExceeded.
    absl::Duration timeout = absl::Seconds(60);
    // On a timeout or Abort(), print the error and MPI_Abort the whole job, so that the
    // other ranks do not wait for this one. Without it the call returns the error and the
    // communicator refuses every later call; MPI cannot cancel the collective left behind,
    // so the process should end soon (tests use this to inspect the error).
    bool abort_job = true;
    // Exchange and compare call descriptions before every collective (see above).
    bool verify_calls = true;
    // Floating-point all_reduce and reduce_scatter whose input has at least this many
    // bytes run as an all-to-all that brings each member the group's pieces of its block,
    // a fold of those pieces in group order, and (all_reduce) an all-gather of the folded
    // blocks; smaller ones as one MPI call with the ordered MPI_Op (see mpi_types.h). Both
    // combine in group order; the fold is exactly the local backend's left fold and, for
    // large buffers, about twice as fast as MPI's algorithms for non-commutative
    // operations (docs/benchmarks.md).
    int64_t fold_min_bytes = 64 << 10;
  };

  // The communicator for this rank. Fails with FailedPrecondition if MPI is not
  // initialized, or if the assignment places several partitions on a rank and MPI was not
  // initialized with MPI_THREAD_MULTIPLE, and with InvalidArgument if `assignment` does not
  // use exactly the ranks of MPI_COMM_WORLD.
  static absl::StatusOr<std::unique_ptr<MpiCommunicator>> Create(DeviceAssignment assignment,
                                                                 Options options);
  static absl::StatusOr<std::unique_ptr<MpiCommunicator>> Create(DeviceAssignment assignment);

  // Frees the cached MPI communicators. REQUIRES: MPI is not finalized yet, or nothing is
  // freed (MPI already released everything).
  ~MpiCommunicator() override;

  int64_t num_partitions() const override { return assignment_.num_partitions(); }
  // The partition in slot 0 of this rank: with one partition per rank, the only valid
  // `self`.
  int64_t partition_id() const { return partition_id_; }
  // Every partition this rank runs, by slot: the valid `self`s.
  absl::Span<const int64_t> local_partitions() const {
    return assignment_.PartitionsOf(rank_);
  }
  int64_t rank() const { return rank_; }
  const DeviceAssignment& assignment() const { return assignment_; }

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

  // Joins the next call over `group` as a member that cannot make it, because of `reason`
  // (not OK): with verify_calls the other members' calls, whatever collective they are,
  // fail with `reason`'s code and a message naming `self`, and this call returns `reason`
  // prefixed with `collective` and the group. Without verify_calls the others are not told
  // and run into their timeout. This is how a layer above (collectives/hierarchical) fails
  // a call on every member when its own part of the call failed before reaching MPI.
  absl::Status Reject(int64_t self, absl::Span<const int64_t> group, absl::string_view collective,
                      const absl::Status& reason);

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
  // What every member of a call must agree on; exchanged when verify_calls is set.
  struct Signature {
    int64_t collective = 0;
    int64_t type = 0;
    int64_t input_count = 0;
    int64_t output_count = 0;
    int64_t kind = 0;
    int64_t root = 0;
    int64_t pairs_hash = 0;
    // The status code of the caller's own argument checks (0 is OK).
    int64_t own_code = 0;
  };
  // One call in progress.
  struct Call {
    absl::string_view name;
    int64_t self;
    absl::Span<const int64_t> group;
    absl::Time deadline;
  };

  MpiCommunicator(DeviceAssignment assignment, Options options, int64_t rank, MPI_Comm base,
                  int64_t tag_space);

  // Checks that this rank may call over `group` as `self` and is not failed, agrees with
  // the other members on the call (own_status is the caller's own argument check), and
  // returns the group's MPI communicator.
  absl::StatusOr<MPI_Comm> Begin(const Call& call, int64_t self, Signature signature,
                                 absl::Status own_status);
  // The cached communicator of `group`, built on first use.
  absl::StatusOr<MPI_Comm> GroupComm(const Call& call);
  absl::Status ExchangeSignatures(const Call& call, MPI_Comm comm, const Signature& mine,
                                  const absl::Status& own_status);
  // Polls `requests` until all complete or the call's deadline passes. `missing` (optional)
  // receives the indices of requests still pending at the deadline.
  absl::Status Wait(const Call& call, std::vector<MPI_Request>& requests,
                    absl::string_view stage, std::vector<size_t>* missing = nullptr);
  // Records a timeout (or any failure that leaves MPI requests behind) and, with
  // abort_job, ends the job.
  absl::Status Fail(absl::Status status);
  // Turns an MPI error code into a status naming the call.
  absl::Status MpiError(const Call& call, absl::string_view function, int code);
  // Keeps `buffer` alive for the rest of the communicator's life: after a failed wait MPI
  // may still write to it.
  void Orphan(std::unique_ptr<std::vector<unsigned char>> buffer);
  Call MakeCall(absl::string_view name, int64_t self, absl::Span<const int64_t> group) const;
  // The tag of `group`'s handshake and communicator creation, from its hash: concurrent
  // setups of different groups (from different threads) must use different tags.
  int GroupTag(uint64_t hash) const;
  // Completes a call whose nonblocking MPI function returned `code` and filled `requests`;
  // `scratch` (may be null) is what MPI reads or writes besides the caller's buffers; on
  // failure it moves to the orphans, on success it stays with the caller.
  absl::Status Finish(const Call& call, absl::string_view function, int code,
                      std::vector<MPI_Request>& requests,
                      std::unique_ptr<std::vector<unsigned char>>& scratch);
  // all_reduce (`gather`) or reduce_scatter of an order-sensitive type by an all-to-all
  // of blocks, a left fold in group order of each member's block, and for all_reduce an
  // ExchangeBlocks of the folded blocks (see Options::fold_min_bytes). `input` and `output`
  // are the caller's, already checked; `position` is the caller's in the group.
  absl::Status FoldInGroupOrder(const Call& call, MPI_Comm comm, int64_t position,
                                ReductionKind kind, ConstBuffer input, Buffer output,
                                bool gather);
  // The all-gather of blocks: this member's block (`send`, counts[position] elements of
  // `type`) goes to every other member of the call's group, and theirs arrive in `output`
  // at `offsets` (elements); this member's own block is left to the caller. `scratch`, if
  // any, is orphaned on failure (see Finish).
  absl::Status ExchangeBlocks(const Call& call, MPI_Comm comm, int64_t position, DataType type,
                              const void* send, void* output, absl::Span<const int> counts,
                              absl::Span<const int> offsets,
                              std::unique_ptr<std::vector<unsigned char>>& scratch);
  // The receive buffer of FoldInGroupOrder for partition `self`, kept between calls (empty
  // the first time); a failed call orphans it instead of returning it.
  std::unique_ptr<std::vector<unsigned char>> TakeFoldBuffer(int64_t self);
  void ReturnFoldBuffer(int64_t self, std::unique_ptr<std::vector<unsigned char>> buffer);
  // "all_gather of 4 x f32 into 8" and so on, for mismatch messages.
  static std::string Describe(const Signature& signature);

  // The status every later call fails with, OK while none has failed.
  absl::Status FailedStatus();

  const DeviceAssignment assignment_;
  const Options options_;
  const int64_t rank_;
  const int64_t partition_id_;
  // A duplicate of MPI_COMM_WORLD that errors return on, the parent of every group's.
  MPI_Comm base_;
  // Group tags run over [1, tag_space_] (MPI_TAG_UB, as large as the job allows).
  const int64_t tag_space_;
  mpi::MpiTypeTable types_;
  // Guards what follows; never held while waiting for MPI, so that the threads of several
  // partitions can wait at the same time.
  std::mutex mu_;
  std::map<std::vector<int64_t>, MPI_Comm> group_comms_;
  // Set after a timeout or Abort(): every later call fails with it.
  absl::Status failed_;
  std::vector<std::unique_ptr<std::vector<unsigned char>>> orphans_;
  std::map<int64_t, std::unique_ptr<std::vector<unsigned char>>> fold_buffers_;
};

}  // namespace tessel::collectives

#endif  // TESSEL_COLLECTIVES_MPI_MPI_COMMUNICATOR_H_
