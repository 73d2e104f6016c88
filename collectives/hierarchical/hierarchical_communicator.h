// The hierarchical collectives backend: several partitions per MPI rank, as threads of that
// rank. A group whose members all sit on this rank goes through local (thread) exchange, a
// group with one member per rank straight through MPI, and a group that mixes the two is
// combined in three steps:
//   1. the members on each rank meet locally, and the first of them in group order, the
//      rank's leader, reads the others' inputs;
//   2. the leaders (one per rank, in group order of first appearance) make one MPI call
//      among themselves through the MpiCommunicator;
//   3. each leader writes every local member's output, then all of them return.
// Only leaders call MPI, and only for their own groups. Leaders of different groups are
// different threads, so MPI must be initialized with MPI_THREAD_MULTIPLE (the
// MpiCommunicator checks this when the assignment has several partitions on a rank).
//
//   MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
//   // Partitions {0, 1} on rank 0 and {2, 3} on rank 1.
//   auto mpi = MpiCommunicator::Create(
//       *DeviceAssignment::FromLocations({{0, 0}, {0, 1}, {1, 0}, {1, 1}}));
//   HierarchicalCommunicator communicator(mpi->get());
//   // One thread per partition in (*mpi)->local_partitions(), each calling e.g.
//   communicator.AllReduce(self, {0, 1, 2, 3}, ReductionKind::kSum, input, output);
//
// How the mixed case moves data (n members, k the most members on one rank, c elements):
//   - all_reduce: when each rank's members form one contiguous run of the group, the leader
//     reduces them in group order and the leaders all-reduce the partial results in group
//     order; otherwise the leaders all-gather every member's input and each reduces all n
//     in group order. Either way every member gets the same bits; a floating-point sum may
//     round differently from a backend that adds the n inputs one after another.
//   - reduce_scatter: like all_reduce on the whole input; with contiguous runs of equal
//     length the leaders reduce-scatter (each gets its run's blocks) instead.
//   - all_gather, all_to_all, collective_permute: the leaders all-gather every member's
//     input (each leader's block padded to k members), and each leader picks out what its
//     members need. This moves more than the pairwise minimum for all_to_all and
//     collective_permute; it keeps one MPI call per collective.
//   - broadcast: the root's leader broadcasts to the other leaders.
// The leaders' all-gathers carry a fingerprint of the call (collective, type, counts,
// pairs, group), so ranks whose members made different calls fail with InvalidArgument
// instead of mixing data.
//
// Errors: a call that fails in step 1 on some rank (a member's invalid arguments, members
// that disagree, a member that does not come in time, an abort) fails there on every local
// member, and the leader rejects the MPI step (MpiCommunicator::Reject), so the other ranks'
// members fail too instead of waiting for their timeout. That relies on the MPI
// communicator's verify_calls (its default). A failure in step 2 reaches every member of
// the rank through step 3.
#ifndef TESSEL_COLLECTIVES_HIERARCHICAL_HIERARCHICAL_COMMUNICATOR_H_
#define TESSEL_COLLECTIVES_HIERARCHICAL_HIERARCHICAL_COMMUNICATOR_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "collectives/communicator.h"
#include "collectives/local/local_communicator.h"
#include "collectives/local/rendezvous.h"
#include "collectives/mpi/mpi_communicator.h"

namespace tessel::collectives {

class HierarchicalCommunicator final : public Communicator {
 public:
  struct Options {
    // How long the local steps wait for this rank's members of a group before failing with
    // DeadlineExceeded. The MPI step has the MpiCommunicator's own timeout.
    absl::Duration timeout = absl::Seconds(60);
  };

  // REQUIRES: `mpi` outlives this communicator.
  explicit HierarchicalCommunicator(MpiCommunicator* mpi);
  HierarchicalCommunicator(MpiCommunicator* mpi, Options options);

  int64_t num_partitions() const override { return mpi_->num_partitions(); }
  // The partitions this rank runs, by slot: the valid `self`s.
  absl::Span<const int64_t> local_partitions() const { return mpi_->local_partitions(); }

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
  // Aborts the local steps and the MPI communicator (which, with its abort_job option,
  // ends the whole job).
  void Abort(const absl::Status& reason) override;

 private:
  enum class Route { kLocal, kMpi, kMixed };

  // How a group lies over the ranks.
  struct Layout {
    std::vector<int64_t> group;
    // The ranks in the order their first member appears in the group, and for each, the
    // group positions of its members (ascending) and its leader (the first of them).
    std::vector<int64_t> ranks;
    std::vector<std::vector<int64_t>> positions;
    std::vector<int64_t> leaders;
    // The index of this rank in `ranks`.
    int64_t mine = 0;
    // The most members on one rank.
    int64_t max_members = 0;
    // Each rank's members form one run of consecutive positions.
    bool contiguous = true;
    // Every rank has the same number of members.
    bool equal = true;

    int64_t size() const { return static_cast<int64_t>(group.size()); }
    int64_t leader() const { return leaders[mine]; }
    std::vector<int64_t> LocalMembers() const;
  };

  // A member's part of a mixed call, published at the local rendezvous for the leader.
  struct Member {
    int64_t self;
    int64_t position;  // in the group
    ConstBuffer input;
    Buffer output;
    // Set by the leader before the members leave.
    absl::Status result;
  };
  // The leader's step 2 and 3: reads the members' inputs, calls MPI, writes their outputs.
  using LeaderBody =
      std::function<absl::Status(const Layout& layout, const std::vector<Member*>& members)>;

  // Validates the group and the caller, and says how the call goes.
  absl::StatusOr<Route> RouteOf(absl::string_view name, int64_t self,
                                absl::Span<const int64_t> group) const;
  Layout LayoutOf(absl::Span<const int64_t> group) const;
  // Steps 1-3 for the caller.
  absl::Status RunMixed(int64_t self, const Layout& layout, absl::string_view name,
                        const std::string& description, absl::Status own_status, ConstBuffer input,
                        Buffer output, const LeaderBody& body);
  // Every member's input (each `bytes` long), all-gathered among the leaders and returned
  // in group order. Fails with InvalidArgument if another rank's members described their
  // call differently (`description`).
  absl::StatusOr<std::vector<std::byte>> GatherInputs(const Layout& layout,
                                                      const std::vector<Member*>& members,
                                                      int64_t bytes,
                                                      const std::string& description);

  MpiCommunicator* const mpi_;
  const int64_t rank_;
  // Groups entirely on this rank.
  LocalCommunicator local_;
  // The local steps of mixed groups, keyed by this rank's members of the group.
  local::RendezvousTable table_;
};

}  // namespace tessel::collectives

#endif  // TESSEL_COLLECTIVES_HIERARCHICAL_HIERARCHICAL_COMMUNICATOR_H_
