// How the members of a group agree on the NCCL unique id their communicator is built from.
// The member at position 0 makes the id (ncclGetUniqueId) and every other member receives
// it; then each member calls ncclCommInitRank with it. InProcessBootstrap serves partitions
// that are threads of one process (one GPU each); MpiBootstrap (nccl_mpi_bootstrap.h)
// carries the id between the processes of an MPI job.
//
//   auto bootstrap = std::make_shared<InProcessBootstrap>();
//   // On partition p's thread, for group {0, 1}:
//   absl::StatusOr<ncclUniqueId> id =
//       bootstrap->ExchangeId(p, {0, 1}, absl::Now() + timeout, /*cancelled=*/nullptr);
#ifndef TESSEL_COLLECTIVES_NCCL_NCCL_BOOTSTRAP_H_
#define TESSEL_COLLECTIVES_NCCL_NCCL_BOOTSTRAP_H_

#include <nccl.h>

#include <atomic>
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "absl/types/span.h"

namespace tessel::collectives::nccl {

class NcclBootstrap {
 public:
  virtual ~NcclBootstrap() = default;

  // Returns the unique id of the communicator over `group` to member `self`; every member
  // of one exchange gets the same id. Fails with DeadlineExceeded if the id (or, where the
  // bootstrap can tell, some member) has not arrived by `deadline`. Each member calls it
  // once per communicator it builds; members' k-th exchanges over one group meet.
  // Returns Cancelled soon after `*cancelled` (when given) becomes true, so that an Abort()
  // of the communicator also ends a set-up in progress.
  // REQUIRES: `group` is valid and includes `self` (the communicator checked it).
  virtual absl::StatusOr<ncclUniqueId> ExchangeId(int64_t self, absl::Span<const int64_t> group,
                                                  absl::Time deadline,
                                                  const std::atomic<bool>* cancelled) = 0;
};

// Members are threads of this process. Every member waits until the whole group has
// arrived, so a timeout names the partitions that did not come.
class InProcessBootstrap final : public NcclBootstrap {
 public:
  absl::StatusOr<ncclUniqueId> ExchangeId(int64_t self, absl::Span<const int64_t> group,
                                          absl::Time deadline,
                                          const std::atomic<bool>* cancelled) override;

 private:
  // One exchange in progress over a group.
  struct Exchange {
    std::vector<int64_t> arrived;
    bool has_id = false;
    ncclUniqueId id;
    absl::Status failure;  // set when position 0 could not make the id
    int64_t departed = 0;
  };

  // A group and the index of an exchange over it: members' k-th exchanges meet.
  using Key = std::pair<std::vector<int64_t>, int64_t>;

  absl::Mutex mu_;
  // An entry lives until every member has taken the id (or given up).
  std::map<Key, Exchange> exchanges_ ABSL_GUARDED_BY(mu_);
  // How many exchanges each (member, group) has begun.
  std::map<std::pair<int64_t, std::vector<int64_t>>, int64_t> rounds_ ABSL_GUARDED_BY(mu_);
};

}  // namespace tessel::collectives::nccl

#endif  // TESSEL_COLLECTIVES_NCCL_NCCL_BOOTSTRAP_H_
