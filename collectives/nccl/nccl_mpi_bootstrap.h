// The NCCL bootstrap across the processes of an MPI job: the process running the group's
// position-0 partition makes the id and sends it, over MPI, to the process of every other
// member. Partitions map to MPI ranks through `rank_of_partition`; a process may run
// several partitions (one per GPU), each on its own thread, which needs MPI initialized
// with at least MPI_THREAD_SERIALIZED (every MPI call here holds one lock).
//
//   MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided);
//   // Two processes with two GPUs each: partitions 0, 1 on rank 0 and 2, 3 on rank 1.
//   auto bootstrap = MpiBootstrap::Create({0, 0, 1, 1});
#ifndef TESSEL_COLLECTIVES_NCCL_NCCL_MPI_BOOTSTRAP_H_
#define TESSEL_COLLECTIVES_NCCL_NCCL_MPI_BOOTSTRAP_H_

#include <mpi.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "collectives/nccl/nccl_bootstrap.h"

namespace tessel::collectives::nccl {

class MpiBootstrap final : public NcclBootstrap {
 public:
  // Fails with FailedPrecondition if MPI is not initialized, and with InvalidArgument if a
  // rank is outside MPI_COMM_WORLD or this process runs several partitions while MPI was
  // initialized without thread support.
  static absl::StatusOr<std::unique_ptr<MpiBootstrap>> Create(
      std::vector<int64_t> rank_of_partition);
  ~MpiBootstrap() override;

  absl::StatusOr<ncclUniqueId> ExchangeId(int64_t self, absl::Span<const int64_t> group,
                                          absl::Time deadline,
                                          const std::atomic<bool>* cancelled) override;

 private:
  // What travels: the group's hash (to catch two groups whose tags collide) and the id.
  struct IdMessage {
    uint64_t group_hash;
    ncclUniqueId id;
  };

  MpiBootstrap(std::vector<int64_t> rank_of_partition, MPI_Comm comm);

  // Polls `request` under the lock until it completes, `deadline` passes or `*cancelled`
  // becomes true; in the latter two cases cancels and frees it.
  absl::Status Wait(MPI_Request& request, absl::Time deadline, const std::atomic<bool>* cancelled);

  // Keeps a message whose request timed out alive: MPI may still read or write it.
  void Orphan(std::unique_ptr<IdMessage> message);

  const std::vector<int64_t> rank_of_partition_;
  absl::Mutex mu_;
  // A duplicate of MPI_COMM_WORLD, so ids never meet other traffic.
  MPI_Comm comm_;
  std::vector<std::unique_ptr<IdMessage>> orphans_ ABSL_GUARDED_BY(mu_);
};

}  // namespace tessel::collectives::nccl

#endif  // TESSEL_COLLECTIVES_NCCL_NCCL_MPI_BOOTSTRAP_H_
